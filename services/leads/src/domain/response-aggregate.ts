import { ANALYTICS_CHANNELS, type JobSource } from "@lease/contracts";
import { FLAG, NONE16, NONE8, RECORD_BYTES, type PackedWeek } from "./response-pack";

// The response report's figures from the packed weeks of a period: counts and exact percentiles
// (percentile_disc's: the first value whose position reaches the fraction, k = ceil(p × n)) per
// week, owner, channel, campaign, kind and in total, in two passes over the leads per measure.

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

/** Groups per lead: week, owner, channel, campaign (-1: none), kind, total. */
const SLOTS = 6;

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

/** Buckets per group at most in the first pass of `percentiles`: few, so its counts stay in cache. */
const BUCKETS = 128;
const FRACTIONS = [0.5, 0.9] as const;

/** One measure's state in `percentiles`. */
function measureOf(values: Int32Array, groupCount: number) {
  let max = -1;
  for (const v of values) if (v > max) max = v;
  let shift = 0;
  while (max >> shift >= BUCKETS) shift++;
  const width = (max >> shift) + 1;
  return {
    values,
    shift,
    width,
    n: new Int32Array(groupCount),
    hist: new Int32Array(max < 0 ? 0 : groupCount * width),
    /** Per fraction and group: the bucket holding the rank (-1: none), and the rank within it. */
    bucket: FRACTIONS.map(() => new Int32Array(groupCount).fill(-1)),
    rank: FRACTIONS.map(() => new Int32Array(groupCount)),
    /** The values of each group's bucket, group after group from start[g] (filled: next[g]). */
    gathered: FRACTIONS.map(() => new Int32Array(0)),
    start: FRACTIONS.map(() => new Int32Array(groupCount + 1)),
    next: FRACTIONS.map(() => new Int32Array(groupCount)),
  };
}

/**
 * Per measure and group, the values at ranks ceil(0.5 n) and ceil(0.9 n) of its leads with a value
 * (n of them), exact: a first pass counts each group's values in buckets of 2^shift minutes and
 * finds the bucket holding each rank, a second gathers those buckets' values alone and picks the
 * rank in them. Both read the leads in their order, so memory is read in sequence.
 */
export function percentiles(measures: Int32Array[], groups: Int32Array, groupCount: number) {
  const states = measures.map((values) => measureOf(values, groupCount));
  const leads = groups.length / SLOTS;
  const scan = (gather: boolean) => {
    for (const m of states) {
      const { values, shift, width, hist } = m;
      const [b50, b90] = m.bucket as [Int32Array, Int32Array];
      const [g50, g90] = m.gathered as [Int32Array, Int32Array];
      const [n50, n90] = m.next as [Int32Array, Int32Array];
      for (let i = 0; i < leads; i++) {
        const v = values[i]!;
        if (v < 0) continue;
        const b = v >> shift;
        for (let s = i * SLOTS; s < i * SLOTS + SLOTS; s++) {
          const g = groups[s]!;
          if (g < 0) continue;
          if (!gather) hist[g * width + b]!++;
          else {
            if (b50[g] === b) g50[n50[g]!++] = v;
            if (b90[g] === b) g90[n90[g]!++] = v;
          }
        }
      }
    }
  };
  scan(false);
  for (const m of states) {
    const { n, hist, width, bucket, rank } = m;
    for (let g = 0; g < groupCount; g++) {
      for (let b = 0; b < width; b++) n[g]! += hist[g * width + b]!;
      if (n[g] === 0) continue;
      FRACTIONS.forEach((q, f) => {
        const k = Math.max(1, Math.ceil(q * n[g]!));
        let below = 0;
        for (let b = 0; b < width; b++) {
          const here = hist[g * width + b]!;
          if (below + here >= k) {
            bucket[f]![g] = b;
            rank[f]![g] = k - below;
            return;
          }
          below += here;
        }
      });
    }
    // Room for each group's bucket: as many values as the first pass counted in it.
    FRACTIONS.forEach((_, f) => {
      const start = m.start[f]!;
      for (let g = 0; g < groupCount; g++)
        start[g + 1] = start[g]! + (bucket[f]![g]! < 0 ? 0 : hist[g * width + bucket[f]![g]!]!);
      m.gathered[f] = new Int32Array(start[groupCount]!);
      m.next[f] = start.slice(0, groupCount);
    });
  }
  scan(true);
  return states.map(({ n, gathered, start, rank }) => {
    const at = FRACTIONS.map((_, f) => {
      const picked = new Int32Array(groupCount);
      for (let g = 0; g < groupCount; g++)
        if (n[g]! > 0)
          picked[g] = gathered[f]!.subarray(start[f]![g]!, start[f]![g + 1]!).sort()[rank[f]![g]! - 1]!;
      return picked;
    });
    return (g: number): [number, number] | null => (n[g] === 0 ? null : [at[0]![g]!, at[1]![g]!]);
  });
}

/**
 * The rows of a period (`from`, `to`: Amsterdam days, inclusive) from its packed weeks; a lead not
 * answered and past its deadline at `now` is late. Owner names are left to the caller.
 */
export function aggregate(weeks: readonly PackedWeek[], period: { from: string; to: string }, now: Date) {
  const nowMs = now.getTime();
  const rows: ResponseRow[] = [];
  const keyed = new Map<string, number>();
  type Key = Pick<ResponseRow, "grouping" | "week" | "ownerId" | "channel" | "campaign" | "kind">;
  const blank: Key = { grouping: 0, week: null, ownerId: null, channel: null, campaign: null, kind: null };
  const group = (key: string, row: Partial<Key>): number => {
    let g = keyed.get(key);
    if (g === undefined) {
      g = rows.length;
      rows.push({
        ...blank,
        ...row,
        ownerName: null,
        leads: 0,
        answered: 0,
        withinPromise: 0,
        late: 0,
        working: null,
        clock: null,
      });
      keyed.set(key, g);
    }
    return g;
  };
  const total = group("t", { grouping: GROUPING.total });
  const channels = new Int32Array(NONE8 + 1).fill(-1);
  const channelGroup = (c: number) =>
    channels[c]! >= 0
      ? channels[c]!
      : (channels[c] = group(`c${c}`, {
          grouping: GROUPING.channel,
          channel: ANALYTICS_CHANNELS[c] ?? null,
        }));

  // Room for every group the weeks can name, and for each lead its groups and minutes.
  let leads = 0;
  let room = NONE8 + 4;
  for (const w of weeks) {
    leads += w.records.length / RECORD_BYTES;
    room += 1 + w.owners.length + 1 + w.campaigns.length;
  }
  const count = {
    leads: new Int32Array(room),
    answered: new Int32Array(room),
    within: new Int32Array(room),
    late: new Int32Array(room),
  };
  const groups = new Int32Array(leads * SLOTS);
  const working = new Int32Array(leads);
  const clock = new Int32Array(leads);
  const first = dayNumber(period.from);
  const last = dayNumber(period.to);
  let n = 0;
  for (const w of weeks) {
    const monday = dayNumber(w.week);
    const lo = first - monday;
    const hi = last - monday;
    if (hi < 0 || lo > 6) continue;
    const weekG = group(`w${w.week}`, { grouping: GROUPING.week, week: w.week });
    const kindG = group(`k${w.kind}`, { grouping: GROUPING.kind, kind: w.kind });
    const ownerG = w.owners.map((id) => group(`o${id}`, { grouping: GROUPING.owner, ownerId: id }));
    const campaignG = w.campaigns.map((c) => group(`p${c}`, { grouping: GROUPING.campaign, campaign: c }));
    let nobody = -1;
    const c = columnsOf(w);
    for (let i = 0; i < c.day.length; i++) {
      const day = c.day[i]!;
      if (day < lo || day > hi) continue;
      const flags = c.flags[i]!;
      const o = c.owner[i]!;
      const p = c.campaign[i]!;
      const og =
        o !== NONE16
          ? ownerG[o]!
          : nobody >= 0
            ? nobody
            : (nobody = group("o", { grouping: GROUPING.owner }));
      const base = n * SLOTS;
      groups[base] = weekG;
      groups[base + 1] = og;
      groups[base + 2] = channelGroup(c.channel[i]!);
      groups[base + 3] = p === NONE16 ? -1 : campaignG[p]!;
      groups[base + 4] = kindG;
      groups[base + 5] = total;
      working[n] = c.working[i]!;
      clock[n] = c.clock[i]!;
      const answered = (flags & FLAG.answered) !== 0;
      const within = (flags & FLAG.within) !== 0;
      const late = answered ? (flags & FLAG.late) !== 0 : (flags & FLAG.due) !== 0 && c.due[i]! < nowMs;
      for (let s = 0; s < SLOTS; s++) {
        const g = groups[base + s]!;
        if (g < 0) continue;
        count.leads[g]!++;
        if (answered) count.answered[g]!++;
        if (within) count.within[g]!++;
        if (late) count.late[g]!++;
      }
      n++;
    }
  }
  const used = groups.subarray(0, n * SLOTS);
  const [workingAt, clockAt] = percentiles(
    [working.subarray(0, n), clock.subarray(0, n)],
    used,
    rows.length,
  ) as [(g: number) => [number, number] | null, (g: number) => [number, number] | null];
  rows.forEach((row, g) => {
    row.leads = count.leads[g]!;
    row.answered = count.answered[g]!;
    row.withinPromise = count.within[g]!;
    row.late = count.late[g]!;
    row.working = workingAt(g);
    row.clock = clockAt(g);
  });
  return rows;
}
