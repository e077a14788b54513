import type { AdPlatform, AnalyticsChannel, CampaignFigures } from "@lease/contracts";
import { NO_MEDIUM } from "./breakdowns";

/** What the rollups hold for a row (amounts in cents). */
export interface Counts {
  spendCents: number;
  visitors: number;
  leads: number;
  contacts: number;
  offers: number;
  contracts: number;
  commissionCents: number;
}

export const ZERO: Counts = {
  spendCents: 0,
  visitors: 0,
  leads: 0,
  contacts: 0,
  offers: 0,
  contracts: 0,
  commissionCents: 0,
};

/** The counts of several rows together. */
export function sumCounts(rows: Iterable<Counts>): Counts {
  const sum = { ...ZERO };
  for (const c of rows) for (const k of Object.keys(sum) as (keyof Counts)[]) sum[k] += c[k];
  return sum;
}

/** The report's order: most spent first, then most quote requests, then most visits. */
export const byWeight = (a: Counts, b: Counts) =>
  b.spendCents - a.spendCents || b.leads - a.leads || b.visitors - a.visitors;

const round2 = (n: number) => Math.round(n * 100) / 100;
const per100 = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

/** The figures of a row: counts, euros, the rates between the stages and what a lead and a contract cost. */
export function figuresOf(c: Counts): CampaignFigures {
  return {
    spend: c.spendCents / 100,
    visitors: c.visitors,
    leads: c.leads,
    contacts: c.contacts,
    offers: c.offers,
    contracts: c.contracts,
    commission: c.commissionCents / 100,
    leadRate: per100(c.leads, c.visitors),
    offerRate: per100(c.offers, c.leads),
    contractRate: per100(c.contracts, c.offers),
    // Without spend the cost is unknown (none imported or linked, or not paid for), not zero.
    costPerLead: c.leads > 0 && c.spendCents > 0 ? round2(c.spendCents / 100 / c.leads) : null,
    costPerContract: c.contracts > 0 && c.spendCents > 0 ? round2(c.spendCents / 100 / c.contracts) : null,
    roas: c.spendCents > 0 ? round2(c.commissionCents / c.spendCents) : null,
  };
}

/** The utm_source values a platform's ads land with (lower case), the first one for spend without visits. */
export const PLATFORM_SOURCES: Record<AdPlatform, readonly string[]> = {
  meta: [
    "facebook",
    "fb",
    "instagram",
    "ig",
    "meta",
    "facebook.com",
    "m.facebook.com",
    "l.facebook.com",
    "instagram.com",
  ],
  tiktok: ["tiktok", "tiktok.com"],
  snapchat: ["snapchat", "snap", "snapchat.com"],
  google: ["google", "adwords", "googleads", "google ads"],
};

/** The channel a platform's paid visits count under. */
export const PLATFORM_CHANNEL: Record<AdPlatform, AnalyticsChannel> = {
  meta: "Paid Social",
  tiktok: "Paid Social",
  snapchat: "Paid Social",
  google: "Paid Search",
};

export interface CampaignKey {
  source: string;
  medium: string;
  campaign: string;
}

export const keyOf = (k: CampaignKey) => JSON.stringify([k.source, k.medium, k.campaign]);

/**
 * Puts each platform's spend on the report row it paid for: the row of its utm_campaign (the
 * spend name's link, else the name itself) whose source is one of the platform's; of several, the
 * one with the most quote requests, then visits. Spend whose campaign no visit had gets a row of
 * its own (the platform's usual source, no medium), so no spend is left out of the totals.
 */
export function assignSpend(
  rows: Map<string, CampaignKey & { counts: Counts }>,
  spend: { platform: AdPlatform; utmCampaign: string; cents: number }[],
): void {
  // The rows by campaign name: each spend looks at its name's few rows, not at all of them.
  const byName = new Map<string, (CampaignKey & { counts: Counts })[]>();
  for (const row of rows.values()) {
    const named = byName.get(row.campaign);
    if (named) named.push(row);
    else byName.set(row.campaign, [row]);
  }
  for (const s of spend) {
    const sources = PLATFORM_SOURCES[s.platform];
    let best: (CampaignKey & { counts: Counts }) | undefined;
    for (const row of byName.get(s.utmCampaign) ?? []) {
      if (!sources.includes(row.source.toLowerCase())) continue;
      if (
        !best ||
        row.counts.leads > best.counts.leads ||
        (row.counts.leads === best.counts.leads && row.counts.visitors > best.counts.visitors)
      )
        best = row;
    }
    if (!best) {
      const key = { source: sources[0]!, medium: NO_MEDIUM, campaign: s.utmCampaign };
      const id = keyOf(key);
      best = rows.get(id);
      if (!best) {
        best = { ...key, counts: { ...ZERO } };
        rows.set(id, best);
        const named = byName.get(key.campaign);
        if (named) named.push(best);
        else byName.set(key.campaign, [best]);
      }
    }
    best.counts.spendCents += s.cents;
  }
}
