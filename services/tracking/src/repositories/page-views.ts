import type { Pool, PoolClient } from "@lease/platform";
import { HOUR_MS, dayOf, monthOf } from "../domain/calendar";
import { Hll } from "../domain/hll";
import { key64, type Key64 } from "../domain/keys";
import { classifyUserAgent } from "../domain/user-agent";
import { memoize } from "../domain/memo";
import { SITE_SCOPE, precisionOf } from "./sketches";
import { Partitions } from "./partitions";
import { PageDirectory, ProfileDirectory, type Profile } from "./dictionary";

/** One event from the stream (or an imported line), as the writer hands it over. */
export interface TrackEvent {
  /** Stream entry id, or the imported line's id: what makes a redelivery a no-op. */
  eventId: string;
  sessionId: string;
  /** false for a heartbeat: it refreshes the visitor but is no page view. */
  isView: boolean;
  /** Path as sent; its query string and fragment are not stored. */
  page: string;
  referrer: string | null;
  userAgent: string | null;
  country: string | null;
  city: string | null;
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
  partitions: Partitions;
  statements: StatementCounter;
  /** The site's own host (from PUBLIC_ORIGIN): a referrer from it is no referrer. */
  ownHost?: string;
}

/** What the batch writer needs, over one pool. */
export function writerDeps(
  pool: Pool,
  opts: { statements?: StatementCounter; ownHost?: string } = {},
): WriterDeps {
  return {
    pool,
    pages: new PageDirectory(pool),
    profiles: new ProfileDirectory(pool),
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

/** The host a referrer names, without "www."; '' for none, an unreadable one or the site itself. */
export function referrerHost(referrer: string | null, ownHost = ""): string {
  if (!referrer) return "";
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return "";
  }
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
  eventKey: string;
  pageId: number;
}

interface VisitorDay {
  day: string;
  dayStart: number;
  session: Key64;
  firstSeen: number;
  lastSeen: number;
  hours: number;
  views: number;
  landingPageId: number;
  /** Where the visit came from and on what (tracking.profiles). */
  profileId: number;
}

/**
 * Writes a batch: raw page views and visitor-day rows into their monthly partitions and every
 * rollup (hour, hour x page, day, day x page, month, month x page, visitor sketches) in one
 * transaction, so rollups and raw rows never disagree. Only page views that were not stored
 * before count towards the rollups: a redelivered stream entry or a re-imported line adds nothing.
 */
export async function insertBatch(deps: WriterDeps, events: TrackEvent[]): Promise<BatchResult> {
  if (events.length === 0) return { written: 0, duplicates: 0 };
  const pageIds = await deps.pages.ids(
    events.filter((e) => e.isView).map((e) => ({ path: storedPath(e.page) })),
  );
  const sessionKeys = new Map<string, Key64>();
  const prepared = events.map((event): Prepared => {
    const ms = event.at.getTime();
    const { day, start } = dayOf(ms);
    return {
      event,
      ms,
      day,
      dayStart: start,
      session: sessionKeys.get(event.sessionId) ?? keyOf(sessionKeys, event.sessionId),
      eventKey: event.isView ? key64(event.eventId).sql : "",
      pageId: event.isView ? pageIds.get(storedPath(event.page))! : 0,
    };
  });
  // Where each visitor-day of the batch came from: its first view (events arrive in time order).
  const firstViews = new Map<string, TrackEvent>();
  for (const p of prepared) {
    const id = `${p.day}:${p.session.sql}`;
    if (p.event.isView && !firstViews.has(id)) firstViews.set(id, p.event);
  }
  const profiles = new Map([...firstViews].map(([id, event]) => [id, profileOf(event, deps.ownHost)]));
  const known = await deps.profiles.ids(profiles.values());
  const profileIds = new Map(
    [...profiles].map(([id, profile]) => [id, known.get(deps.profiles.key(profile))!]),
  );
  await deps.partitions.ensure(prepared.map((p) => monthOf(p.day)));
  const client = await deps.pool.connect();
  try {
    await client.query("BEGIN");
    const result = await writeBatch(client, prepared, profileIds, deps.statements);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

function keyOf(keys: Map<string, Key64>, id: string): Key64 {
  const key = key64(id);
  keys.set(id, key);
  return key;
}

async function writeBatch(
  client: PoolClient,
  prepared: Prepared[],
  profileIds: Map<string, number>,
  statements: StatementCounter,
): Promise<BatchResult> {
  // Views, once each (a line repeated within one batch is one view), in time order.
  const seen = new Set<string>();
  const views = prepared
    .filter((p) => p.event.isView)
    .filter((p) => {
      const id = `${p.ms}:${p.eventKey}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => a.ms - b.ms);
  let fresh: Prepared[] = [];
  if (views.length > 0) {
    statements.inc({ table: "page_views" });
    const inserted = await client.query<{ event_key: string; ms: string }>(
      `INSERT INTO tracking.page_views (occurred_at, event_key, session_key, page_id)
       SELECT * FROM unnest($1::timestamptz[], $2::bigint[], $3::bigint[], $4::int[])
       ON CONFLICT DO NOTHING
       RETURNING event_key, (extract(epoch FROM occurred_at) * 1000)::bigint AS ms`,
      [
        views.map((p) => p.event.at.toISOString()),
        views.map((p) => p.eventKey),
        views.map((p) => p.session.sql),
        views.map((p) => p.pageId),
      ],
    );
    const isNew = new Set(inserted.rows.map((r) => `${r.ms}:${r.event_key}`));
    fresh = views.filter((p) => isNew.has(`${p.ms}:${p.eventKey}`));
  }

  const visitorDays = new Map<string, VisitorDay>();
  const heartbeats = new Map<string, { day: string; session: string; lastSeen: number }>();
  for (const p of fresh) {
    const id = `${p.day}:${p.session.sql}`;
    const hour = 1 << Math.floor((p.ms - p.dayStart) / HOUR_MS);
    const v = visitorDays.get(id);
    if (!v) {
      visitorDays.set(id, {
        day: p.day,
        dayStart: p.dayStart,
        session: p.session,
        firstSeen: p.ms,
        lastSeen: p.ms,
        hours: hour,
        views: 1,
        landingPageId: p.pageId,
        profileId: profileIds.get(id)!,
      });
      continue;
    }
    v.hours |= hour;
    v.views++;
    v.lastSeen = Math.max(v.lastSeen, p.ms); // fresh is in time order: `first` stays the first
  }
  for (const p of prepared) {
    if (p.event.isView) continue;
    const id = `${p.day}:${p.session.sql}`;
    const v = visitorDays.get(id);
    if (v) v.lastSeen = Math.max(v.lastSeen, p.ms);
    else {
      const h = heartbeats.get(id);
      if (!h || h.lastSeen < p.ms) heartbeats.set(id, { day: p.day, session: p.session.sql, lastSeen: p.ms });
    }
  }

  const hours = new Map<number, { views: number; visitors: number }>();
  const days = new Map<string, { views: number; visitors: number }>();
  if (visitorDays.size > 0) {
    // In key order, like every rollup below: concurrent writers then lock rows in the same order.
    const rows = [...visitorDays.values()].sort((a, b) =>
      a.day === b.day ? compareKeys(a.session.sql, b.session.sql) : a.day < b.day ? -1 : 1,
    );
    statements.inc({ table: "visitors" });
    const upserted = await client.query<{ day: string; session_key: string; added: number; views: number }>(
      `INSERT INTO tracking.visitors AS t
         (session_key, first_seen, last_seen, day, hours, added, views, landing_page_id, profile_id)
       SELECT s, f, l, d, h, h, v, lp, pr
       FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[], $4::date[], $5::int[], $6::int[],
                   $7::int[], $8::int[]) AS u(s, f, l, d, h, v, lp, pr)
       ON CONFLICT (day, session_key) DO UPDATE SET
         first_seen = LEAST(t.first_seen, EXCLUDED.first_seen),
         last_seen = GREATEST(t.last_seen, EXCLUDED.last_seen),
         hours = t.hours | EXCLUDED.hours,
         added = EXCLUDED.hours & ~t.hours,
         views = t.views + EXCLUDED.views,
         landing_page_id = CASE WHEN EXCLUDED.first_seen < t.first_seen
                           THEN EXCLUDED.landing_page_id ELSE t.landing_page_id END,
         profile_id = CASE WHEN EXCLUDED.first_seen < t.first_seen THEN EXCLUDED.profile_id ELSE t.profile_id END
       RETURNING to_char(day, 'YYYY-MM-DD') AS day, session_key, added, views`,
      [
        rows.map((v) => v.session.sql),
        rows.map((v) => new Date(v.firstSeen).toISOString()),
        rows.map((v) => new Date(v.lastSeen).toISOString()),
        rows.map((v) => v.day),
        rows.map((v) => v.hours),
        rows.map((v) => v.views),
        rows.map((v) => v.landingPageId),
        rows.map((v) => v.profileId),
      ],
    );
    // A visitor counts once per hour and once per day: `added` says which hours are new to them,
    // and a row whose views are only this batch's was inserted now (rows are only made by views;
    // xmax cannot be read through a partitioned table).
    for (const row of upserted.rows) {
      const v = visitorDays.get(`${row.day}:${row.session_key}`)!;
      for (let bits = row.added, i = 0; bits !== 0; bits >>>= 1, i++)
        if (bits & 1) bump(hours, v.dayStart + i * HOUR_MS, 0, 1);
      if (row.views === v.views) bump(days, row.day, 0, 1);
    }
  }
  if (heartbeats.size > 0) {
    const beats = [...heartbeats.values()];
    await client.query(
      `UPDATE tracking.visitors t SET last_seen = GREATEST(t.last_seen, u.l)
       FROM unnest($1::date[], $2::bigint[], $3::timestamptz[]) AS u(d, s, l)
       WHERE t.day = u.d AND t.session_key = u.s`,
      [
        beats.map((b) => b.day),
        beats.map((b) => b.session),
        beats.map((b) => new Date(b.lastSeen).toISOString()),
      ],
    );
  }
  if (fresh.length > 0) await writeRollups(client, fresh, hours, days);
  const viewed = prepared.reduce((n, p) => n + (p.event.isView ? 1 : 0), 0);
  return { written: fresh.length, duplicates: viewed - fresh.length };
}

/** Where a visit came from and on what, from its first page view. */
function profileOf(event: TrackEvent, ownHost: string | undefined): Profile {
  const device = event.userAgent ? classify(event.userAgent) : undefined;
  return {
    referrer_host: referrerHost(event.referrer, ownHost),
    country: event.country ?? "",
    city: event.city ?? "",
    device: device?.device ?? "",
    browser: device?.browser ?? "",
    os: device?.os ?? "",
  };
}

function bump<K>(map: Map<K, { views: number; visitors: number }>, key: K, views: number, visitors: number) {
  const v = map.get(key);
  if (v) {
    v.views += views;
    v.visitors += visitors;
  } else map.set(key, { views, visitors });
}

function count<K>(map: Map<K, number>, key: K) {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Signed 64-bit decimals in numeric order (the order of the primary key). */
function compareKeys(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

async function writeRollups(
  client: PoolClient,
  fresh: Prepared[],
  hours: Map<number, { views: number; visitors: number }>,
  days: Map<string, { views: number; visitors: number }>,
): Promise<void> {
  const hourPages = new Map<string, number>();
  const dayPages = new Map<string, number>();
  const months = new Map<string, number>();
  const monthPages = new Map<string, number>();
  const sketches = new Map<string, Hll>();
  const sketch = (day: string, scope: number) => {
    const id = `${day}|${scope}`;
    let hll = sketches.get(id);
    if (!hll) sketches.set(id, (hll = new Hll(precisionOf(scope))));
    return hll;
  };
  for (const p of fresh) {
    const hour = Math.floor(p.ms / HOUR_MS) * HOUR_MS;
    const month = monthOf(p.day);
    bump(hours, hour, 1, 0);
    bump(days, p.day, 1, 0);
    count(hourPages, `${hour}|${p.pageId}`);
    count(dayPages, `${p.day}|${p.pageId}`);
    count(months, month);
    count(monthPages, `${month}|${p.pageId}`);
    sketch(p.day, SITE_SCOPE).add(p.session);
    sketch(p.day, p.pageId).add(p.session);
  }
  const hourRows = [...hours.entries()].sort((a, b) => a[0] - b[0]);
  const dayRows = [...days.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const pairs = (map: Map<string, number>) =>
    [...map.entries()]
      .map(([id, n]) => {
        const [period, page] = id.split("|") as [string, string];
        return { period, page: Number(page), n };
      })
      .sort((a, b) => (a.period === b.period ? a.page - b.page : a.period < b.period ? -1 : 1));
  const hp = pairs(hourPages).map((r) => ({ ...r, period: new Date(Number(r.period)).toISOString() }));
  const dp = pairs(dayPages);
  const mp = pairs(monthPages);
  const monthRows = [...months.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const deltas = [...sketches.entries()].map(([id, hll]) => {
    const [day, scope] = id.split("|") as [string, string];
    return { day, scope: Number(scope), regs: hll.serialize() };
  });
  // One statement, one round trip: every rollup of the batch in data-modifying CTEs.
  await client.query(
    `WITH h AS (
       INSERT INTO tracking.hourly AS t (hour, views, visitors)
       SELECT * FROM unnest($1::timestamptz[], $2::int[], $3::int[])
       ON CONFLICT (hour) DO UPDATE SET views = t.views + EXCLUDED.views, visitors = t.visitors + EXCLUDED.visitors
     ), hp AS (
       INSERT INTO tracking.hourly_pages AS t (hour, page_id, views)
       SELECT * FROM unnest($4::timestamptz[], $5::int[], $6::int[])
       ON CONFLICT (hour, page_id) DO UPDATE SET views = t.views + EXCLUDED.views
     ), d AS (
       INSERT INTO tracking.daily AS t (day, views, visitors)
       SELECT * FROM unnest($7::date[], $8::int[], $9::int[])
       ON CONFLICT (day) DO UPDATE SET views = t.views + EXCLUDED.views, visitors = t.visitors + EXCLUDED.visitors
     ), dp AS (
       INSERT INTO tracking.daily_pages AS t (day, page_id, views)
       SELECT * FROM unnest($10::date[], $11::int[], $12::int[])
       ON CONFLICT (day, page_id) DO UPDATE SET views = t.views + EXCLUDED.views
     ), m AS (
       INSERT INTO tracking.monthly AS t (month, views)
       SELECT * FROM unnest($13::date[], $14::bigint[])
       ON CONFLICT (month) DO UPDATE SET views = t.views + EXCLUDED.views
     ), mp AS (
       INSERT INTO tracking.monthly_pages AS t (month, page_id, views)
       SELECT * FROM unnest($15::date[], $16::int[], $17::bigint[])
       ON CONFLICT (month, page_id) DO UPDATE SET views = t.views + EXCLUDED.views
     )
     INSERT INTO tracking.sketch_deltas (day, scope, regs)
     SELECT * FROM unnest($18::date[], $19::int[], $20::bytea[])`,
    [
      hourRows.map(([hour]) => new Date(hour).toISOString()),
      hourRows.map(([, v]) => v.views),
      hourRows.map(([, v]) => v.visitors),
      hp.map((r) => r.period),
      hp.map((r) => r.page),
      hp.map((r) => r.n),
      dayRows.map(([day]) => day),
      dayRows.map(([, v]) => v.views),
      dayRows.map(([, v]) => v.visitors),
      dp.map((r) => r.period),
      dp.map((r) => r.page),
      dp.map((r) => r.n),
      monthRows.map(([month]) => month),
      monthRows.map(([, n]) => n),
      mp.map((r) => r.period),
      mp.map((r) => r.page),
      mp.map((r) => r.n),
      deltas.map((d) => d.day),
      deltas.map((d) => d.scope),
      deltas.map((d) => d.regs),
    ],
  );
}
