import {
  ANALYTICS_CHANNELS,
  CAMPAIGN_REPORT_ROWS_MAX,
  type AdPlatform,
  type AnalyticsChannel,
  type CampaignReport,
} from "@lease/contracts";
import type { Pool } from "@lease/platform";
import { DIMS } from "../domain/breakdowns";
import {
  PLATFORM_CHANNEL,
  ZERO,
  assignSpend,
  byWeight,
  figuresOf,
  sumCounts,
  type CampaignKey,
  type Counts,
} from "../domain/campaign-report";
import { addDays, monthOf } from "../domain/calendar";
import { coverOf, previousPeriod, type Period } from "../domain/periods";

interface PeriodCounts {
  campaigns: Map<string, CampaignKey & { counts: Counts }>;
  /** Spend of campaigns no visit had beyond the most spent ones: how many, and their sum. */
  unlisted: { campaigns: number; spendCents: number };
  channels: Map<AnalyticsChannel, Counts>;
  totals: Counts;
}

const asCounts = (r: {
  visitors: string | number;
  quotes: string | number;
  contacts: string | number;
  offers: string | number;
  contracts: string | number;
  commission: string | number;
}): Counts => ({
  spendCents: 0,
  visitors: Number(r.visitors),
  leads: Number(r.quotes),
  contacts: Number(r.contacts),
  offers: Number(r.offers),
  contracts: Number(r.contracts),
  commissionCents: Number(r.commission),
});

/**
 * Loose days (ascending, as coverOf gives them) as signed days of the running totals: each run of
 * consecutive days within one month is + its last day and - the day before its first (unless that
 * is the 1st, where the month's totals start). A month's loose days are so at most two rows per value.
 */
export function edgesOf(days: readonly string[]): { day: string; sign: 1 | -1 }[] {
  const edges: { day: string; sign: 1 | -1 }[] = [];
  for (let i = 0; i < days.length; i++) {
    const first = days[i]!;
    let last = first;
    while (
      i + 1 < days.length &&
      days[i + 1] === addDays(last, 1) &&
      monthOf(days[i + 1]!) === monthOf(first)
    )
      last = days[++i]!;
    if (first !== monthOf(first)) edges.push({ day: addDays(first, -1), sign: -1 });
    edges.push({ day: last, sign: 1 });
  }
  return edges;
}

/**
 * The campaign report from tracking's own rollups: visits, quote requests and contact messages,
 * and the leads' later stages (offers, contracts, commission: counted on the day the lead arrived,
 * so a contract counts in its lead's period), per campaign and channel, with the platforms' spend
 * set against them. A period is read as whole months plus the running totals at the edges of its
 * loose days (report_running_dims with the changes still pending, ad_spend_running): a few rows per
 * value whatever its length.
 */
export function campaignReportReader(pool: Pool) {
  async function read(period: Period): Promise<PeriodCounts> {
    const { months, days } = coverOf(period);
    // Loose days read as running totals: each run of them is its last day minus the day before it.
    const edges = edgesOf(days);
    const edgeDays = edges.map((e) => e.day);
    const edgeSigns = edges.map((e) => e.sign);
    const [dims, totals] = await Promise.all([
      pool.query<{
        dim: number;
        value: string;
        visitors: string;
        quotes: string;
        contacts: string;
        offers: string;
        contracts: string;
        commission: string;
      }>(
        // Summed per value id first, then named: the join reads one row per value, not per day. The
        // sign is a float8, so the sums are float8 (exact for integers below 2^53 cents), cheaper than
        // bigint's numeric sums (half the aggregate's time in EXPLAIN ANALYZE; loadtests/REPORT.md).
        `SELECT x.dim, v.value, x.visitors, x.quotes, x.contacts, x.offers, x.contracts, x.commission
           FROM (SELECT dim, value_id, sum(visitors) AS visitors, sum(quotes) AS quotes, sum(contacts) AS contacts,
                        sum(offers) AS offers, sum(contracts) AS contracts, sum(commission_cents) AS commission
                   FROM (SELECT r.dim, r.value_id, e.sign * r.visitors AS visitors, e.sign * r.quotes AS quotes,
                                e.sign * r.contacts AS contacts, e.sign * r.offers AS offers,
                                e.sign * r.contracts AS contracts, e.sign * r.commission_cents AS commission_cents
                           FROM unnest($1::date[], $4::float8[]) AS e(day, sign)
                           JOIN tracking.report_running_dims r ON r.day = e.day AND r.dim = ANY($3::smallint[])
                         UNION ALL
                         -- Changes not compacted yet count at every edge of their month from their day on.
                         SELECT p.dim, p.value_id, e.sign * p.visitors, e.sign * p.quotes, e.sign * p.contacts,
                                e.sign * p.offers, e.sign * p.contracts, e.sign * p.commission_cents
                           FROM unnest($1::date[], $4::float8[]) AS e(day, sign)
                           JOIN tracking.report_running_pending p
                             ON p.day <= e.day AND p.day >= date_trunc('month', e.day)::date AND p.dim = ANY($3::smallint[])
                         UNION ALL
                         SELECT dim, value_id, visits, quotes, contacts, offers, contracts, commission_cents
                           FROM tracking.monthly_dims WHERE month = ANY($2::date[]) AND dim = ANY($3::smallint[])) r
                  GROUP BY dim, value_id
                 -- A value active only outside the period's loose days nets to nothing there.
                 HAVING sum(visitors) <> 0 OR sum(quotes) <> 0 OR sum(contacts) <> 0 OR sum(offers) <> 0
                     OR sum(contracts) <> 0 OR sum(commission_cents) <> 0) x
           JOIN tracking.dim_values v ON v.id = x.value_id`,
        [edgeDays, months, [DIMS.channel, DIMS.campaign], edgeSigns],
      ),
      pool.query<{ quotes: string; contacts: string; offers: string; contracts: string; commission: string }>(
        `SELECT coalesce(sum(quotes), 0) AS quotes, coalesce(sum(contacts), 0) AS contacts,
                coalesce(sum(offers), 0) AS offers, coalesce(sum(contracts), 0) AS contracts,
                coalesce(sum(commission_cents), 0) AS commission
           FROM (SELECT quotes, contacts, offers, contracts, commission_cents FROM tracking.daily WHERE day = ANY($1::date[])
                 UNION ALL
                 SELECT quotes, contacts, offers, contracts, commission_cents FROM tracking.monthly WHERE month = ANY($2::date[])) x`,
        [days, months],
      ),
    ]);
    const campaigns: PeriodCounts["campaigns"] = new Map();
    const channels: PeriodCounts["channels"] = new Map();
    for (const row of dims.rows) {
      if (row.dim === DIMS.campaign) {
        const [source, medium, campaign] = JSON.parse(row.value) as [string, string, string];
        // The stored value is keyOf's own JSON (breakdowns.ts campaignValue): the key as it is.
        campaigns.set(row.value, { source, medium, campaign, counts: asCounts(row) });
      } else if ((ANALYTICS_CHANNELS as readonly string[]).includes(row.value)) {
        channels.set(row.value as AnalyticsChannel, asCounts(row));
      }
    }
    // Spend per platform and utm_campaign. Every campaign a visit had comes by name (its row may
    // be among the first named, whatever its spend); of the spend no visit had, only the most spent
    // (the only ones that can be named: such a row has no quote requests or visits to rank it
    // higher), the rest summed per platform. So what is read into memory is bounded by the period's
    // visited campaigns, however much spend is stored.
    const visited = [...new Set([...campaigns.values()].map((c) => c.campaign))];
    const spend = await pool.query<{
      platform: AdPlatform;
      utm_campaign: string | null;
      cents: string;
      campaigns: string;
    }>(
      `WITH s AS (
         SELECT s.platform, coalesce(l.utm_campaign, s.campaign) AS utm_campaign, sum(s.cents) AS cents
           FROM (SELECT platform, campaign, sum(spend_cents) AS cents
                   FROM (SELECT r.platform, r.campaign, e.sign * r.spend_cents AS spend_cents
                           FROM unnest($1::date[], $3::float8[]) AS e(day, sign)
                           JOIN tracking.ad_spend_running r ON r.day = e.day
                         UNION ALL
                         -- Changes not compacted yet count at every edge of their month from their day on.
                         SELECT p.platform, p.campaign, e.sign * p.spend_cents
                           FROM unnest($1::date[], $3::float8[]) AS e(day, sign)
                           JOIN tracking.ad_spend_running_pending p
                             ON p.day <= e.day AND p.day >= date_trunc('month', e.day)::date
                         UNION ALL
                         SELECT platform, campaign, spend_cents FROM tracking.ad_spend_monthly WHERE month = ANY($2::date[])) r
                  GROUP BY platform, campaign
                 HAVING sum(spend_cents) <> 0) s
           LEFT JOIN tracking.spend_links l ON l.platform = s.platform AND l.campaign = s.campaign
          GROUP BY s.platform, coalesce(l.utm_campaign, s.campaign)
       ), v AS (SELECT DISTINCT unnest($4::text[]) AS name),
       unvisited AS (SELECT s.* FROM s WHERE NOT EXISTS (SELECT 1 FROM v WHERE v.name = s.utm_campaign)),
       -- A top-N sort (LIMIT), not a sort of them all; ties in byte order, not the collation's.
       top AS (SELECT * FROM unvisited ORDER BY cents DESC, platform, utm_campaign COLLATE "C" LIMIT $5)
       SELECT s.platform, s.utm_campaign, s.cents, 1 AS campaigns FROM s JOIN v ON v.name = s.utm_campaign
       UNION ALL
       SELECT platform, utm_campaign, cents, 1 FROM top
       UNION ALL
       SELECT u.platform, NULL, sum(u.cents), count(*) FROM unvisited u
        WHERE NOT EXISTS (SELECT 1 FROM top t WHERE t.platform = u.platform AND t.utm_campaign = u.utm_campaign)
        GROUP BY u.platform`,
      [edgeDays, months, edgeSigns, visited, CAMPAIGN_REPORT_ROWS_MAX],
    );
    const listed = spend.rows.filter((s) => s.utm_campaign !== null);
    const spendRows = spend.rows.map((s) => ({
      platform: s.platform,
      utmCampaign: s.utm_campaign ?? "",
      cents: Number(s.cents),
    }));
    assignSpend(
      campaigns,
      listed.map((s) => ({ platform: s.platform, utmCampaign: s.utm_campaign!, cents: Number(s.cents) })),
    );
    const unlisted = spend.rows
      .filter((s) => s.utm_campaign === null)
      .reduce(
        (sum, s) => ({
          campaigns: sum.campaigns + Number(s.campaigns),
          spendCents: sum.spendCents + Number(s.cents),
        }),
        { campaigns: 0, spendCents: 0 },
      );
    for (const s of spendRows) {
      const channel = PLATFORM_CHANNEL[s.platform];
      channels.set(channel, {
        ...(channels.get(channel) ?? ZERO),
        spendCents: (channels.get(channel)?.spendCents ?? 0) + s.cents,
      });
    }
    const visits = [...channels.values()].reduce((sum, c) => sum + c.visitors, 0);
    const spent = spendRows.reduce((sum, s) => sum + s.cents, 0);
    const t = totals.rows[0]!;
    return {
      campaigns,
      unlisted,
      channels,
      totals: { ...asCounts({ ...t, visitors: visits }), spendCents: spent },
    };
  }

  return {
    async report(period: Period): Promise<CampaignReport> {
      const before = previousPeriod(period);
      const [now, prev] = await Promise.all([read(period), read(before)]);
      // The answer names the campaigns that weigh most and sums the rest as one row, so its size
      // (and the panel's table) is bounded however many campaigns were visited or paid for.
      const ranked = [...now.campaigns.entries()].sort(([, a], [, b]) => byWeight(a.counts, b.counts));
      const named = ranked.slice(0, CAMPAIGN_REPORT_ROWS_MAX);
      const rest = ranked.slice(CAMPAIGN_REPORT_ROWS_MAX);
      const rows = named.map(([key, row]) => {
        const earlier = prev.campaigns.get(key);
        return {
          source: row.source,
          medium: row.medium,
          campaign: row.campaign,
          ...figuresOf(row.counts),
          previous: earlier ? figuresOf(earlier.counts) : null,
        };
      });
      const shown = new Set(named.map(([key]) => key));
      const earlierRest = [...prev.campaigns.entries()].filter(([key]) => !shown.has(key));
      const summed = (rows: [string, { counts: Counts }][], unlisted: PeriodCounts["unlisted"]) => {
        const counts = sumCounts(rows.map(([, row]) => row.counts));
        return {
          campaigns: rows.length + unlisted.campaigns,
          counts: { ...counts, spendCents: counts.spendCents + unlisted.spendCents },
        };
      };
      const restNow = summed(rest, now.unlisted);
      const restBefore = summed(earlierRest, prev.unlisted);
      const others =
        restNow.campaigns === 0
          ? null
          : {
              campaigns: restNow.campaigns,
              ...figuresOf(restNow.counts),
              previous: restBefore.campaigns ? figuresOf(restBefore.counts) : null,
            };
      const channels = [...now.channels.entries()]
        .map(([channel, counts]) => {
          const earlier = prev.channels.get(channel);
          return { channel, ...figuresOf(counts), previous: earlier ? figuresOf(earlier) : null };
        })
        .sort((a, b) => b.spend - a.spend || b.leads - a.leads || b.visitors - a.visitors);
      return {
        from: period.from,
        to: period.to,
        previousFrom: before.from,
        previousTo: before.to,
        cohort: true,
        rows,
        others,
        channels,
        totals: figuresOf(now.totals),
        previousTotals: figuresOf(prev.totals),
      };
    },
  };
}
export type CampaignReportReader = ReturnType<typeof campaignReportReader>;
