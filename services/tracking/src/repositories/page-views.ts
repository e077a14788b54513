import { withTransaction, type Pool, type PoolClient } from "@lease/platform";
import { HOUR_MS, dayOf, dayStart, monthOf } from "../domain/calendar";
import { key32, key64, type Key64 } from "../domain/keys";
import { classifyUserAgent } from "../domain/user-agent";
import { ANONYMOUS_ID_PREFIX } from "../domain/anonymous-id";
import { memoize } from "../domain/memo";
import { RollupBatch } from "./rollups";
import { Partitions, partitionName } from "./partitions";
import { acquisitionOf, channelOf, type Acquisition, type Channel } from "../domain/acquisition";
import { DIMS, FILTER_DIMS, dimScope } from "../domain/breakdowns";
import {
  COMBINATION_BIT,
  FirstValuesGate,
  folded,
  foldsAny,
  type ValueGate,
  type VisitValues,
} from "../domain/admission";
import { DimDirectory, PageDirectory, ProfileDirectory, type Profile } from "./dictionary";
import { ProfileDims } from "./profile-dims";
import { DICTIONARY_LOCK } from "./retention";
import { sqlArray } from "./sql-array";

/** One event from the stream (or an imported line), as the writer hands it over. */
export interface TrackEvent {
  /** Stream entry id, or the imported line's id: what makes a redelivery a no-op. */
  eventId: string;
  sessionId: string;
  /** false for a heartbeat: it keeps the live visitor (Redis) fresh and stores nothing here. */
  isView: boolean;
  /**
   * The visit's landing page sent again when analytics consent was given, under the session id the
   * consent created (isView false): it starts the session's visit (landing page, where from) like a
   * first page view, but is no page view and counts in no rollup; the page was counted already,
   * without an id.
   */
  consented?: boolean;
  /** Path as sent; its query string and fragment are not stored. */
  page: string;
  referrer: string | null;
  userAgent: string | null;
  country: string | null;
  city: string | null;
  /**
   * Which address block the hit came from (domain/anonymous-id.ts sourceTag), for the admission of
   * new UTM values and referrers (domain/admission.ts); none for imported lines.
   */
  sourceTag?: string;
  at: Date;
}

/** Counts statements so tests and /metrics can prove batches, not one INSERT per request. */
export interface StatementCounter {
  inc(labels: { table: string }): void;
}

export interface WriterDeps {
  pool: Pool;
  pages: PageDirectory;
  profiles: ProfileDirectory;
  profileDims: ProfileDims;
  /**
   * Which UTM values and referrer hosts are stored by name, and how many profiles a day may add
   * (domain/admission.ts): made-up values can neither grow the tables nor crowd out real ones.
   */
  gate: ValueGate;
  partitions: Partitions;
  statements: StatementCounter;
  /** The site's own host (from PUBLIC_ORIGIN): a referrer from it is no referrer. */
  ownHost?: string;
}

/** What the batch writer needs, over one pool. */
export function writerDeps(
  pool: Pool,
  opts: { statements?: StatementCounter; ownHost?: string; gate?: ValueGate } = {},
): WriterDeps {
  return {
    pool,
    pages: new PageDirectory(pool),
    profiles: new ProfileDirectory(pool),
    profileDims: new ProfileDims(pool, new DimDirectory(pool)),
    gate: opts.gate ?? new FirstValuesGate(),
    partitions: new Partitions(pool),
    statements: opts.statements ?? { inc: () => undefined },
    ownHost: opts.ownHost,
  };
}

export interface BatchResult {
  /** Page views stored now (a redelivered or re-imported one is not counted again). */
  written: number;
  /** Page views already stored before (same id and time). */
  duplicates: number;
}

const classify = memoize(classifyUserAgent, 2000);

/**
 * The host an http(s) referrer names, without "www."; '' for none, an unreadable one, another
 * scheme or the site itself.
 */
export function referrerHost(referrer: string | null, ownHost = ""): string {
  if (!referrer) return "";
  let host: string;
  try {
    const url = new URL(referrer);
    if (url.protocol !== "https:" && url.protocol !== "http:") return "";
    host = url.hostname.toLowerCase();
  } catch {
    return "";
  }
  // Only what can be a host name (253 characters at most) or an address; anything else is unreadable.
  if (host.length > 253 || !/^[a-z0-9.\-[\]:]+$/.test(host)) return "";
  host = host.replace(/^www\./, "");
  return host === ownHost.replace(/^www\./, "") ? "" : host;
}

/** The stored form of a page path: no query string or fragment, never empty. */
export function storedPath(page: string): string {
  const end = page.search(/[?#]/);
  const path = end === -1 ? page : page.slice(0, end);
  return path === "" ? "/" : path;
}

interface Prepared {
  event: TrackEvent;
  ms: number;
  day: string;
  dayStart: number;
  session: Key64;
  /** 32-bit key of the event id (views only): unique enough beside the time it happened. */
  eventKey: number;
  pageId: number;
}

interface VisitorDay {
  day: string;
  dayStart: number;
  session: Key64;
  firstSeen: number;
  hours: number;
  views: number;
  landingPageId: number;
  /** Where the visit came from and on what (tracking.profiles). */
  profileId: number;
  /** The values as sent, joined by SENT_SEPARATOR, where the profile stores one as "(overig)". */
  sent: string | null;
  /** This batch's page views by hour (the hour's instant). */
  hourViews: Map<number, number>;
}

/** A visitor-day row as stored after a batch's upsert. */
interface Upserted {
  day: string;
  added: number;
  views: number;
  profile_id: number;
  landing_page_id: number;
}

/** Visitor-day rows of a batch, by day and session key. */
type VisitorDays = Map<string, Map<string, VisitorDay>>;

/**
 * Writes a batch: raw page views and visitor-day rows into their monthly partitions and every
 * rollup (hour, hour x page, day, day x page, month, month x page, visitor sketches) in one
 * transaction, so rollups and raw rows never disagree. Only page views that were not stored
 * before count towards the rollups: a redelivered stream entry or a re-imported line adds nothing.
 */
export async function insertBatch(
  deps: WriterDeps,
  events: TrackEvent[],
  opts: {
    /**
     * Settles when the batch before this one is committed: this batch's transaction begins only
     * then (its preparation runs before). A visit split between two batches must be written in
     * time order: its visitor row takes its profile and landing page from its earliest view, and
     * a later batch committed first would have counted the visit in the breakdowns under its
     * later page's (sketches cannot be taken back). No transaction is open while it waits.
     */
    after?: Promise<unknown>;
    /**
     * With `after`: settles when the batch before this one has inserted its page views. This
     * batch's transaction then begins already, inserts its own page views while the batch before
     * writes its visitor rows and rollups, and waits for `after` only before its visitor rows (no
     * deadlock: the batch before touches none of this batch's rows, and this one waits for it at
     * most on a page view both hold, which the batch before never waits on in turn).
     */
    viewsAfter?: Promise<unknown>;
    /** Called once, when this batch's page views are inserted or when it failed. */
    viewsWritten?: () => void;
  } = {},
): Promise<BatchResult> {
  let signalled = false;
  const signal = () => {
    if (!signalled) opts.viewsWritten?.();
    signalled = true;
  };
  try {
    return await writeInOrder(deps, events, opts, signal);
  } finally {
    signal();
  }
}

async function writeInOrder(
  deps: WriterDeps,
  events: TrackEvent[],
  opts: { after?: Promise<unknown>; viewsAfter?: Promise<unknown> },
  viewsWritten: () => void,
): Promise<BatchResult> {
  if (events.length === 0) return { written: 0, duplicates: 0 };
  const startsVisit = (e: TrackEvent) => e.isView || e.consented === true;
  const pageIds = await deps.pages.ids(events.filter(startsVisit).map((e) => ({ path: storedPath(e.page) })));
  const sessionKeys = new Map<string, Key64>();
  const prepared = events.map((event): Prepared => {
    const ms = event.at.getTime();
    const { day, start } = dayOf(ms);
    let session = sessionKeys.get(event.sessionId);
    if (!session) sessionKeys.set(event.sessionId, (session = key64(event.sessionId)));
    return {
      event,
      ms,
      day,
      dayStart: start,
      session,
      eventKey: event.isView ? key32(event.eventId) : 0,
      pageId: startsVisit(event) ? pageIds.get(storedPath(event.page))! : 0,
    };
  });
  // Where each visitor-day of the batch came from: its earliest view (or visit start at consent).
  const firstViews = new Map<string, Prepared>();
  for (const p of prepared) {
    if (p.pageId === 0) continue;
    const id = `${p.day} ${p.session.sql}`;
    const first = firstViews.get(id);
    if (!first || p.ms < first.ms) firstViews.set(id, p);
  }
  const { profiles, sent } = await profilesOf(firstViews, deps);
  await deps.partitions.ensure(new Set(prepared.map((p) => monthOf(p.day))));
  for (let attempt = 1; ; attempt++) {
    const known = await deps.profiles.ids(profiles.values());
    const profileIds = new Map(
      [...profiles].map(([id, profile]) => [id, known.get(deps.profiles.key(profile))!]),
    );
    await deps.profileDims.ensure(
      new Map([...profiles].map(([id, profile]) => [profileIds.get(id)!, profile])),
    );
    const begin = opts.viewsAfter && opts.after ? opts.viewsAfter : opts.after;
    await begin?.catch(() => undefined);
    try {
      return await withTransaction(deps.pool, async (client) => {
        await holdDictionaries(client, [...new Set(profileIds.values())]);
        return writeBatch(client, prepared, profileIds, sent, deps, async () => {
          viewsWritten();
          if (begin !== opts.after) await opts.after?.catch(() => undefined);
        });
      });
    } catch (err) {
      if (!(err instanceof StaleDictionaryError) || attempt > 1) throw err;
      // Retention pruned profiles or values this replica had in memory: number them again.
      deps.profiles.forget();
      deps.profileDims.forget();
    }
  }
}

/** Profile or breakdown value ids of a batch that retention pruned meanwhile. */
export class StaleDictionaryError extends Error {}

/**
 * Holds off retention's pruning of profiles and breakdown values (repositories/retention.ts) until
 * the batch is committed, and checks that the ids the batch numbered or remembered outside this
 * transaction are still there: pruning may have run in between.
 */
export async function holdDictionaries(client: PoolClient, profileIds: number[]): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock_shared(${DICTIONARY_LOCK})`);
  const r = await client.query<{ profiles: number; dangling: number }>(
    `SELECT (SELECT count(*)::int FROM tracking.profiles WHERE id = ANY($1::int[])) AS profiles,
            (SELECT count(*)::int FROM tracking.profile_dims pd WHERE pd.profile_id = ANY($1::int[])
               AND NOT EXISTS (SELECT 1 FROM tracking.dim_values v WHERE v.id = pd.value_id)) AS dangling`,
    [profileIds],
  );
  const { profiles, dangling } = r.rows[0]!;
  if (profiles !== profileIds.length || dangling > 0) throw new StaleDictionaryError("pruned meanwhile");
}

/**
 * The views of `fresh` (just inserted into page_views by this transaction) that are not already in
 * a packed month's page_view_days (migration 0017); the others are taken out of page_views again.
 * A redelivered or re-imported view of a packed month passes the primary key of its emptied
 * partition, so the packed rows are the check. Run after the insert: the insert waits for a
 * tracking.pack_month of its month to commit (its SHARE lock), so this statement sees every row
 * packed before, and a pack_month that starts later waits for this transaction and packs its rows.
 * One probe of the month's key per session and day of the batch (a nested loop, whatever the
 * month holds); only the rows found come back, decoded here.
 */
async function withoutPacked(client: PoolClient, fresh: Prepared[]): Promise<Prepared[]> {
  const byMonth = new Map<string, Map<string, { session: string; day: string }>>();
  for (const p of fresh) {
    const month = monthOf(p.day);
    let pairs = byMonth.get(month);
    if (!pairs) byMonth.set(month, (pairs = new Map()));
    pairs.set(`${p.session.sql} ${p.day}`, { session: p.session.sql, day: p.day });
  }
  const packed = new Set<string>();
  for (const [month, pairs] of byMonth) {
    const found = await client.query<{ s: string; d: string; views: Buffer }>(
      `SELECT u.s::text AS s, to_char(u.d, 'YYYY-MM-DD') AS d, pd.views
       FROM unnest($1::bigint[], $2::date[]) AS u(s, d)
       CROSS JOIN LATERAL (
         SELECT views FROM tracking.${partitionName("page_view_days", month)}
         WHERE session_key = u.s AND day = u.d LIMIT 1) pd`,
      [sqlArray([...pairs.values()].map((x) => x.session)), sqlArray([...pairs.values()].map((x) => x.day))],
    );
    for (const row of found.rows)
      for (const [ms, eventKey] of unpackViews(row.d, row.views)) packed.add(`${row.s} ${ms} ${eventKey}`);
  }
  if (packed.size === 0) return fresh;
  const isPacked = (p: Prepared) => packed.has(`${p.session.sql} ${p.ms} ${p.eventKey}`);
  const dup = fresh.filter(isPacked);
  if (dup.length === 0) return fresh;
  await client.query(
    `DELETE FROM tracking.page_views v
     USING unnest($1::bigint[], $2::int[], $3::bigint[]) AS u(t, k, s)
     WHERE v.session_key = u.s AND v.occurred_at = to_timestamp(u.t::float8 / 1000) AND v.event_key = u.k`,
    [
      sqlArray(dup.map((p) => p.ms)),
      sqlArray(dup.map((p) => p.eventKey)),
      sqlArray(dup.map((p) => p.session.sql)),
    ],
  );
  return fresh.filter((p) => !isPacked(p));
}

/** A packed row's views as [epoch ms, event key, page id] (migration 0017's layout). */
function unpackViews(day: string, views: Buffer): [number, number, number][] {
  const midnight = dayStart(day);
  const out: [number, number, number][] = [];
  for (let o = 0; o + 12 <= views.length; o += 12)
    out.push([midnight + views.readInt32BE(o), views.readInt32BE(o + 4), views.readInt32BE(o + 8)]);
  return out;
}

async function writeBatch(
  client: PoolClient,
  prepared: Prepared[],
  profileIds: Map<string, number>,
  sent: Map<string, string>,
  deps: WriterDeps,
  /** Between the page views and the visitor rows (insertBatch's order between batches). */
  viewsDone: () => Promise<void> = () => Promise.resolve(),
): Promise<BatchResult> {
  const { statements } = deps;
  // Views in time order, once each (a line repeated within one batch is one view).
  const views = prepared
    .filter((p) => p.event.isView)
    .sort((a, b) => a.ms - b.ms || a.eventKey - b.eventKey)
    .filter((p, i, all) => i === 0 || p.ms !== all[i - 1]!.ms || p.eventKey !== all[i - 1]!.eventKey);
  let fresh: Prepared[] = [];
  if (views.length > 0) {
    statements.inc({ table: "page_views" });
    const columns = [
      sqlArray(views.map((p) => p.ms)),
      sqlArray(views.map((p) => p.eventKey)),
      sqlArray(views.map((p) => p.session.sql)),
      sqlArray(views.map((p) => p.pageId)),
    ];
    // Only the count comes back: every view is new but on a redelivery or a re-import, and then
    // the rows this transaction wrote tell which (a float8 division: a numeric one costs a
    // microsecond a row).
    const inserted = await client.query<{ n: number }>(
      `WITH i AS (
         INSERT INTO tracking.page_views (occurred_at, event_key, session_key, page_id)
         SELECT to_timestamp(t::float8 / 1000), k, s, p
         FROM unnest($1::bigint[], $2::int[], $3::bigint[], $4::int[]) AS u(t, k, s, p)
         ON CONFLICT DO NOTHING
         RETURNING 1
       )
       SELECT count(*)::int AS n FROM i`,
      columns,
    );
    if (inserted.rows[0]!.n === views.length) fresh = views;
    else if (inserted.rows[0]!.n > 0) {
      const mine = await client.query<{ i: number }>(
        `SELECT u.i::int AS i
         FROM unnest($1::bigint[], $2::int[], $3::bigint[]) WITH ORDINALITY AS u(t, k, s, i)
         JOIN tracking.page_views v
           ON v.session_key = u.s AND v.occurred_at = to_timestamp(u.t::float8 / 1000) AND v.event_key = u.k
         WHERE v.xmin = pg_current_xact_id()::xid`,
        columns.slice(0, 3),
      );
      const isNew = new Set(mine.rows.map((r) => r.i - 1));
      fresh = views.filter((_, i) => isNew.has(i));
    }
    if (fresh.length > 0) fresh = await withoutPacked(client, fresh);
  }
  await viewsDone();

  const rollups = new RollupBatch();
  const visitorDays: VisitorDays = new Map();
  /** The batch's row of this session and day; made from `p` (its first view or visit start). */
  const dayRow = (p: Prepared, view: boolean): VisitorDay | undefined => {
    let ofDay = visitorDays.get(p.day);
    if (!ofDay) visitorDays.set(p.day, (ofDay = new Map()));
    const v = ofDay.get(p.session.sql);
    if (v) return v;
    const hourStart = Math.floor(p.ms / HOUR_MS) * HOUR_MS;
    ofDay.set(p.session.sql, {
      day: p.day,
      dayStart: p.dayStart,
      session: p.session,
      firstSeen: p.ms,
      hours: view ? 1 << Math.floor((p.ms - p.dayStart) / HOUR_MS) : 0,
      views: view ? 1 : 0,
      landingPageId: p.pageId,
      profileId: profileIds.get(`${p.day} ${p.session.sql}`)!,
      sent: sent.get(`${p.day} ${p.session.sql}`) ?? null,
      hourViews: new Map(view ? [[hourStart, 1]] : []),
    });
    return undefined;
  };
  for (const p of fresh) {
    rollups.view(p.ms, p.day, p.pageId, p.session);
    const v = dayRow(p, true);
    if (!v) continue;
    const hourStart = Math.floor(p.ms / HOUR_MS) * HOUR_MS;
    v.hours |= 1 << Math.floor((p.ms - p.dayStart) / HOUR_MS);
    v.views++;
    v.hourViews.set(hourStart, (v.hourViews.get(hourStart) ?? 0) + 1);
  }
  // A visit started at consent: the visitor-day row gets its landing page and profile, and no view.
  for (const p of prepared) {
    if (!p.event.consented) continue;
    const v = dayRow(p, false);
    if (v && p.ms < v.firstSeen) {
      v.firstSeen = p.ms;
      v.landingPageId = p.pageId;
    }
  }
  if (visitorDays.size > 0) await upsertVisitors(client, visitorDays, rollups, deps);
  if (fresh.length > 0) await rollups.write(client);
  const viewed = prepared.reduce((n, p) => n + (p.event.isView ? 1 : 0), 0);
  return { written: fresh.length, duplicates: viewed - fresh.length };
}

/**
 * Upserts the batch's visitor-day rows and tells the rollups who is new to an hour or a day:
 * `added` holds the hours this write set, and a row whose views are only this batch's is new to the
 * day's counts (a row is made by a view, or by a visit start at consent, which has no view and
 * counts nothing; xmax cannot be read through a partitioned table).
 */
async function upsertVisitors(
  client: PoolClient,
  visitorDays: VisitorDays,
  rollups: RollupBatch,
  deps: WriterDeps,
): Promise<void> {
  const { statements } = deps;
  // In key order, like every rollup: concurrent writers then lock rows in the same order.
  const rows: VisitorDay[] = [];
  for (const day of [...visitorDays.keys()].sort())
    rows.push(...[...visitorDays.get(day)!.values()].sort((a, b) => compareKeys(a.session, b.session)));
  statements.inc({ table: "visitors" });
  // Only the rows an earlier write had made come back (their hours, views, profile or landing page
  // differ from this batch's): a new row is what this batch sent, and history's rows are new.
  const upserted = await client.query<Upserted & { session_key: string }>(
    `WITH u AS (
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::date[], $4::int[], $5::int[], $6::int[],
                            $7::int[], $8::text[]) AS u(s, f, d, h, v, lp, pr, se)
     ), up AS (
       INSERT INTO tracking.visitors AS t
         (session_key, first_seen, day, hours, added, views, landing_page_id, profile_id, sent)
       SELECT s, to_timestamp(f::float8 / 1000), d, h, h, v, lp, pr,
              string_to_array(se, chr(31))
       FROM u
       ON CONFLICT (day, session_key) DO UPDATE SET
         first_seen = LEAST(t.first_seen, EXCLUDED.first_seen),
         hours = t.hours | EXCLUDED.hours,
         added = EXCLUDED.hours & ~t.hours,
         views = t.views + EXCLUDED.views,
         landing_page_id = CASE WHEN EXCLUDED.first_seen < t.first_seen
                           THEN EXCLUDED.landing_page_id ELSE t.landing_page_id END,
         profile_id = CASE WHEN EXCLUDED.first_seen < t.first_seen THEN EXCLUDED.profile_id ELSE t.profile_id END,
         sent = CASE WHEN EXCLUDED.first_seen < t.first_seen THEN EXCLUDED.sent ELSE t.sent END
       RETURNING day, session_key, added, views, profile_id, landing_page_id
     )
     SELECT to_char(up.day, 'YYYY-MM-DD') AS day, up.session_key, up.added, up.views, up.profile_id,
            up.landing_page_id
     FROM up JOIN u ON u.d = up.day AND u.s = up.session_key
     WHERE (up.added, up.views, up.profile_id, up.landing_page_id) IS DISTINCT FROM (u.h, u.v, u.pr, u.lp)`,
    [
      sqlArray(rows.map((v) => v.session.sql)),
      sqlArray(rows.map((v) => v.firstSeen)),
      sqlArray(rows.map((v) => v.day)),
      sqlArray(rows.map((v) => v.hours)),
      sqlArray(rows.map((v) => v.views)),
      sqlArray(rows.map((v) => v.landingPageId)),
      sqlArray(rows.map((v) => v.profileId)),
      // Values as sent may hold anything: node-pg quotes them.
      rows.map((v) => v.sent),
    ],
  );
  const earlier = new Map(upserted.rows.map((row) => [`${row.day} ${row.session_key}`, row]));
  const stored = (v: VisitorDay): Upserted =>
    (earlier.size > 0 ? earlier.get(`${v.day} ${v.session.sql}`) : undefined) ?? {
      day: v.day,
      added: v.hours,
      views: v.views,
      profile_id: v.profileId,
      landing_page_id: v.landingPageId,
    };
  // The breakdowns follow the row's own profile and landing page (its day's first view), which an
  // earlier batch may have set.
  await deps.profileDims.load(
    client,
    rows.map((v) => stored(v).profile_id),
  );
  for (const v of rows) {
    const row = stored(v);
    // Only a visit start at consent: the visit is counted with its first page view.
    if (v.views === 0) continue;
    for (let bits = row.added, i = 0; bits !== 0; bits >>>= 1, i++)
      if (bits & 1) rollups.newInHour(v.dayStart + i * HOUR_MS);
    const isNew = row.views === v.views;
    if (isNew) rollups.newInDay(row.day);
    rollups.visit(row.day, row.profile_id, row.landing_page_id, v.views, isNew);
    for (const [hour, views] of v.hourViews) {
      const bit = 1 << Math.round((hour - v.dayStart) / HOUR_MS);
      rollups.hourVisit(hour, row.profile_id, row.landing_page_id, views, (row.added & bit) !== 0);
    }
    const values = [...deps.profileDims.of(row.profile_id), [DIMS.landingPage, row.landing_page_id] as const];
    for (const [dim, valueId] of values)
      rollups.dimVisit(row.day, dim, valueId, v.views, isNew, v.session, dimScope(dim, valueId));
    // For reads filtered on one channel, campaign or landing page: the visit under each pair.
    for (const [fdim, fvalue] of values)
      if (FILTER_DIMS.has(fdim))
        for (const [dim, valueId] of values)
          // A value's own row is daily_dims'.
          if (dim !== fdim) rollups.pair(row.day, fdim, fvalue, dim, valueId, v.views, isNew);
  }
}

const arrivals = new Map<string, { a: Acquisition; channel: Channel }>();
/**
 * The acquisition and channel of a visit's landing page and referrer as sent. Remembered (up to
 * 5,000) for landing pages without a query string, which repeat visit after visit; a URL parse
 * of the referrer and the channel's rules cost microseconds a visit.
 */
function arrivalOf(
  page: string,
  referrer: string | null,
  ownHost = "",
): { a: Acquisition; channel: Channel } {
  const key = page.includes("?") ? undefined : `${ownHost}\n${referrer ?? ""}\n${page}`;
  let found = key === undefined ? undefined : arrivals.get(key);
  if (!found) {
    const a = acquisitionOf(page, referrerHost(referrer, ownHost));
    found = { a, channel: channelOf(a) };
    if (key !== undefined) {
      if (arrivals.size >= 5000) arrivals.clear();
      arrivals.set(key, found);
    }
  }
  return found;
}

/** Joins a visit's values as sent (none holds a control character: domain/acquisition.ts utmValue). */
const SENT_SEPARATOR = "\u001f";

/**
 * Where each visit came from and on what, from its first page view; UTM values, referrer hosts and
 * combinations the gate does not admit are stored as "(overig)", a combination beyond the day's
 * profiles under its coarse profile (domain/admission.ts; the channel is that of the values as
 * sent). Where a value of a visit with analytics consent is stored as "(overig)", the values as
 * sent go with its visitor row (`sent`), for the lead it may bring.
 */
async function profilesOf(
  firstViews: Map<string, Prepared>,
  deps: WriterDeps,
): Promise<{ profiles: Map<string, Profile>; sent: Map<string, string> }> {
  const visits = [...firstViews].map(([id, first]) => {
    const { event, day } = first;
    const device = event.userAgent ? classify(event.userAgent) : undefined;
    const { a, channel } = arrivalOf(event.page, event.referrer, deps.ownHost);
    const rest = {
      channel,
      paid_click: String(a.paidClick),
      country: event.country ?? "",
      device: device?.device ?? "",
      browser: device?.browser ?? "",
      os: device?.os ?? "",
    };
    const values: VisitValues = {
      day,
      tag: event.sourceTag ?? "",
      rest: Object.values(rest).join("\u0000"),
      values: {
        source: a.source,
        medium: a.medium,
        campaign: a.campaign,
        term: a.term,
        content: a.content,
        referrer: a.referrerHost,
      },
    };
    return { id, rest, values, consented: !isAnonymous(event.sessionId) };
  });
  const answers = await deps.gate.check(visits.map((v) => v.values));
  const sent = new Map<string, string>();
  const profiles = new Map(
    visits.map(({ id, rest, values, consented }, i) => {
      const answer = answers[i]!;
      const v = folded(values, answer);
      const coarse = (answer & COMBINATION_BIT) !== 0;
      if (consented && foldsAny(answer)) sent.set(id, Object.values(values.values).join(SENT_SEPARATOR));
      const profile: Profile = {
        referrer_host: v.referrer,
        utm_source: v.source,
        utm_medium: v.medium,
        utm_campaign: v.campaign,
        utm_term: v.term,
        utm_content: v.content,
        ...rest,
        ...(coarse ? { country: "", device: "", browser: "", os: "" } : {}),
      };
      return [id, profile];
    }),
  );
  return { profiles, sent };
}

/** A session id the server derived for a visitor without analytics consent (no lead is matched to it). */
function isAnonymous(sessionId: string): boolean {
  return sessionId.startsWith(ANONYMOUS_ID_PREFIX);
}

/** Signed 64-bit keys in numeric order (the order of the primary key). */
function compareKeys(a: Key64, b: Key64): number {
  return (a.hi | 0) - (b.hi | 0) || a.lo - b.lo;
}
