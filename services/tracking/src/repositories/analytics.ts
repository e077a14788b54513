import type {
  Analytics,
  AnalyticsTopPage,
  TopPage,
  VisitorSeriesBucket,
  VisitorSeriesRange,
} from "@lease/contracts";
import type { Pool } from "@lease/platform";
import { HOUR_MS, addDays, addMonths, amsterdamDate, dayStart, monthOf, weekStart } from "../domain/calendar";
import { Hll } from "../domain/hll";
import { bucketOf, coverOf, slotsOf, type Cover, type Period } from "../domain/periods";
import type { PageDirectory } from "./dictionary";
import { SITE_SCOPE, precisionOf } from "./sketches";

const TOP_PAGES = 10;

/** A stored sketch or an unmerged delta, as read for a cover. */
interface SketchRow {
  scope: number;
  /** 'm' month sketch, 'd' day sketch, 'x' a delta of one day not merged yet */
  kind: "m" | "d" | "x";
  period: string;
  regs: Buffer;
}

/**
 * Every admin analytics read, from rollups only: hourly/daily/monthly rows for counts, sketches
 * for distinct visitors over more than one day. No query here touches page_views or visitors, so
 * the cost of a read depends on the length of the period, not on the traffic it held.
 */
export class AnalyticsReader {
  constructor(
    private readonly pool: Pool,
    private readonly pages: PageDirectory,
  ) {}

  async read(period: Period, now: number): Promise<Analytics> {
    const bucket = bucketOf(period);
    const slots = slotsOf(period, bucket, now);
    const cover = coverOf(period);
    const [series, totalViews, top] = await Promise.all([
      this.seriesOf(period, bucket, slots),
      this.viewsOver(cover),
      this.topPages(cover),
    ]);
    const visitors =
      period.from === period.to
        ? ((await this.dailyRows(period.from, period.to)).get(period.from)?.visitors ?? 0)
        : union(await this.sketchRows(cover, [SITE_SCOPE]), cover, SITE_SCOPE);
    return {
      from: period.from,
      to: period.to,
      bucket,
      totals: { visitors, pageViews: totalViews },
      series,
      topPages: top,
    };
  }

  private async seriesOf(period: Period, bucket: Analytics["bucket"], slots: ReturnType<typeof slotsOf>) {
    if (bucket === "hour") {
      const rows = await this.hourlyRows(dayStart(period.from), dayStart(addDays(period.to, 1)));
      return slots.map((s) => point(s.start, rows.get(s.hour!)));
    }
    if (bucket === "day") {
      const rows = await this.dailyRows(period.from, period.to);
      return slots.map((s) => point(s.start, rows.get(s.day!)));
    }
    const covers = slots.map((s) => s.cover!);
    const all = coverOf(period);
    const [rows, views] = await Promise.all([
      this.sketchRows(all, [SITE_SCOPE]),
      Promise.all(covers.map((c) => this.viewsOver(c))),
    ]);
    return slots.map((s, i) => ({
      start: new Date(s.start).toISOString(),
      visitors: union(rows, covers[i]!, SITE_SCOPE),
      pageViews: views[i]!,
    }));
  }

  /** Page views over a cover: whole months from the monthly rollup, loose days from the daily one. */
  private async viewsOver(cover: Cover): Promise<number> {
    const r = await this.pool.query<{ views: string | null }>(
      `SELECT (SELECT coalesce(sum(views), 0) FROM tracking.monthly WHERE month = ANY($1::date[]))
            + (SELECT coalesce(sum(views), 0) FROM tracking.daily WHERE day = ANY($2::date[])) AS views`,
      [cover.months, cover.days],
    );
    return Number(r.rows[0]?.views ?? 0);
  }

  private async topPages(cover: Cover): Promise<AnalyticsTopPage[]> {
    const r = await this.pool.query<{ page_id: number; views: string }>(
      `SELECT page_id, sum(views) AS views FROM (
         SELECT page_id, views FROM tracking.monthly_pages WHERE month = ANY($1::date[])
         UNION ALL
         SELECT page_id, views FROM tracking.daily_pages WHERE day = ANY($2::date[])
       ) v
       GROUP BY page_id ORDER BY sum(views) DESC, page_id LIMIT ${TOP_PAGES}`,
      [cover.months, cover.days],
    );
    const ids = r.rows.map((row) => row.page_id);
    const [paths, rows] = await Promise.all([this.pages.paths(ids), this.sketchRows(cover, ids)]);
    return r.rows.map((row) => ({
      page: paths.get(row.page_id) ?? "",
      views: Number(row.views),
      visitors: union(rows, cover, row.page_id),
    }));
  }

  /** Month sketches of the cover's months, day sketches of its days, and deltas of either. */
  private async sketchRows(cover: Cover, scopes: number[]): Promise<SketchRow[]> {
    if (scopes.length === 0) return [];
    const last = cover.months.length > 0 ? addDays(addMonths(cover.months.at(-1)!, 1), -1) : "";
    const r = await this.pool.query<SketchRow>(
      `SELECT scope, kind, to_char(period, 'YYYY-MM-DD') AS period, regs FROM tracking.sketches
       WHERE scope = ANY($3::int[])
         AND ((kind = 'm' AND period = ANY($1::date[])) OR (kind = 'd' AND period = ANY($2::date[])))
       UNION ALL
       SELECT scope, 'x', to_char(day, 'YYYY-MM-DD'), regs FROM tracking.sketch_deltas
       WHERE scope = ANY($3::int[])
         AND (day = ANY($2::date[]) OR (day >= $4::date AND day <= $5::date AND date_trunc('month', day)::date = ANY($1::date[])))`,
      [cover.months, cover.days, scopes, cover.months[0] ?? "1970-01-01", last || "1970-01-01"],
    );
    return r.rows;
  }

  private async hourlyRows(from: number, to: number) {
    const r = await this.pool.query<{ ms: string; views: number; visitors: number }>(
      `SELECT (extract(epoch FROM hour) * 1000)::bigint AS ms, views, visitors FROM tracking.hourly
       WHERE hour >= $1 AND hour < $2`,
      [new Date(from).toISOString(), new Date(to).toISOString()],
    );
    return new Map(r.rows.map((row) => [Number(row.ms), row]));
  }

  private async dailyRows(from: string, to: string) {
    const r = await this.pool.query<{ day: string; views: number; visitors: number }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, views, visitors FROM tracking.daily
       WHERE day BETWEEN $1 AND $2`,
      [from, to],
    );
    return new Map(r.rows.map((row) => [row.day, row]));
  }

  /** The Analytics tab's live counters: today's and this week's visitors, today's top pages. */
  async stats(now: number): Promise<{ todayTotal: number; thisWeekTotal: number; topPages: TopPage[] }> {
    const today = amsterdamDate(now);
    const monday = weekStart(today);
    const week = coverOf({ from: monday, to: today });
    const [days, sketches, top] = await Promise.all([
      this.dailyRows(today, today),
      monday === today ? Promise.resolve([]) : this.sketchRows(week, [SITE_SCOPE]),
      this.pool.query<{ path: string; views: number }>(
        `SELECT p.path, d.views FROM tracking.daily_pages d JOIN tracking.pages p ON p.id = d.page_id
         WHERE d.day = $1 ORDER BY d.views DESC, p.path LIMIT ${TOP_PAGES}`,
        [today],
      ),
    ]);
    const todayTotal = days.get(today)?.visitors ?? 0;
    return {
      todayTotal,
      thisWeekTotal: monday === today ? todayTotal : union(sketches, week, SITE_SCOPE),
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
    const rows = await this.dailyRows(from, today);
    return Array.from({ length: count }, (_, i) => {
      const day = addDays(from, i);
      return point(dayStart(day), rows.get(day));
    });
  }
}

function point(start: number, row: { views: number; visitors: number } | undefined) {
  return { start: new Date(start).toISOString(), visitors: row?.visitors ?? 0, pageViews: row?.views ?? 0 };
}

/** Distinct visitors of one scope over a cover, from the rows read for a cover that contains it. */
function union(rows: SketchRow[], cover: Cover, scope: number): number {
  const months = new Set(cover.months);
  const days = new Set(cover.days);
  const hll = new Hll(precisionOf(scope));
  for (const row of rows) {
    if (row.scope !== scope) continue;
    const wanted =
      row.kind === "m"
        ? months.has(row.period)
        : row.kind === "d"
          ? days.has(row.period)
          : days.has(row.period) || months.has(monthOf(row.period));
    if (wanted) hll.merge(Hll.deserialize(row.regs));
  }
  return hll.estimate();
}
