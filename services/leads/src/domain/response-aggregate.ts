import { ANALYTICS_CHANNELS, type JobSource } from "@lease/contracts";
import { FLAG, NONE16, NONE8, RECORD_BYTES, type PackedWeek } from "./response-pack";

// The response report's figures from the packed weeks of a period: counts and exact percentiles
// (percentile_disc's: the first value whose position reaches the fraction, k = ceil(p × n)) per
// week, owner, channel, campaign, kind and in total.
// Each week's leads are summed up once per group (counts, and the minutes and pending deadlines
// sorted), kept with the cached week, and whole blocks of eight weeks merged once into one summary
// per group, so a report over two years adds up ~30 summaries per group, not 100,000 leads: counts
// add up, and a percentile is the rank's value in the union of the summaries' sorted minutes, found
// by halving a range of minutes and counting in each summary by binary search (exact, no lead
// re-read or re-sorted). A week the period cuts (its first or last) is summed up for its days alone.

/** Which grouping a row is (the bits of SQL's GROUPING(week, owner, channel, campaign); kind apart). */
export const GROUPING = {
  week: 0b0111,
  owner: 0b1011,
  channel: 0b1101,
  campaign: 0b1110,
  total: 0b1111,
  kind: 0b10000,
} as const;

export interface ResponseRow {
  grouping: number;
  week: string | null;
  ownerId: string | null;
  ownerName: string | null;
  channel: string | null;
  campaign: string | null;
  kind: JobSource | null;
  leads: number;
  answered: number;
  withinPromise: number;
  late: number;
  /** Median and 90th percentile; null when no lead has the measure. */
  working: [number, number] | null;
  clock: [number, number] | null;
}

/** A packed week's records as columns (decoded once per week object: cached weeks are reused). */
interface Columns {
  day: Uint8Array;
  flags: Uint8Array;
  channel: Uint8Array;
  owner: Uint16Array;
  campaign: Uint16Array;
  working: Int32Array;
  clock: Int32Array;
  due: Float64Array;
}
const decoded = new WeakMap<PackedWeek, Columns>();

function columnsOf(week: PackedWeek): Columns {
  const known = decoded.get(week);
  if (known) return known;
  const r = week.records;
  const n = r.length / RECORD_BYTES;
  const c: Columns = {
    day: new Uint8Array(n),
    flags: new Uint8Array(n),
    channel: new Uint8Array(n),
    owner: new Uint16Array(n),
    campaign: new Uint16Array(n),
    working: new Int32Array(n),
    clock: new Int32Array(n),
    due: new Float64Array(n),
  };
  for (let i = 0, at = 0; i < n; i++, at += RECORD_BYTES) {
    c.day[i] = r[at]!;
    c.flags[i] = r[at + 1]!;
    c.channel[i] = r[at + 2]!;
    c.owner[i] = r.readUInt16LE(at + 4);
    c.campaign[i] = r.readUInt16LE(at + 6);
    c.working[i] = r.readInt32LE(at + 8);
    c.clock[i] = r.readInt32LE(at + 12);
    c.due[i] = r.readDoubleLE(at + 16);
  }
  decoded.set(week, c);
  return c;
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/** One group's leads of one week (or of the period's days of it). */
interface Part {
  leads: number;
  answered: number;
  within: number;
  /** Answered after the deadline. */
  lateAnswers: number;
  /** The deadlines of the leads not answered (that have one), ascending: late once passed. */
  pending: Float64Array;
  /** The minutes to the first response of the answered leads, ascending. */
  working: Int32Array;
  clock: Int32Array;
}

/** A week's (or some of its days') leads per group; owners and campaigns as the week lists them. */
interface Summary {
  all: Part;
  owners: Part[];
  /** The leads without an owner; null if none. */
  nobody: Part | null;
  /** Per channel index (NONE8: none), in the order of their first lead. */
  channels: { channel: number; part: Part }[];
  campaigns: Part[];
}

/** The leads of `c` on days lo…hi (0 = Monday) summed up per group. */
function summarize(week: PackedWeek, c: Columns, lo: number, hi: number): Summary {
  // Groups: 0 all, 1 nobody, then the owners, the campaigns, the channels (by first lead).
  const owners = week.owners.length;
  const campaigns = week.campaigns.length;
  const channelAt = new Int32Array(NONE8 + 1).fill(-1);
  const channelOrder: number[] = [];
  const base = 2 + owners + campaigns;
  const size = base + NONE8 + 1;
  const leads = new Int32Array(size);
  const answered = new Int32Array(size);
  const within = new Int32Array(size);
  const lateAnswers = new Int32Array(size);
  const pending = new Int32Array(size);
  const working = new Int32Array(size);
  const clock = new Int32Array(size);
  const n = c.day.length;
  const slots = new Int32Array(n * 4).fill(-1);
  for (let i = 0; i < n; i++) {
    const day = c.day[i]!;
    if (day < lo || day > hi) continue;
    const o = c.owner[i]!;
    const p = c.campaign[i]!;
    const ch = c.channel[i]!;
    if (channelAt[ch]! < 0) channelAt[ch] = channelOrder.push(ch) - 1;
    const s = i * 4;
    slots[s] = 0;
    slots[s + 1] = o === NONE16 ? 1 : 2 + o;
    slots[s + 2] = p === NONE16 ? -1 : 2 + owners + p;
    slots[s + 3] = base + channelAt[ch]!;
    const flags = c.flags[i]!;
    const isAnswered = (flags & FLAG.answered) !== 0;
    for (let k = s; k < s + 4; k++) {
      const g = slots[k]!;
      if (g < 0) continue;
      leads[g]!++;
      if (isAnswered) answered[g]!++;
      if (flags & FLAG.within) within[g]!++;
      if (isAnswered ? flags & FLAG.late : 0) lateAnswers[g]!++;
      if (!isAnswered && flags & FLAG.due) pending[g]!++;
      if (c.working[i]! >= 0) working[g]!++;
      if (c.clock[i]! >= 0) clock[g]!++;
    }
  }
  const parts: Part[] = Array.from({ length: base + channelOrder.length }, (_, g) => ({
    leads: leads[g]!,
    answered: answered[g]!,
    within: within[g]!,
    lateAnswers: lateAnswers[g]!,
    pending: new Float64Array(pending[g]!),
    working: new Int32Array(working[g]!),
    clock: new Int32Array(clock[g]!),
  }));
  pending.fill(0);
  working.fill(0);
  clock.fill(0);
  for (let i = 0; i < n; i++) {
    const s = i * 4;
    if (slots[s]! < 0) continue;
    const flags = c.flags[i]!;
    const due = !(flags & FLAG.answered) && flags & FLAG.due;
    const w = c.working[i]!;
    const k = c.clock[i]!;
    for (let t = s; t < s + 4; t++) {
      const g = slots[t]!;
      if (g < 0) continue;
      const part = parts[g]!;
      if (due) part.pending[pending[g]!++] = c.due[i]!;
      if (w >= 0) part.working[working[g]!++] = w;
      if (k >= 0) part.clock[clock[g]!++] = k;
    }
  }
  for (const part of parts) {
    part.pending.sort();
    part.working.sort();
    part.clock.sort();
  }
  return {
    all: parts[0]!,
    nobody: leads[1]! > 0 ? parts[1]! : null,
    owners: parts.slice(2, 2 + owners),
    campaigns: parts.slice(2 + owners, base),
    channels: channelOrder.map((channel, i) => ({ channel, part: parts[base + i]! })),
  };
}

/** Per week object: its summaries by the days read (lo × 8 + hi); most often the whole week alone. */
const summaries = new WeakMap<PackedWeek, Map<number, Summary>>();

function summaryOf(week: PackedWeek, lo: number, hi: number): Summary {
  let kept = summaries.get(week);
  if (!kept) summaries.set(week, (kept = new Map()));
  const key = lo * 8 + hi;
  let summary = kept.get(key);
  if (!summary) kept.set(key, (summary = summarize(week, columnsOf(week), lo, hi)));
  return summary;
}

/** How many values of the ascending `sorted` are below `value`. */
function countBelow(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The position in the ascending `sorted`, within [lo, hi), of the first value above `value`. */
function upperBound(sorted: Int32Array, value: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Scratch positions for `rankOf`, per array (grown as needed, reused: a report is synchronous). */
let below = new Int32Array(256);
let upTo = new Int32Array(256);
let counts = new Int32Array(256);

/**
 * The value at rank k (1-based) of the union of ascending integer arrays, exact: the least value v
 * with at least k values ≤ v. It lies between the least and the greatest of the arrays' own values
 * at the same fraction (`fraction`: k's); that range is halved, counting the values ≤ its middle in
 * each array by binary search within the positions the earlier halvings left open.
 */
function rankOf(sorted: readonly Int32Array[], k: number, fraction: number): number {
  const m = sorted.length;
  if (m > below.length) {
    below = new Int32Array(m * 2);
    upTo = new Int32Array(m * 2);
    counts = new Int32Array(m * 2);
  }
  let lo = Infinity;
  let hi = -Infinity;
  let filled = 0;
  let last = -1;
  for (let i = 0; i < m; i++) {
    const s = sorted[i]!;
    if (s.length === 0) continue;
    filled++;
    last = i;
    const own = s[Math.max(1, Math.ceil(fraction * s.length)) - 1]!;
    if (own < lo) lo = own;
    if (own > hi) hi = own;
  }
  if (filled === 1) return sorted[last]![k - 1]!;
  // Per array: its values < lo (below[i]) and ≤ hi (upTo[i]), as positions.
  for (let i = 0; i < m; i++) {
    const s = sorted[i]!;
    below[i] = upperBound(s, lo - 1, 0, s.length);
    upTo[i] = upperBound(s, hi, below[i]!, s.length);
  }
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    let count = 0;
    for (let i = 0; i < m; i++) count += counts[i] = upperBound(sorted[i]!, mid, below[i]!, upTo[i]!);
    if (count >= k) {
      hi = mid;
      upTo.set(counts.subarray(0, m));
    } else {
      lo = mid + 1;
      below.set(counts.subarray(0, m));
    }
  }
  return lo;
}

/** A group of at most this many values, or of arrays this short on average, is sorted whole. */
const SORT_AT_MOST = 2_048;
const SORT_SHORT = 16;
const EMPTY = new Int32Array(0);

/** The median and 90th percentile (percentile_disc) of the union of ascending arrays; null if empty. */
export function percentilesOf(sorted: readonly Int32Array[]): [number, number] | null {
  let n = 0;
  let filled: Int32Array | null = null;
  for (const s of sorted) {
    n += s.length;
    if (s.length > 0) filled = filled === null ? s : EMPTY;
  }
  if (n === 0) return null;
  const k50 = Math.max(1, Math.ceil(0.5 * n));
  const k90 = Math.max(1, Math.ceil(0.9 * n));
  // One array with values (a week's own row): the ranks are positions in it.
  if (filled !== EMPTY) return [filled![k50 - 1]!, filled![k90 - 1]!];
  if (n <= SORT_AT_MOST || n < SORT_SHORT * sorted.length) {
    // Few values, or many short arrays (a campaign's few leads a week): sorting them all is cheaper.
    const all = new Int32Array(n);
    let at = 0;
    for (const s of sorted) {
      all.set(s, at);
      at += s.length;
    }
    all.sort();
    return [all[k50 - 1]!, all[k90 - 1]!];
  }
  return [rankOf(sorted, k50, 0.5), rankOf(sorted, k90, 0.9)];
}

/** Whole weeks merged into blocks of this many (aligned on the calendar, per kind). */
const BLOCK_WEEKS = 8;
/** The first day of block b (day numbers from 1 January 1970; day 4 was a Monday). */
const blockStart = (b: number) => 4 + b * 7 * BLOCK_WEEKS;
const blockOfDay = (day: number) => Math.floor((day - 4) / (7 * BLOCK_WEEKS));

/** The groups of a block of whole weeks, each merged into one part. */
interface Block {
  all: Part;
  owners: Map<string, Part>;
  nobody: Part | null;
  channels: Map<number, Part>;
  campaigns: Map<string, Part>;
}

function joined<T extends Int32Array | Float64Array>(lists: T[], make: (n: number) => T): T {
  if (lists.length === 1) return lists[0]!;
  let n = 0;
  for (const l of lists) n += l.length;
  const all = make(n);
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  all.sort();
  return all;
}

function merged(parts: Part[]): Part {
  if (parts.length === 1) return parts[0]!;
  const part: Part = {
    leads: 0,
    answered: 0,
    within: 0,
    lateAnswers: 0,
    pending: joined(
      parts.map((p) => p.pending),
      (n) => new Float64Array(n),
    ),
    working: joined(
      parts.map((p) => p.working),
      (n) => new Int32Array(n),
    ),
    clock: joined(
      parts.map((p) => p.clock),
      (n) => new Int32Array(n),
    ),
  };
  for (const p of parts) {
    part.leads += p.leads;
    part.answered += p.answered;
    part.within += p.within;
    part.lateAnswers += p.lateAnswers;
  }
  return part;
}

/** Each week object's serial number, which names it in a block's key. */
const serials = new WeakMap<PackedWeek, number>();
let serial = 0;
/** Blocks by their weeks' serial numbers; cleared when full (cached weeks come and go). */
const blocks = new Map<string, Block>();
const BLOCKS_MAX = 256;

function blockOf(weeks: PackedWeek[]): Block {
  const key = weeks
    .map((w) => {
      let n = serials.get(w);
      if (n === undefined) serials.set(w, (n = serial++));
      return n;
    })
    .join(",");
  const known = blocks.get(key);
  if (known) return known;
  const byKey = <K>(pick: (s: Summary, w: PackedWeek) => [K, Part][]) => {
    const lists = new Map<K, Part[]>();
    for (const w of weeks)
      for (const [k, part] of pick(summaryOf(w, 0, 6), w)) {
        const list = lists.get(k);
        if (list) list.push(part);
        else lists.set(k, [part]);
      }
    return new Map([...lists].map(([k, list]) => [k, merged(list)]));
  };
  const summaries = weeks.map((w) => summaryOf(w, 0, 6));
  const nobody = summaries.flatMap((s) => (s.nobody ? [s.nobody] : []));
  const block: Block = {
    all: merged(summaries.map((s) => s.all)),
    owners: byKey((s, w) => w.owners.map((id, i) => [id, s.owners[i]!])),
    nobody: nobody.length === 0 ? null : merged(nobody),
    channels: byKey((s) => s.channels.map((c) => [c.channel, c.part])),
    campaigns: byKey((s, w) => w.campaigns.map((c, i) => [c, s.campaigns[i]!])),
  };
  if (blocks.size >= BLOCKS_MAX) blocks.clear();
  blocks.set(key, block);
  return block;
}

/**
 * The rows of a period (`from`, `to`: Amsterdam days, inclusive) from its packed weeks; a lead not
 * answered and past its deadline at `now` is late. Owner names are left to the caller.
 * Each group's parts: per week, its summary's (the period's days of a cut week); where the period
 * holds a whole block of weeks, the block's merged parts instead (except for the weeks' own rows).
 * The groups are made in the order of the weeks and their leads, as the rows are listed.
 */
export function aggregate(weeks: readonly PackedWeek[], period: { from: string; to: string }, now: Date) {
  const nowMs = now.getTime();
  const rows: ResponseRow[] = [];
  const parts: Part[][] = [];
  const make = (
    grouping: number,
    week: string | null,
    ownerId: string | null,
    channel: string | null,
    campaign: string | null,
    kind: JobSource | null,
  ): Part[] => {
    // One literal, so every row has the same shape (cheap to add to below).
    rows.push({
      grouping,
      week,
      ownerId,
      ownerName: null,
      channel,
      campaign,
      kind,
      leads: 0,
      answered: 0,
      withinPromise: 0,
      late: 0,
      working: null,
      clock: null,
    });
    const list: Part[] = [];
    parts.push(list);
    return list;
  };
  // Each grouping's groups by their own key (no key strings made per week).
  const byWeek = new Map<string, Part[]>();
  const byKind = new Map<string, Part[]>();
  const byOwner = new Map<string, Part[]>();
  const byCampaign = new Map<string, Part[]>();
  const byChannel: (Part[] | undefined)[] = [];
  let nobodys: Part[] | undefined;
  const owner = (id: string) =>
    byOwner.get(id) ?? byOwner.set(id, make(GROUPING.owner, null, id, null, null, null)).get(id)!;
  const campaign = (c: string) =>
    byCampaign.get(c) ?? byCampaign.set(c, make(GROUPING.campaign, null, null, null, c, null)).get(c)!;
  const channel = (c: number) =>
    (byChannel[c] ??= make(GROUPING.channel, null, null, ANALYTICS_CHANNELS[c] ?? null, null, null));
  const nobody = () => (nobodys ??= make(GROUPING.owner, null, null, null, null, null));
  const total = make(GROUPING.total, null, null, null, null, null);
  const first = dayNumber(period.from);
  const last = dayNumber(period.to);
  const whole = (b: number) => first <= blockStart(b) && last >= blockStart(b + 1) - 1;
  /** The weeks of each whole block, by kind and block. */
  const blocked = new Map<string, { kind: JobSource; weeks: PackedWeek[] }>();
  for (const w of weeks) {
    const monday = dayNumber(w.week);
    const lo = first - monday;
    const hi = last - monday;
    if (hi < 0 || lo > 6) continue;
    const s = summaryOf(w, Math.max(lo, 0), Math.min(hi, 6));
    const b = blockOfDay(monday);
    // In a whole block, the groups are made here all the same; the block's parts are added after.
    const own = !whole(b);
    if (!own) {
      const key = `${w.kind}:${b}`;
      const block = blocked.get(key);
      if (block) block.weeks.push(w);
      else blocked.set(key, { kind: w.kind, weeks: [w] });
    }
    let weekParts = byWeek.get(w.week);
    if (!weekParts) byWeek.set(w.week, (weekParts = make(GROUPING.week, w.week, null, null, null, null)));
    weekParts.push(s.all);
    let kindParts = byKind.get(w.kind);
    if (!kindParts) byKind.set(w.kind, (kindParts = make(GROUPING.kind, null, null, null, null, w.kind)));
    if (own) kindParts.push(s.all);
    if (own) total.push(s.all);
    for (let i = 0; i < w.owners.length; i++) {
      const list = owner(w.owners[i]!);
      if (own) list.push(s.owners[i]!);
    }
    for (let i = 0; i < w.campaigns.length; i++) {
      const list = campaign(w.campaigns[i]!);
      if (own) list.push(s.campaigns[i]!);
    }
    if (s.nobody) {
      const list = nobody();
      if (own) list.push(s.nobody);
    }
    for (const c of s.channels) {
      const list = channel(c.channel);
      if (own) list.push(c.part);
    }
  }
  for (const { kind, weeks: list } of blocked.values()) {
    const block = blockOf(list);
    byKind.get(kind)!.push(block.all);
    total.push(block.all);
    for (const [id, part] of block.owners) owner(id).push(part);
    if (block.nobody) nobody().push(block.nobody);
    for (const [c, part] of block.channels) channel(c).push(part);
    for (const [c, part] of block.campaigns) campaign(c).push(part);
  }
  const working: Int32Array[] = [];
  const clock: Int32Array[] = [];
  for (let g = 0; g < rows.length; g++) {
    const row = rows[g]!;
    const mine = parts[g]!;
    working.length = clock.length = 0;
    for (const p of mine) {
      row.leads += p.leads;
      row.answered += p.answered;
      row.withinPromise += p.within;
      row.late += p.lateAnswers + countBelow(p.pending, nowMs);
      working.push(p.working);
      clock.push(p.clock);
    }
    row.working = percentilesOf(working);
    row.clock = percentilesOf(clock);
  }
  return rows;
}
