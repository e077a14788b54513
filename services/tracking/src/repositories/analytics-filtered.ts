import type { Analytics, AnalyticsFilter, AnalyticsPoint } from "@lease/contracts";
import type { Pool } from "@lease/platform";
import { addDays, dayStart } from "../domain/calendar";
import { DIMS, campaignValue, type Dim } from "../domain/breakdowns";
import { bucketOf, coverOf, previousPeriod, slotsOf, type Cover, type Period } from "../domain/periods";
import { breakdownTables, dimValueNames } from "./breakdown-tables";
import type { PageDirectory } from "./dictionary";

/** Rows of each breakdown, as in the unfiltered read. */
const BREAKDOWN_ROWS = 10;

/**
 * The visits a filter matches: those whose profile has, for each filtered dimension, one of the
 * breakdown values in `values` (null: any profile), and that landed on page `page` (null: any page).
 * Null as a whole when nothing can match (a campaign or page no visit had).
 */
export interface Matching {
  values: number[] | null;
  page: number | null;
  /**
   * When the filter is on one dimension only (a channel, a campaign or a landing page): that
   * dimension and its value ids (a campaign name may have several), read from the rollups per
   * breakdown value (daily_dims, daily_dim_pairs) instead of per profile.
   */
  single: { dim: number; ids: number[] } | null;
}

/** Visits, page views and conversions of some visits. */
interface Sums {
  visits: number;
  views: number;
  quotes: number;
  contacts: number;
}

const zero = (): Sums => ({ visits: 0, views: 0, quotes: 0, contacts: 0 });

/**
 * Analytics narrowed to the visits that match a filter (channel, campaign, landing page; all that
 * are given). A filter on one dimension reads rows per value: totals and series from daily_dims /
 * monthly_dims, breakdowns from daily_dim_pairs / monthly_dim_pairs. Filters on several dimensions
 * sum daily_visits / monthly_visits (per day or month, visit profile and landing page) of the
 * profiles that have a value of each (tracking.profile_dims) and that landing page. Hours of a period
 * of up to two days come from hourly_visits, conversions from tracking.conversions (visits of those
 * profiles). No sketch can be narrowed to a profile, so visitors over more than one day are visits:
 * the sum of each day's distinct sessions. Like the unfiltered reads, none of this touches
 * page_views or visitors.
 */
export class FilteredAnalyticsReader {
  constructor(
    private readonly pool: Pool,
    private readonly pages: PageDirectory,
  ) {}

  async read(period: Period, filter: AnalyticsFilter, now: number): Promise<Analytics> {
    const bucket = bucketOf(period);
    const slots = slotsOf(period, bucket, now);
    const cover = coverOf(period);
    const previousOf = previousPeriod(period);
    const match = await this.resolve(filter);
    const [sums, hours, previous, breakdowns] = await Promise.all([
      // Day buckets: every day of the period from the daily rows (no month rows needed).
      this.sums(match, bucket === "day" ? { months: [], days: daysOf(period) } : cover, period),
      bucket === "hour" ? this.hours(match, period) : Promise.resolve(new Map<number, Sums>()),
      this.sums(match, coverOf(previousOf), previousOf),
      this.breakdowns(match, cover, period),
    ]);
    const sumOf = (c: Cover, of = sums): Sums =>
      [...c.months, ...c.days].reduce((acc, key) => add(acc, of.get(key)), zero());
    let series: AnalyticsPoint[];
    if (bucket === "hour") series = slots.map((s) => point(s.start, hours.get(s.hour!)));
    else if (bucket === "day") series = slots.map((s) => point(s.start, sums.get(s.day!)));
    else series = slots.map((s) => point(s.start, sumOf(s.cover!)));
    const total =
      bucket === "day" ? daysOf(period).reduce((acc, d) => add(acc, sums.get(d)), zero()) : sumOf(cover);
    const before = sumOf(coverOf(previousOf), previous);
    const totals = totalsOf(total);
    const previousTotals = totalsOf(before);
    return {
      from: period.from,
      to: period.to,
      bucket,
      totals,
      series,
      topPages: [],
      // A conversion without a visit matches no filter.
      unattributed: { quotes: 0, contacts: 0 },
      previous: { ...previousOf, totals: previousTotals },
      change: {
        visitors: change(totals.visitors, previousTotals.visitors),
        pageViews: change(totals.pageViews, previousTotals.pageViews),
        ...{ conversions: change(total.quotes + total.contacts, before.quotes + before.contacts) },
      },
      ...breakdowns,
    };
  }

  /** The profiles and landing page a filter stands for; null when no visit can match. */
  async resolve(filter: AnalyticsFilter): Promise<Matching | null> {
    let page: number | null = null;
    if (filter.page !== undefined) {
      const r = await this.pool.query<{ id: number }>("SELECT id FROM tracking.pages WHERE path = $1", [
        filter.page,
      ]);
      if (r.rows.length === 0) return null;
      page = r.rows[0]!.id;
    }
    // One breakdown-value condition per filter on the profile; a profile must have a value of each.
    const conditions: { dim: number; sql: string; params: string[] }[] = [];
    if (filter.channel !== undefined)
      conditions.push({ dim: DIMS.channel, sql: "dim = 1 AND value = $#", params: [filter.channel] });
    if (filter.campaign !== undefined) {
      const { campaign, campaignSource: source, campaignMedium: medium } = filter;
      if (source !== undefined && medium !== undefined)
        conditions.push({
          dim: DIMS.campaign,
          sql: "dim = 3 AND value = $#",
          params: [campaignValue(source, medium, campaign)],
        });
      else
        conditions.push({
          dim: DIMS.campaign,
          // The campaign value is ["source", "medium", "campaign"] as JSON (domain/breakdowns.ts).
          sql: `dim = 3 AND (value::jsonb)->>2 = $#${source !== undefined ? " AND (value::jsonb)->>0 = $#" : ""}${
            medium !== undefined ? " AND (value::jsonb)->>1 = $#" : ""
          }`,
          params: [
            campaign,
            ...(source !== undefined ? [source] : []),
            ...(medium !== undefined ? [medium] : []),
          ],
        });
    }
    if (conditions.length === 0)
      return { values: null, page, single: { dim: DIMS.landingPage, ids: [page!] } };
    const values: number[] = [];
    const found = await Promise.all(conditions.map((c) => this.valuesOf(c)));
    for (const ids of found) {
      if (ids.length === 0) return null;
      values.push(...ids);
    }
    const single =
      conditions.length === 1 && page === null ? { dim: conditions[0]!.dim, ids: found[0]! } : null;
    return { values, page, single };
  }

  /** The breakdown values (dim_values ids) a condition matches: one, or a campaign's several. */
  private async valuesOf({ sql, params }: { sql: string; params: string[] }): Promise<number[]> {
    let i = 0;
    const numbered = sql.replace(/\$#/g, () => `$${++i}`);
    const r = await this.pool.query<{ id: number }>(
      `SELECT id FROM tracking.dim_values WHERE ${numbered} LIMIT ${MAX_VALUES}`,
      params,
    );
    return r.rows.map((row) => row.id);
  }

  /**
   * Visits, page views and conversions of the matching visits per month of the cover (key: the
   * month's first day) and per day of it. Conversions count on the day the form was sent, under the
   * profile and landing page of the visit it came from.
   */
  private async sums(match: Matching | null, cover: Cover, period: Period): Promise<Map<string, Sums>> {
    const out = new Map<string, Sums>();
    if (!match) return out;
    // One dimension: its value rows (a campaign's values never share a visit, so they add up).
    const visits = match.single
      ? `SELECT to_char(month, 'YYYY-MM-DD') AS period, sum(visits) AS visits, sum(views) AS views, 0 AS quotes, 0 AS contacts
           FROM tracking.monthly_dims WHERE month = ANY($3::date[]) AND dim = $7 AND value_id = ANY($8::int[]) GROUP BY month
         UNION ALL
         SELECT to_char(day, 'YYYY-MM-DD'), sum(visitors), sum(views), 0, 0
           FROM tracking.daily_dims WHERE day = ANY($4::date[]) AND dim = $7 AND value_id = ANY($8::int[]) GROUP BY day`
      : `SELECT to_char(month, 'YYYY-MM-DD') AS period, sum(visits) AS visits, sum(views) AS views, 0 AS quotes, 0 AS contacts
           FROM tracking.monthly_visits t WHERE month = ANY($3::date[]) AND ${MATCH} GROUP BY month
         UNION ALL
         SELECT to_char(day, 'YYYY-MM-DD'), sum(visits), sum(views), 0, 0
           FROM tracking.daily_visits t WHERE day = ANY($4::date[]) AND ${MATCH} GROUP BY day`;
    const r = await this.pool.query<{
      period: string;
      visits: string;
      views: string;
      quotes: string;
      contacts: string;
    }>(
      `${visits}
       UNION ALL
       SELECT to_char(day, 'YYYY-MM-DD'), 0, 0, count(*) FILTER (WHERE kind = 'quote'),
              count(*) FILTER (WHERE kind = 'contact')
         FROM tracking.conversions t WHERE day BETWEEN $5 AND $6 AND ${MATCH} GROUP BY day`,
      [...params(match), cover.months, cover.days, period.from, period.to, ...singleParams(match)],
    );
    const months = new Set(cover.months);
    const days = new Set(cover.days);
    for (const row of r.rows) {
      const sums = {
        visits: Number(row.visits),
        views: Number(row.views),
        quotes: Number(row.quotes),
        contacts: Number(row.contacts),
      };
      // A conversion of a day within a whole month of the cover counts under that month.
      const month = `${row.period.slice(0, 8)}01`;
      const key = months.has(month) && !days.has(row.period) ? month : row.period;
      out.set(key, add(out.get(key) ?? zero(), sums));
    }
    return out;
  }

  /**
   * Page views and visitors (sessions with a page view in the hour, exact) per hour of a period of
   * one or two days, from the hourly visit rows of the matching profiles and landing page.
   */
  private async hours(match: Matching | null, period: Period): Promise<Map<number, Sums>> {
    const out = new Map<number, Sums>();
    if (!match) return out;
    const r = await this.pool.query<{ ms: string; views: string; visitors: string }>(
      `SELECT (extract(epoch FROM hour) * 1000)::bigint AS ms, sum(views) AS views, sum(visitors) AS visitors
         FROM tracking.hourly_visits t WHERE hour >= $3 AND hour < $4 AND ${MATCH} GROUP BY hour`,
      [
        ...params(match),
        new Date(dayStart(period.from)).toISOString(),
        new Date(dayStart(addDays(period.to, 1))).toISOString(),
      ],
    );
    for (const row of r.rows)
      out.set(Number(row.ms), {
        visits: Number(row.visitors),
        views: Number(row.views),
        quotes: 0,
        contacts: 0,
      });
    return out;
  }

  /**
   * Every breakdown of the matching visits: their visits, page views and conversions summed per
   * (profile, landing page), then per breakdown value of the profile and per landing page; the top
   * rows of each dimension by visits.
   */
  private async breakdowns(match: Matching | null, cover: Cover, period: Period) {
    type Row = {
      dim: Dim;
      value_id: number;
      visits: string;
      views: string;
      quotes: string;
      contacts: string;
    };
    const rows: Row[] = match
      ? (
          await this.pool.query<Row>(
            `WITH v AS (${
              match.single
                ? ""
                : `SELECT profile_id, landing_page_id, sum(visits) AS visits, sum(views) AS views,
                          0 AS quotes, 0 AS contacts FROM (
                     SELECT profile_id, landing_page_id, visits, views FROM tracking.monthly_visits t
                      WHERE month = ANY($3::date[]) AND ${MATCH}
                     UNION ALL
                     SELECT profile_id, landing_page_id, visits, views FROM tracking.daily_visits t
                      WHERE day = ANY($4::date[]) AND ${MATCH}
                   ) u GROUP BY profile_id, landing_page_id
                   UNION ALL`
            }
               SELECT profile_id, landing_page_id, 0 AS visits, 0 AS views,
                      count(*) FILTER (WHERE kind = 'quote') AS quotes,
                      count(*) FILTER (WHERE kind = 'contact') AS contacts
                 FROM tracking.conversions t WHERE day BETWEEN $5 AND $6 AND ${MATCH}
                GROUP BY profile_id, landing_page_id
             ), p AS (
               -- Per profile first: its six breakdown values are then joined once, not per page.
               SELECT profile_id, sum(visits) AS visits, sum(views) AS views, sum(quotes) AS quotes,
                      sum(contacts) AS contacts FROM v GROUP BY profile_id
             ), per AS (
               SELECT dv.dim, pd.value_id, sum(v.visits) AS visits, sum(v.views) AS views,
                      sum(v.quotes) AS quotes, sum(v.contacts) AS contacts
                 FROM p v JOIN tracking.profile_dims pd ON pd.profile_id = v.profile_id
                 JOIN tracking.dim_values dv ON dv.id = pd.value_id
                GROUP BY dv.dim, pd.value_id
               UNION ALL
               SELECT ${DIMS.landingPage}::smallint, landing_page_id, sum(visits), sum(views), sum(quotes), sum(contacts)
                 FROM v GROUP BY landing_page_id${
                   match.single
                     ? `
               UNION ALL
               -- One dimension: the breakdowns of its value's visits, kept per (filter value, value).
               SELECT dim, value_id, sum(visits), sum(views), 0, 0 FROM (
                 SELECT dim, value_id, visits, views FROM tracking.monthly_dim_pairs
                  WHERE month = ANY($3::date[]) AND fdim = $7 AND fvalue = ANY($8::int[])
                 UNION ALL
                 SELECT dim, value_id, visits, views FROM tracking.daily_dim_pairs
                  WHERE day = ANY($4::date[]) AND fdim = $7 AND fvalue = ANY($8::int[])
                 UNION ALL
                 -- The filtered dimension itself: its values' own rows.
                 SELECT dim, value_id, visits, views FROM tracking.monthly_dims
                  WHERE month = ANY($3::date[]) AND dim = $7 AND value_id = ANY($8::int[])
                 UNION ALL
                 SELECT dim, value_id, visitors, views FROM tracking.daily_dims
                  WHERE day = ANY($4::date[]) AND dim = $7 AND value_id = ANY($8::int[])
               ) u GROUP BY dim, value_id`
                     : ""
                 }
             ), agg AS (
               SELECT dim, value_id, sum(visits) AS visits, sum(views) AS views, sum(quotes) AS quotes,
                      sum(contacts) AS contacts FROM per GROUP BY dim, value_id
             )
             SELECT dim, value_id, visits, views, quotes, contacts FROM (
               SELECT *, row_number() OVER (
                 PARTITION BY dim ORDER BY visits DESC, quotes + contacts DESC, value_id) AS rank
               FROM agg
             ) ranked WHERE rank <= ${BREAKDOWN_ROWS}`,
            [...params(match), cover.months, cover.days, period.from, period.to, ...singleParams(match)],
          )
        ).rows
      : [];
    const ofLanding = rows.filter((row) => row.dim === DIMS.landingPage).map((row) => row.value_id);
    const ofProfile = rows.filter((row) => row.dim !== DIMS.landingPage).map((row) => row.value_id);
    const [names, paths] = await Promise.all([
      dimValueNames(this.pool, ofProfile),
      this.pages.paths(ofLanding),
    ]);
    const list = (dim: Dim) =>
      rows
        .filter((row) => row.dim === dim)
        .map((row) => {
          const visitors = Number(row.visits);
          return {
            value: (dim === DIMS.landingPage ? paths.get(row.value_id) : names.get(row.value_id)) ?? "",
            visitors,
            pageViews: Number(row.views),
            ...conversionsOf({ quotes: Number(row.quotes), contacts: Number(row.contacts) }, visitors),
          };
        })
        .sort((a, b) => b.visitors - a.visitors || a.value.localeCompare(b.value));
    return breakdownTables(list);
  }
}

/** Breakdown values a campaign name may stand for (it has one per source and medium). */
const MAX_VALUES = 1000;

/**
 * The condition on a table aliased t with profile_id and landing_page_id: $1 the breakdown values
 * (null: any profile), $2 the landing page (null: any). A profile has one value per dimension, so it
 * matches every filtered dimension when it has as many of the values as they span dimensions. The
 * profiles are found in the statement itself (a hashed subplan over profile_dims by value, a few ms
 * even for the thousands of profiles of a broad channel) rather than shipped as a parameter.
 * Statements are planned with their values, so a null side costs nothing.
 */
const MATCH = `($1::int[] IS NULL OR t.profile_id IN (
    SELECT profile_id FROM tracking.profile_dims WHERE value_id = ANY($1::int[]) GROUP BY profile_id
    HAVING count(*) = (SELECT count(DISTINCT dim) FROM tracking.dim_values WHERE id = ANY($1::int[]))))
  AND ($2::int IS NULL OR t.landing_page_id = $2::int)`;

function params(match: Matching): [number[] | null, number | null] {
  return [match.values, match.page];
}

/** $7 and $8 of a one-dimension read: the dimension and its value ids. */
function singleParams(match: Matching): [number, number[]] | [] {
  return match.single ? [match.single.dim, match.single.ids] : [];
}

/** Every day of a period. */
function daysOf(period: Period): string[] {
  const days: string[] = [];
  for (let d = period.from; d <= period.to; d = addDays(d, 1)) days.push(d);
  return days;
}

function add(a: Sums, b: Sums | undefined): Sums {
  if (!b) return a;
  return {
    visits: a.visits + b.visits,
    views: a.views + b.views,
    quotes: a.quotes + b.quotes,
    contacts: a.contacts + b.contacts,
  };
}

/** A period's or a value's conversions with their rate against its visitors (visits). */
function conversionsOf(c: { quotes: number; contacts: number }, visitors: number) {
  const conversions = c.quotes + c.contacts;
  return {
    quotes: c.quotes,
    contacts: c.contacts,
    conversions,
    conversionRate: visitors === 0 ? null : Math.round((conversions / visitors) * 1000) / 10,
  };
}

function totalsOf(s: Sums) {
  return { visitors: s.visits, pageViews: s.views, ...conversionsOf(s, s.visits) };
}

function point(start: number, s: Sums | undefined): AnalyticsPoint {
  return { start: new Date(start).toISOString(), visitors: s?.visits ?? 0, pageViews: s?.views ?? 0 };
}

/** Percent change, rounded to 0.1; null when there was nothing before. */
function change(now: number, before: number): number | null {
  return before === 0 ? null : Math.round(((now - before) / before) * 1000) / 10;
}
