import type {
  Analytics,
  AnalyticsPoint,
  AnalyticsTopPage,
  TopPage,
  VisitorSeriesBucket,
  VisitorSeriesRange,
} from "@lease/contracts";
import type { Pool } from "@lease/platform";
import { HOUR_MS, addDays, addMonths, amsterdamDate, dayStart, monthOf, weekStart } from "../domain/calendar";
import { Hll } from "../domain/hll";
import { DIMS, dimScope, type Dim } from "../domain/breakdowns";
import {
  bucketOf,
  coverOf,
  previousPeriod,
  sketchCoverOf,
  slotsOf,
  type Cover,
  type Period,
} from "../domain/periods";
import { breakdownTables, dimValueNames } from "./breakdown-tables";
import type { PageDirectory } from "./dictionary";
import { SITE_SCOPE, precisionOf } from "./sketches";
import { SketchCache, sketchKey } from "./sketch-cache";

const TOP_PAGES = 10;
/** Rows of each breakdown (every channel and device fits). */
const BREAKDOWN_ROWS = 10;
/** The sketch cache's default bound (about what reads of several periods of a busy site hold). */
export const SKETCH_CACHE_BYTES = 32 * 2 ** 20;

/** A stored sketch or an unmerged delta, as read for a cover. */
interface SketchRow {
  scope: number;
  /** 'm' month sketch, 'w' week piece sketch, 'd' day sketch, 'x' a delta of one day not merged yet */
  kind: "m" | "w" | "d" | "x";
  period: string;
  regs: Uint8Array;
  /** The row's xmin; none for a delta. */
  version: string | null;
}

/** A read's sketch rows by scope, and the cache its unions are kept in. */
interface Sketches {
  rows: Map<number, SketchRow[]>;
  cache: SketchCache;
}

/** A sketch row as answered: its row version (none for a delta), its bytes unless the cache holds them. */
type StoredRow = Omit<SketchRow, "regs" | "version"> & { xmin: string | null; regs: string | null };

interface Counts {
  views: number;
  visitors: number;
}

/** Quote requests and contact messages of a rollup row. */
interface Converted {
  quotes: number;
  contacts: number;
}

/** A period's or a value's conversions with their rate against its visitors. */
function conversionsOf(c: Converted, visitors: number) {
  const conversions = c.quotes + c.contacts;
  return {
    quotes: c.quotes,
    contacts: c.contacts,
    conversions,
    conversionRate: visitors === 0 ? null : Math.round((conversions / visitors) * 1000) / 10,
  };
}

/**
 * Every admin analytics read, from rollups only: hourly/daily/monthly rows for counts, sketches
 * for distinct visitors over more than one day. No query here touches page_views or visitors, so
 * the cost of a read depends on the length of the period, not on the traffic it held: a two-year
 * period is 4 queries over ~100 rollup rows and ~90 sketches.
 */
export class AnalyticsReader {
  constructor(
    private readonly pool: Pool,
    private readonly pages: PageDirectory,
    /** The stored sketches read before; a bound of 0 reads every sketch's bytes every time. */
    readonly cache = new SketchCache(SKETCH_CACHE_BYTES),
  ) {}

  private get none(): Sketches {
    return { rows: new Map(), cache: this.cache };
  }

  async read(period: Period, now: number): Promise<Analytics> {
    const bucket = bucketOf(period);
    const slots = slotsOf(period, bucket, now);
    const cover = coverOf(period);
    const oneDay = period.from === period.to;
    const [months, days, hours, sketches, topPages, previous, breakdowns] = await Promise.all([
      this.monthlyViews(cover.months),
      // Daily rows: the series of a day-bucketed period, or the loose days of the cover.
      this.dailyRows(bucket === "day" ? { from: period.from, to: period.to } : cover.days),
      bucket === "hour"
        ? this.hourlyRows(dayStart(period.from), dayStart(addDays(period.to, 1)))
        : Promise.resolve(new Map<number, Counts>()),
      oneDay ? Promise.resolve(this.none) : this.sketchRows(cover, [SITE_SCOPE]),
      this.topPages(cover),
      this.totalsOf(previousPeriod(period)),
      this.breakdowns(cover, oneDay),
    ]);
    const viewsOf = (c: Cover) =>
      c.months.reduce((n, m) => n + (months.get(m)?.views ?? 0), 0) +
      c.days.reduce((n, d) => n + (days.get(d)?.views ?? 0), 0);
    let series: AnalyticsPoint[];
    if (bucket === "hour") series = slots.map((s) => point(s.start, hours.get(s.hour!)));
    else if (bucket === "day") series = slots.map((s) => point(s.start, days.get(s.day!)));
    else
      series = slots.map((s) => ({
        start: new Date(s.start).toISOString(),
        visitors: union(sketches, s.cover!, SITE_SCOPE),
        pageViews: viewsOf(s.cover!),
      }));
    // A period's parts never exceed its whole: its estimate is at least its largest bucket (a day
    // or hour exact) and at most the sum of its days where all of them were read.
    const exactDays = [...days]
      .filter(([day]) => day >= period.from && day <= period.to)
      .map(([, d]) => d.visitors);
    const visitors = oneDay
      ? (days.get(period.from)?.visitors ?? 0)
      : within(
          union(sketches, cover, SITE_SCOPE),
          Math.max(0, ...exactDays, ...series.map((p) => p.visitors)),
          bucket === "month" && cover.months.length > 0 ? Infinity : sum(exactDays),
        );
    const totals = {
      visitors,
      pageViews: viewsOf(cover),
      ...conversionsOf(convertedOf(cover, months, days), visitors),
    };
    return {
      from: period.from,
      to: period.to,
      bucket,
      totals,
      series,
      topPages: topPages.map((page) => ({
        ...page,
        visitors: Math.min(page.visitors, page.views, visitors),
      })),
      previous: { ...previousPeriod(period), totals: previous },
      // Every conversion with a known visit is counted under its visit's channel: the rest has none.
      unattributed: {
        quotes: Math.max(0, totals.quotes - breakdowns.channelConversions.quotes),
        contacts: Math.max(0, totals.contacts - breakdowns.channelConversions.contacts),
      },
      change: {
        visitors: change(totals.visitors, previous.visitors),
        pageViews: change(totals.pageViews, previous.pageViews),
        conversions: change(totals.conversions, previous.conversions),
      },
      ...breakdowns.tables(visitors),
    };
  }

  /** Visitors and page views of a period, for comparison. */
  private async totalsOf(period: Period): Promise<Analytics["totals"]> {
    const cover = coverOf(period);
    const oneDay = period.from === period.to;
    const [months, days, sketches] = await Promise.all([
      this.monthlyViews(cover.months),
      this.dailyRows(cover.days),
      oneDay ? Promise.resolve(this.none) : this.sketchRows(cover, [SITE_SCOPE]),
    ]);
    const exactDays = [...days.values()].map((d) => d.visitors);
    const visitors = oneDay
      ? (days.get(period.from)?.visitors ?? 0)
      : within(
          union(sketches, cover, SITE_SCOPE),
          Math.max(0, ...exactDays),
          cover.months.length > 0 ? Infinity : sum(exactDays),
        );
    return {
      visitors,
      pageViews:
        cover.months.reduce((n, m) => n + (months.get(m)?.views ?? 0), 0) +
        cover.days.reduce((n, d) => n + (days.get(d)?.views ?? 0), 0),
      ...conversionsOf(convertedOf(cover, months, days), visitors),
    };
  }

  /**
   * Every breakdown of a period: the values ranked by visits (visitors summed per day, exact in
   * the rollups), the top ones then counted as distinct visitors from their sketches (exact for a
   * single day).
   */
  private async breakdowns(cover: Cover, oneDay: boolean) {
    const r = await this.pool.query<{
      dim: Dim;
      value_id: number;
      visits: string;
      views: string;
      quotes: string;
      contacts: string;
    }>(
      `SELECT dim, value_id, sum(visits) AS visits, sum(views) AS views,
              sum(quotes) AS quotes, sum(contacts) AS contacts FROM (
         SELECT dim, value_id, visits, views, quotes, contacts FROM tracking.monthly_dims
          WHERE month = ANY($1::date[])
         UNION ALL
         SELECT dim, value_id, visitors, views, quotes, contacts FROM tracking.daily_dims
          WHERE day = ANY($2::date[])
       ) u GROUP BY dim, value_id`,
      [cover.months, cover.days],
    );
    const channelConversions = { quotes: 0, contacts: 0 };
    for (const row of r.rows)
      if (row.dim === DIMS.channel) {
        channelConversions.quotes += Number(row.quotes);
        channelConversions.contacts += Number(row.contacts);
      }
    const top = new Map<
      Dim,
      { valueId: number; visits: number; views: number; quotes: number; contacts: number }[]
    >();
    for (const row of r.rows) {
      const list = top.get(row.dim) ?? [];
      list.push({
        valueId: row.value_id,
        visits: Number(row.visits),
        views: Number(row.views),
        quotes: Number(row.quotes),
        contacts: Number(row.contacts),
      });
      top.set(row.dim, list);
    }
    for (const [dim, list] of top)
      top.set(
        dim,
        list
          .sort(
            (a, b) =>
              b.visits - a.visits || b.quotes + b.contacts - (a.quotes + a.contacts) || a.valueId - b.valueId,
          )
          .slice(0, BREAKDOWN_ROWS),
      );
    const chosen = [...top].flatMap(([dim, list]) => list.map((v) => ({ dim, ...v })));
    const [names, paths, sketches] = await Promise.all([
      dimValueNames(
        this.pool,
        chosen.filter((c) => c.dim !== DIMS.landingPage).map((c) => c.valueId),
      ),
      this.pages.paths(chosen.filter((c) => c.dim === DIMS.landingPage).map((c) => c.valueId)),
      oneDay
        ? Promise.resolve(this.none)
        : this.sketchRows(
            cover,
            chosen.map((c) => dimScope(c.dim, c.valueId)),
          ),
    ]);
    // A value's distinct visitors are at most its visits (visitor-days), its page views and the
    // period's visitors (`whole`): a part of a period never reads more than the whole.
    const rows = (whole: number) => (dim: Dim) =>
      (top.get(dim) ?? [])
        .map((v) => {
          const visitors = oneDay
            ? v.visits
            : Math.min(union(sketches, cover, dimScope(dim, v.valueId)), v.visits, v.views, whole);
          return {
            value: (dim === DIMS.landingPage ? paths.get(v.valueId) : names.get(v.valueId)) ?? "",
            visitors,
            pageViews: v.views,
            ...conversionsOf(v, visitors),
          };
        })
        .sort((a, b) => b.visitors - a.visitors || a.value.localeCompare(b.value));
    return { tables: (whole: number) => breakdownTables(rows(whole)), channelConversions };
  }

  private async topPages(cover: Cover): Promise<AnalyticsTopPage[]> {
    const r = await this.pool.query<{ page_id: number; path: string; views: string }>(
      `SELECT v.page_id, p.path, v.views FROM (
         SELECT page_id, sum(views) AS views FROM (
           SELECT page_id, views FROM tracking.monthly_pages WHERE month = ANY($1::date[])
           UNION ALL
           SELECT page_id, views FROM tracking.daily_pages WHERE day = ANY($2::date[])
         ) u GROUP BY page_id ORDER BY sum(views) DESC, page_id LIMIT ${TOP_PAGES}
       ) v JOIN tracking.pages p ON p.id = v.page_id
       ORDER BY v.views DESC, v.page_id`,
      [cover.months, cover.days],
    );
    const sketches = await this.sketchRows(
      cover,
      r.rows.map((row) => row.page_id),
    );
    return r.rows.map((row) => ({
      page: row.path,
      views: Number(row.views),
      visitors: union(sketches, cover, row.page_id),
    }));
  }

  /**
   * Month sketches of the cover's months, week piece sketches of the whole pieces among its loose
   * days (or those pieces' day sketches, in a month whose week sketches are not built yet: kind
   * 'p'), day sketches of the days left, and deltas of any of them. A stored sketch whose row
   * version the cache holds comes back without its bytes, which the cache then gives.
   */
  private async sketchRows(cover: Cover, scopes: number[]): Promise<Sketches> {
    if (scopes.length === 0) return this.none;
    const sc = sketchCoverOf(cover);
    const weekDays = cover.days.filter((d) => !sc.days.includes(d));
    const first = cover.months[0] ?? "1970-01-01";
    const last = cover.months.length > 0 ? addDays(addMonths(cover.months.at(-1)!, 1), -1) : "1970-01-01";
    await this.cache.checkHorizon(this.pool);
    const wanted: string[] = [];
    if (this.cache.maxBytes > 0)
      for (const scope of scopes) {
        for (const month of cover.months) wanted.push(sketchKey("m", month, scope));
        for (const week of sc.weeks) wanted.push(sketchKey("w", week, scope));
        for (const day of cover.days) wanted.push(sketchKey("d", day, scope));
      }
    // Held for the rest of this read, whatever the cache drops meanwhile. Rows whose xmin is one of
    // the held versions' come without bytes: a few hundred transaction ids to send instead of a
    // key for each row. A row written by the transaction of another held row, but not held in that
    // version itself, is then fetched again by its key.
    const held = this.cache.lookup(wanted);
    const xmins = [...new Set([...held.values()].map((entry) => entry.xmin))];
    // base64 text: a third of the bytes of bytea's hex output, and decoded natively.
    const r = await this.pool.query<StoredRow>(
      `WITH pending AS (SELECT period AS month FROM tracking.sketches WHERE kind = 'p')
       SELECT scope, kind, to_char(period, 'YYYY-MM-DD') AS period, xmin::text AS xmin,
              CASE WHEN xmin = ANY($8::xid[]) THEN NULL ELSE encode(regs, 'base64') END AS regs
       FROM tracking.sketches
       WHERE scope = ANY($3::int[])
         AND ((kind = 'm' AND period = ANY($1::date[]))
              OR (kind = 'd' AND period = ANY($2::date[]))
              OR (kind = 'w' AND period = ANY($6::date[])
                  AND date_trunc('month', period)::date NOT IN (SELECT month FROM pending))
              OR (kind = 'd' AND period = ANY($7::date[])
                  AND date_trunc('month', period)::date IN (SELECT month FROM pending)))
       UNION ALL
       SELECT scope, 'x', to_char(day, 'YYYY-MM-DD'), NULL, encode(regs, 'base64') FROM tracking.sketch_deltas
       WHERE scope = ANY($3::int[])
         AND (day = ANY($2::date[]) OR day = ANY($7::date[])
              OR (day BETWEEN $4::date AND $5::date AND date_trunc('month', day)::date = ANY($1::date[])))`,
      [cover.months, sc.days, scopes, first, last, sc.weeks, weekDays, xmins],
    );
    const rows: StoredRow[] = [];
    const missed: StoredRow[] = [];
    for (const row of r.rows)
      (row.regs !== null || held.get(sketchKey(row.kind, row.period, row.scope))?.xmin === row.xmin
        ? rows
        : missed
      ).push(row);
    if (missed.length > 0) rows.push(...(await this.storedRows(missed)));
    const sketches: Sketches = { rows: new Map(), cache: this.cache };
    for (const { xmin, regs, ...row } of rows) {
      const key = sketchKey(row.kind, row.period, row.scope);
      let bytes: Uint8Array;
      if (regs === null) {
        this.cache.hits++;
        bytes = held.get(key)!.regs;
      } else {
        bytes = Buffer.from(regs, "base64");
        this.cache.fetchedBytes += bytes.byteLength;
        if (xmin !== null) {
          this.cache.misses++;
          this.cache.store(key, xmin, bytes);
        }
      }
      const list = sketches.rows.get(row.scope);
      if (list) list.push({ ...row, regs: bytes, version: xmin });
      else sketches.rows.set(row.scope, [{ ...row, regs: bytes, version: xmin }]);
    }
    return sketches;
  }

  /** Stored sketches by their keys, with their bytes (in the caller's next snapshot). */
  private async storedRows(keys: Omit<StoredRow, "regs" | "xmin">[]): Promise<StoredRow[]> {
    const r = await this.pool.query<StoredRow>(
      `SELECT s.scope, s.kind, to_char(s.period, 'YYYY-MM-DD') AS period, s.xmin::text AS xmin,
              encode(s.regs, 'base64') AS regs
       FROM unnest($1::text[], $2::date[], $3::int[]) AS k(kind, period, scope)
       JOIN tracking.sketches s ON s.kind = k.kind AND s.period = k.period AND s.scope = k.scope`,
      [keys.map((k) => k.kind), keys.map((k) => k.period), keys.map((k) => k.scope)],
    );
    return r.rows;
  }

  private async monthlyViews(months: string[]): Promise<Map<string, { views: number } & Converted>> {
    if (months.length === 0) return new Map();
    const r = await this.pool.query<{ month: string; views: string; quotes: number; contacts: number }>(
      `SELECT to_char(month, 'YYYY-MM-DD') AS month, views, quotes, contacts FROM tracking.monthly
        WHERE month = ANY($1::date[])`,
      [months],
    );
    return new Map(
      r.rows.map((row) => [
        row.month,
        { views: Number(row.views), quotes: row.quotes, contacts: row.contacts },
      ]),
    );
  }

  private async hourlyRows(from: number, to: number): Promise<Map<number, Counts>> {
    const r = await this.pool.query<{ ms: string; views: number; visitors: number }>(
      `SELECT (extract(epoch FROM hour) * 1000)::bigint AS ms, views, visitors FROM tracking.hourly
       WHERE hour >= $1 AND hour < $2`,
      [new Date(from).toISOString(), new Date(to).toISOString()],
    );
    return new Map(r.rows.map((row) => [Number(row.ms), row]));
  }

  /** Daily rows of a range of days, or of a list of days. */
  private async dailyRows(
    days: { from: string; to: string } | string[],
  ): Promise<Map<string, Counts & Converted>> {
    if (Array.isArray(days) && days.length === 0) return new Map();
    const columns = "to_char(day, 'YYYY-MM-DD') AS day, views, visitors, quotes, contacts";
    const r = await this.pool.query<{
      day: string;
      views: number;
      visitors: number;
      quotes: number;
      contacts: number;
    }>(
      Array.isArray(days)
        ? `SELECT ${columns} FROM tracking.daily WHERE day = ANY($1::date[])`
        : `SELECT ${columns} FROM tracking.daily WHERE day BETWEEN $1 AND $2`,
      Array.isArray(days) ? [days] : [days.from, days.to],
    );
    return new Map(r.rows.map((row) => [row.day, row]));
  }

  /** The Analytics tab's live counters: today's and this week's visitors, today's top pages. */
  async stats(now: number): Promise<{ todayTotal: number; thisWeekTotal: number; topPages: TopPage[] }> {
    const today = amsterdamDate(now);
    const monday = weekStart(today);
    const week = coverOf({ from: monday, to: today });
    const weekDays = week.days.filter((d) => d <= today);
    const [days, sketches, top] = await Promise.all([
      this.dailyRows(weekDays),
      monday === today ? Promise.resolve(this.none) : this.sketchRows(week, [SITE_SCOPE]),
      this.pool.query<{ path: string; views: number }>(
        `SELECT p.path, d.views FROM tracking.daily_pages d JOIN tracking.pages p ON p.id = d.page_id
         WHERE d.day = $1 ORDER BY d.views DESC, p.path LIMIT ${TOP_PAGES}`,
        [today],
      ),
    ]);
    const todayTotal = days.get(today)?.visitors ?? 0;
    // "Deze week" is never below one of its days, "Vandaag" included, nor above their sum.
    const exactDays = [...days.values()].map((d) => d.visitors);
    return {
      todayTotal,
      thisWeekTotal:
        monday === today
          ? todayTotal
          : within(union(sketches, week, SITE_SCOPE), Math.max(0, ...exactDays), sum(exactDays)),
      topPages: top.rows.map((row) => ({ page: row.path, views: row.views })),
    };
  }

  /** The last 24 hours by hour, or the last 7 or 30 Amsterdam days by day, oldest first. */
  async series(range: VisitorSeriesRange, now: number): Promise<VisitorSeriesBucket[]> {
    if (range === "24h") {
      const last = Math.floor(now / HOUR_MS) * HOUR_MS;
      const first = last - 23 * HOUR_MS;
      const rows = await this.hourlyRows(first, last + HOUR_MS);
      return Array.from({ length: 24 }, (_, i) => point(first + i * HOUR_MS, rows.get(first + i * HOUR_MS)));
    }
    const count = range === "7d" ? 7 : 30;
    const today = amsterdamDate(now);
    const from = addDays(today, 1 - count);
    const rows = await this.dailyRows({ from, to: today });
    return Array.from({ length: count }, (_, i) => {
      const day = addDays(from, i);
      return point(dayStart(day), rows.get(day));
    });
  }
}

/** The quote requests and contact messages of a cover, from the rows read for it. */
function convertedOf(cover: Cover, months: Map<string, Converted>, days: Map<string, Converted>): Converted {
  const rows = [...cover.months.map((m) => months.get(m)), ...cover.days.map((d) => days.get(d))];
  return {
    quotes: rows.reduce((n, row) => n + (row?.quotes ?? 0), 0),
    contacts: rows.reduce((n, row) => n + (row?.contacts ?? 0), 0),
  };
}

/**
 * An estimate of distinct visitors kept within what the exact counts say (a period's largest day
 * at least, the sum of its days at most), so no part of a period reads more than the whole.
 */
function within(estimate: number, atLeast: number, atMost: number): number {
  return Math.max(atLeast, Math.min(estimate, atMost));
}

const sum = (values: number[]) => values.reduce((n, v) => n + v, 0);

/** Percent change, rounded to 0.1; null when there was nothing before. */
function change(now: number, before: number): number | null {
  return before === 0 ? null : Math.round(((now - before) / before) * 1000) / 10;
}

function point(start: number, row: Counts | undefined): AnalyticsPoint {
  return { start: new Date(start).toISOString(), visitors: row?.visitors ?? 0, pageViews: row?.views ?? 0 };
}

/** A cover's months, week pieces and days as sets, once per cover (a read unions some 70 scopes over each). */
const coverSets = new WeakMap<Cover, { months: Set<string>; weeks: Set<string>; days: Set<string> }>();
function setsOf(cover: Cover) {
  let sets = coverSets.get(cover);
  if (!sets)
    coverSets.set(
      cover,
      (sets = {
        months: new Set(cover.months),
        weeks: new Set(sketchCoverOf(cover).weeks),
        days: new Set(cover.days),
      }),
    );
  return sets;
}

/**
 * Distinct visitors of one scope over a cover, from the rows read for a cover that contains it: a
 * week piece's sketch stands for its days (union is idempotent, so a day read as well as its piece
 * counts once). The cache keeps the estimate, and the union of the rows of the months before the
 * newest month read (which only an import or retention rewrites), under the row versions they were
 * made of: read again unchanged, a period costs no union, and with today's sketches rewritten one
 * union of the kept registers with the newest month's rows.
 */
function union({ rows, cache }: Sketches, cover: Cover, scope: number): number {
  const { months, weeks, days } = setsOf(cover);
  const wanted = (rows.get(scope) ?? []).filter((row) =>
    row.kind === "m"
      ? months.has(row.period)
      : row.kind === "w"
        ? weeks.has(row.period)
        : row.kind === "d"
          ? days.has(row.period)
          : days.has(row.period) || months.has(monthOf(row.period)),
  );
  const p = precisionOf(scope);
  if (cache.maxBytes === 0 || wanted.length === 0)
    return Hll.union(
      p,
      wanted.map((row) => row.regs),
    ).estimate();
  // A delta has no version: no estimate is kept for rows with one.
  const whole = wanted.every((row) => row.version !== null) ? `e${signatureOf(scope, wanted)}` : undefined;
  const known = whole === undefined ? undefined : cache.recall(whole)?.estimate;
  if (known !== undefined) return known;
  const newest = wanted.reduce((m, row) => (monthOf(row.period) > m ? monthOf(row.period) : m), "");
  const older = wanted.filter((row) => row.version !== null && monthOf(row.period) < newest);
  const parts = wanted
    .filter((row) => row.version === null || monthOf(row.period) === newest)
    .map((row) => row.regs);
  if (older.length >= 2) {
    const key = `u${signatureOf(scope, older)}`;
    let kept = cache.recall(key)?.regs;
    if (!kept) {
      kept = Hll.union(
        p,
        older.map((row) => row.regs),
      ).serialize();
      cache.store(key, "", kept);
    }
    parts.push(kept);
  } else parts.push(...older.map((row) => row.regs));
  const estimate = Hll.union(p, parts).estimate();
  if (whole !== undefined) cache.keepEstimate(whole, estimate);
  return estimate;
}

/** The row versions a union is made of, in one order. */
function signatureOf(scope: number, rows: SketchRow[]): string {
  return `${scope}:${rows
    .map((row) => `${row.kind}${row.period}@${row.version}`)
    .sort()
    .join(",")}`;
}
