import {
  ANALYTICS_CHANNELS,
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
  figuresOf,
  keyOf,
  type CampaignKey,
  type Counts,
} from "../domain/campaign-report";
import { coverOf, previousPeriod, type Period } from "../domain/periods";

interface PeriodCounts {
  campaigns: Map<string, CampaignKey & { counts: Counts }>;
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
 * The campaign report from tracking's own rollups: visits, quote requests and contact messages,
 * and the leads' later stages (offers, contracts, commission: counted on the day the lead arrived,
 * so a contract counts in its lead's period), per campaign and channel, with the platforms' spend
 * set against them. A period is read as whole months plus loose days; no raw row is read.
 */
export function campaignReportReader(pool: Pool) {
  async function read(period: Period): Promise<PeriodCounts> {
    const { months, days } = coverOf(period);
    const [dims, totals, spend] = await Promise.all([
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
        // Summed per value id first, then named: the join reads one row per value, not per day.
        `SELECT x.dim, v.value, x.visitors, x.quotes, x.contacts, x.offers, x.contracts, x.commission
           FROM (SELECT dim, value_id, sum(visitors) AS visitors, sum(quotes) AS quotes, sum(contacts) AS contacts,
                        sum(offers) AS offers, sum(contracts) AS contracts, sum(commission_cents) AS commission
                   FROM (SELECT dim, value_id, visitors, quotes, contacts, offers, contracts, commission_cents
                           FROM tracking.daily_dims WHERE day = ANY($1::date[]) AND dim = ANY($3::smallint[])
                         UNION ALL
                         SELECT dim, value_id, visits, quotes, contacts, offers, contracts, commission_cents
                           FROM tracking.monthly_dims WHERE month = ANY($2::date[]) AND dim = ANY($3::smallint[])) r
                  GROUP BY dim, value_id) x
           JOIN tracking.dim_values v ON v.id = x.value_id`,
        [days, months, [DIMS.channel, DIMS.campaign]],
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
      pool.query<{ platform: AdPlatform; utm_campaign: string; cents: string }>(
        `SELECT s.platform, coalesce(l.utm_campaign, s.campaign) AS utm_campaign, sum(s.cents) AS cents
           FROM (SELECT platform, campaign, sum(spend_cents) AS cents
                   FROM (SELECT platform, campaign, spend_cents FROM tracking.ad_spend WHERE day = ANY($1::date[])
                         UNION ALL
                         SELECT platform, campaign, spend_cents FROM tracking.ad_spend_monthly WHERE month = ANY($2::date[])) r
                  GROUP BY platform, campaign) s
           LEFT JOIN tracking.spend_links l ON l.platform = s.platform AND l.campaign = s.campaign
          GROUP BY s.platform, coalesce(l.utm_campaign, s.campaign)`,
        [days, months],
      ),
    ]);
    const campaigns: PeriodCounts["campaigns"] = new Map();
    const channels: PeriodCounts["channels"] = new Map();
    for (const row of dims.rows) {
      if (row.dim === DIMS.campaign) {
        const [source, medium, campaign] = JSON.parse(row.value) as [string, string, string];
        const key = { source, medium, campaign };
        campaigns.set(keyOf(key), { ...key, counts: asCounts(row) });
      } else if ((ANALYTICS_CHANNELS as readonly string[]).includes(row.value)) {
        channels.set(row.value as AnalyticsChannel, asCounts(row));
      }
    }
    const spendRows = spend.rows.map((s) => ({
      platform: s.platform,
      utmCampaign: s.utm_campaign,
      cents: Number(s.cents),
    }));
    assignSpend(campaigns, spendRows);
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
    return { campaigns, channels, totals: { ...asCounts({ ...t, visitors: visits }), spendCents: spent } };
  }

  return {
    async report(period: Period): Promise<CampaignReport> {
      const before = previousPeriod(period);
      const [now, prev] = await Promise.all([read(period), read(before)]);
      const rows = [...now.campaigns.values()]
        .map((row) => {
          const earlier = prev.campaigns.get(keyOf(row));
          return {
            source: row.source,
            medium: row.medium,
            campaign: row.campaign,
            ...figuresOf(row.counts),
            previous: earlier ? figuresOf(earlier.counts) : null,
          };
        })
        .sort((a, b) => b.spend - a.spend || b.leads - a.leads || b.visitors - a.visitors);
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
        channels,
        totals: figuresOf(now.totals),
        previousTotals: figuresOf(prev.totals),
      };
    },
  };
}
export type CampaignReportReader = ReturnType<typeof campaignReportReader>;
