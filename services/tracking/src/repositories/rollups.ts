import type { PoolClient } from "@lease/platform";
import { HOUR_MS, monthOf } from "../domain/calendar";
import { Hll } from "../domain/hll";
import type { Key64 } from "../domain/keys";
import { SITE_SCOPE, precisionOf } from "./sketches";
import { sqlArray } from "./sql-array";

/** Page views and visitors to add to one rollup row. */
interface Counts {
  views: number;
  visitors: number;
}

/** A map of maps, created on first use: period -> key -> value. */
class Nested<V> {
  readonly outer = new Map<string, Map<number, V>>();
  constructor(private readonly create: (key: number) => V) {}
  get(period: string, key: number): V {
    let inner = this.outer.get(period);
    if (!inner) this.outer.set(period, (inner = new Map()));
    let value = inner.get(key);
    if (value === undefined) inner.set(key, (value = this.create(key)));
    return value;
  }
  /** [period, key, value] sorted by period then key: the order rows are locked in. */
  rows(): [string, number, V][] {
    const out: [string, number, V][] = [];
    for (const period of [...this.outer.keys()].sort())
      for (const key of [...this.outer.get(period)!.keys()].sort((a, b) => a - b))
        out.push([period, key, this.outer.get(period)!.get(key)!]);
    return out;
  }
}

/**
 * What one batch adds to the rollups: page views per hour, day and month (each also per page),
 * visitors new to an hour or a day (learnt from the visitor-day upsert), the visitors of each
 * day and page for the sketches, and visits per hour, day and month, profile and landing page
 * (for filtered reads). Written in one statement; rows in key order, so concurrent
 * writers lock them in the same order and never deadlock.
 */
export class RollupBatch {
  private readonly hours = new Map<number, Counts>();
  private readonly days = new Map<string, Counts>();
  private readonly hourPages = new Map<number, Map<number, number>>();
  private readonly dayPages = new Nested(() => ({ n: 0 }));
  private readonly monthPages = new Nested(() => ({ n: 0 }));
  private readonly months = new Map<string, number>();
  private readonly sketches = new Nested((scope) => new Hll(precisionOf(scope)));
  /** Breakdown rows: day -> dimKey(dim, value) -> counts, and the months' views. */
  private readonly dayDims = new Map<string, Map<number, Counts & { dim: number; valueId: number }>>();
  private readonly monthDims = new Map<
    string,
    Map<number, { dim: number; valueId: number; views: number; visits: number }>
  >();
  /** Visit rows for filtered reads: period -> profile -> landing page -> counts. */
  private readonly dayVisits = new Map<string, Map<number, Map<number, VisitCounts>>>();
  private readonly monthVisits = new Map<string, Map<number, Map<number, VisitCounts>>>();
  /** Hour (its instant, ms) -> profile -> landing page -> visitors new to the hour, page views in it. */
  private readonly hourVisits = new Map<number, Map<number, Map<number, VisitCounts>>>();
  /**
   * Day or month -> dimKey(fdim, fvalue) -> dimKey(dim, value) -> visits and page views of a
   * filter value's visits.
   */
  private readonly dayPairs = new Map<string, Map<number, Map<number, PairCounts>>>();
  private readonly monthPairs = new Map<string, Map<number, Map<number, PairCounts>>>();

  /** A page view stored now. */
  view(ms: number, day: string, pageId: number, session: Key64): void {
    const hour = Math.floor(ms / HOUR_MS) * HOUR_MS;
    const month = monthOfDay(day);
    counts(this.hours, hour).views++;
    counts(this.days, day).views++;
    let pages = this.hourPages.get(hour);
    if (!pages) this.hourPages.set(hour, (pages = new Map()));
    pages.set(pageId, (pages.get(pageId) ?? 0) + 1);
    this.dayPages.get(day, pageId).n++;
    this.monthPages.get(month, pageId).n++;
    this.months.set(month, (this.months.get(month) ?? 0) + 1);
    this.sketches.get(day, SITE_SCOPE).add(session);
    this.sketches.get(day, pageId).add(session);
  }

  /**
   * A visit (visitor and day) stood for one breakdown value: this batch's page views of it, whether
   * the visitor is new to the day, and the visitor for the value's sketch.
   */
  dimVisit(
    day: string,
    dim: number,
    valueId: number,
    views: number,
    isNew: boolean,
    session: Key64,
    scope: number,
  ) {
    const key = dimKey(dim, valueId);
    let ofDay = this.dayDims.get(day);
    if (!ofDay) this.dayDims.set(day, (ofDay = new Map()));
    let c = ofDay.get(key);
    if (!c) ofDay.set(key, (c = { dim, valueId, views: 0, visitors: 0 }));
    c.views += views;
    if (isNew) c.visitors++;
    const month = monthOfDay(day);
    let ofMonth = this.monthDims.get(month);
    if (!ofMonth) this.monthDims.set(month, (ofMonth = new Map()));
    let m = ofMonth.get(key);
    if (!m) ofMonth.set(key, (m = { dim, valueId, views: 0, visits: 0 }));
    m.views += views;
    if (isNew) m.visits++;
    this.sketches.get(day, scope).add(session);
  }

  /**
   * A visit (visitor and day) of this batch, under its profile and landing page: this batch's page
   * views of it, and whether the visit itself is new.
   */
  visit(day: string, profileId: number, landingPageId: number, views: number, isNew: boolean): void {
    tally(this.dayVisits, day, profileId, landingPageId, newVisit, views, isNew);
    tally(this.monthVisits, monthOfDay(day), profileId, landingPageId, newVisit, views, isNew);
  }

  /**
   * A visit stood for filter value (fdim, fvalue) and breakdown value (dim, valueId): this batch's
   * page views of it, and whether the visit itself is new.
   */
  pair(
    day: string,
    fdim: number,
    fvalue: number,
    dim: number,
    valueId: number,
    views: number,
    isNew: boolean,
  ) {
    const filter = dimKey(fdim, fvalue);
    const value = dimKey(dim, valueId);
    tally(this.dayPairs, day, filter, value, newPair, views, isNew);
    tally(this.monthPairs, monthOfDay(day), filter, value, newPair, views, isNew);
  }

  /** A visit's page views of this batch in one hour, and whether its visitor is new to the hour. */
  hourVisit(hour: number, profileId: number, landingPageId: number, views: number, isNew: boolean): void {
    tally(this.hourVisits, hour, profileId, landingPageId, newVisit, views, isNew);
  }

  /** A visitor seen for the first time in this hour. */
  newInHour(hour: number): void {
    counts(this.hours, hour).visitors++;
  }

  /** A visitor seen for the first time this day. */
  newInDay(day: string): void {
    counts(this.days, day).visitors++;
  }

  async write(client: PoolClient): Promise<void> {
    const hours = [...this.hours].sort((a, b) => a[0] - b[0]);
    const days = [...this.days].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const hourPages: [number, number, number][] = [];
    for (const hour of [...this.hourPages.keys()].sort((a, b) => a - b))
      for (const [page, n] of [...this.hourPages.get(hour)!].sort((a, b) => a[0] - b[0]))
        hourPages.push([hour, page, n]);
    const dayPages = this.dayPages.rows();
    const monthPages = this.monthPages.rows();
    const months = [...this.months].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const deltas = this.sketches.rows();
    const dimRows = <T>(map: Map<string, Map<number, T>>) =>
      [...map.keys()].sort().flatMap((period) => {
        const ofPeriod = map.get(period)!;
        return [...ofPeriod.keys()].sort((a, b) => a - b).map((key) => ({ period, ...ofPeriod.get(key)! }));
      });
    const dayDims = dimRows(this.dayDims);
    const monthDims = dimRows(this.monthDims);
    const nestedRows = <P, T>(map: Map<P, Map<number, Map<number, T>>>, order: (a: P, b: P) => number) => {
      const out: (T & { period: P })[] = [];
      for (const period of [...map.keys()].sort(order)) {
        const outer = map.get(period)!;
        for (const a of [...outer.keys()].sort((x, y) => x - y)) {
          const inner = outer.get(a)!;
          for (const b of [...inner.keys()].sort((x, y) => x - y)) out.push({ period, ...inner.get(b)! });
        }
      }
      return out;
    };
    const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const dayVisits = nestedRows(this.dayVisits, byText);
    const monthVisits = nestedRows(this.monthVisits, byText);
    const hourVisits = nestedRows(this.hourVisits, (a, b) => a - b).map((v) => ({
      ...v,
      period: new Date(v.period).toISOString(),
    }));
    const dayPairs = nestedRows(this.dayPairs, byText);
    const monthPairs = nestedRows(this.monthPairs, byText);
    const iso = (ms: number) => new Date(ms).toISOString();
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
       ), dd AS (
         INSERT INTO tracking.daily_dims AS t (day, dim, value_id, visitors, views)
         SELECT * FROM unnest($21::date[], $22::smallint[], $23::int[], $24::int[], $25::int[])
         ON CONFLICT (day, dim, value_id)
           DO UPDATE SET visitors = t.visitors + EXCLUDED.visitors, views = t.views + EXCLUDED.views
       ), md AS (
         INSERT INTO tracking.monthly_dims AS t (month, dim, value_id, visits, views)
         SELECT * FROM unnest($26::date[], $27::smallint[], $28::int[], $29::bigint[], $30::bigint[])
         ON CONFLICT (month, dim, value_id)
           DO UPDATE SET visits = t.visits + EXCLUDED.visits, views = t.views + EXCLUDED.views
       ), dv AS (
         INSERT INTO tracking.daily_visits AS t (day, profile_id, landing_page_id, visits, views)
         SELECT * FROM unnest($31::date[], $32::int[], $33::int[], $34::int[], $35::int[])
         ON CONFLICT (day, profile_id, landing_page_id)
           DO UPDATE SET visits = t.visits + EXCLUDED.visits, views = t.views + EXCLUDED.views
       ), dpr AS (
         INSERT INTO tracking.daily_dim_pairs AS t (day, fdim, fvalue, dim, value_id, visits, views)
         SELECT * FROM unnest($46::date[], $47::smallint[], $48::int[], $49::smallint[], $50::int[],
                              $51::int[], $52::int[])
         ON CONFLICT (day, fdim, fvalue, dim, value_id)
           DO UPDATE SET visits = t.visits + EXCLUDED.visits, views = t.views + EXCLUDED.views
       ), mpr AS (
         INSERT INTO tracking.monthly_dim_pairs AS t (month, fdim, fvalue, dim, value_id, visits, views)
         SELECT * FROM unnest($53::date[], $54::smallint[], $55::int[], $56::smallint[], $57::int[],
                              $58::bigint[], $59::bigint[])
         ON CONFLICT (month, fdim, fvalue, dim, value_id)
           DO UPDATE SET visits = t.visits + EXCLUDED.visits, views = t.views + EXCLUDED.views
       ), hv AS (
         INSERT INTO tracking.hourly_visits AS t (hour, profile_id, landing_page_id, visitors, views)
         SELECT * FROM unnest($41::timestamptz[], $42::int[], $43::int[], $44::int[], $45::int[])
         ON CONFLICT (hour, profile_id, landing_page_id)
           DO UPDATE SET visitors = t.visitors + EXCLUDED.visitors, views = t.views + EXCLUDED.views
       ), mv AS (
         INSERT INTO tracking.monthly_visits AS t (month, profile_id, landing_page_id, visits, views)
         SELECT * FROM unnest($36::date[], $37::int[], $38::int[], $39::bigint[], $40::bigint[])
         ON CONFLICT (month, profile_id, landing_page_id)
           DO UPDATE SET visits = t.visits + EXCLUDED.visits, views = t.views + EXCLUDED.views
       )
       INSERT INTO tracking.sketch_deltas (day, scope, regs)
       SELECT * FROM unnest($18::date[], $19::int[], $20::bytea[])`,
      [
        sqlArray(hours.map(([hour]) => iso(hour))),
        sqlArray(hours.map(([, c]) => c.views)),
        sqlArray(hours.map(([, c]) => c.visitors)),
        sqlArray(hourPages.map(([hour]) => iso(hour))),
        sqlArray(hourPages.map(([, page]) => page)),
        sqlArray(hourPages.map(([, , n]) => n)),
        sqlArray(days.map(([day]) => day)),
        sqlArray(days.map(([, c]) => c.views)),
        sqlArray(days.map(([, c]) => c.visitors)),
        sqlArray(dayPages.map(([day]) => day)),
        sqlArray(dayPages.map(([, page]) => page)),
        sqlArray(dayPages.map(([, , c]) => c.n)),
        sqlArray(months.map(([month]) => month)),
        sqlArray(months.map(([, n]) => n)),
        sqlArray(monthPages.map(([month]) => month)),
        sqlArray(monthPages.map(([, page]) => page)),
        sqlArray(monthPages.map(([, , c]) => c.n)),
        sqlArray(deltas.map(([day]) => day)),
        sqlArray(deltas.map(([, scope]) => scope)),
        deltas.map(([, , hll]) => hll.serialize()),
        sqlArray(dayDims.map((d) => d.period)),
        sqlArray(dayDims.map((d) => d.dim)),
        sqlArray(dayDims.map((d) => d.valueId)),
        sqlArray(dayDims.map((d) => d.visitors)),
        sqlArray(dayDims.map((d) => d.views)),
        sqlArray(monthDims.map((m) => m.period)),
        sqlArray(monthDims.map((m) => m.dim)),
        sqlArray(monthDims.map((m) => m.valueId)),
        sqlArray(monthDims.map((m) => m.visits)),
        sqlArray(monthDims.map((m) => m.views)),
        ...[dayVisits, monthVisits, hourVisits].flatMap((rows) => [
          sqlArray(rows.map((v) => v.period)),
          sqlArray(rows.map((v) => v.profileId)),
          sqlArray(rows.map((v) => v.landingPageId)),
          sqlArray(rows.map((v) => v.visits)),
          sqlArray(rows.map((v) => v.views)),
        ]),
        ...[dayPairs, monthPairs].flatMap((rows) => [
          sqlArray(rows.map((p) => p.period)),
          sqlArray(rows.map((p) => p.fdim)),
          sqlArray(rows.map((p) => p.fvalue)),
          sqlArray(rows.map((p) => p.dim)),
          sqlArray(rows.map((p) => p.valueId)),
          sqlArray(rows.map((p) => p.visits)),
          sqlArray(rows.map((p) => p.views)),
        ]),
      ],
    );
  }
}

interface PairCounts {
  fdim: number;
  fvalue: number;
  dim: number;
  valueId: number;
  visits: number;
  views: number;
}

interface VisitCounts {
  profileId: number;
  landingPageId: number;
  visits: number;
  views: number;
}

/** One number for a breakdown value (dim, value id): value ids stay below 10^8 (breakdowns.ts dimScope). */
const DIM_KEY = 100_000_000;
function dimKey(dim: number, valueId: number): number {
  return dim * DIM_KEY + valueId;
}

const monthOfDays = new Map<string, string>();
/** monthOf, remembered: a batch asks it for every view and breakdown value. */
function monthOfDay(day: string): string {
  let month = monthOfDays.get(day);
  if (month === undefined) {
    if (monthOfDays.size >= 10_000) monthOfDays.clear();
    monthOfDays.set(day, (month = monthOf(day)));
  }
  return month;
}

/**
 * Adds a visit's page views (and the visit, when new) to the leaf of a three-level map
 * (period -> a -> b), made by `create` on first use.
 */
function tally<P, T extends { visits: number; views: number }>(
  map: Map<P, Map<number, Map<number, T>>>,
  period: P,
  a: number,
  b: number,
  create: (a: number, b: number) => T,
  views: number,
  isNew: boolean,
): void {
  let ofPeriod = map.get(period);
  if (!ofPeriod) map.set(period, (ofPeriod = new Map()));
  let ofA = ofPeriod.get(a);
  if (!ofA) ofPeriod.set(a, (ofA = new Map()));
  let c = ofA.get(b);
  if (!c) ofA.set(b, (c = create(a, b)));
  c.views += views;
  if (isNew) c.visits++;
}

const newVisit = (profileId: number, landingPageId: number): VisitCounts => ({
  profileId,
  landingPageId,
  visits: 0,
  views: 0,
});

const newPair = (filter: number, value: number): PairCounts => ({
  fdim: Math.floor(filter / DIM_KEY),
  fvalue: filter % DIM_KEY,
  dim: Math.floor(value / DIM_KEY),
  valueId: value % DIM_KEY,
  visits: 0,
  views: 0,
});

function counts<K>(map: Map<K, Counts>, key: K): Counts {
  let c = map.get(key);
  if (!c) map.set(key, (c = { views: 0, visitors: 0 }));
  return c;
}
