import { describe, expect, it } from "vitest";
import { campaignValue, NO_MEDIUM } from "./breakdowns";
import { ZERO, assignSpend, keyOf, type CampaignKey, type Counts } from "./campaign-report";

type Row = CampaignKey & { counts: Counts };
const row = (source: string, medium: string, campaign: string, counts: Partial<Counts> = {}): Row => ({
  source,
  medium,
  campaign,
  counts: { ...ZERO, ...counts },
});
const table = (...rows: Row[]) => new Map(rows.map((r) => [keyOf(r), r]));

describe("keyOf", () => {
  // The report keys its rows by the stored breakdown value as it is, without parsing it back.
  it("is the stored campaign value itself, for any text the landing URL may carry", () => {
    for (const [source, medium, campaign] of [
      ["facebook", "paid_social", "lente"],
      ["", "", "zonder bron"],
      ["google", "cpc", 'najaar "2026" / actie'],
      ["tiktok", "paid", "ëxtra\\ünïcode ✓ \u2028"],
    ] as const) {
      const stored = campaignValue(source, medium, campaign);
      const [s, m, c] = JSON.parse(stored) as [string, string, string];
      expect(keyOf({ source: s, medium: m, campaign: c })).toBe(stored);
    }
  });
});

describe("assignSpend", () => {
  it("puts spend on the platform's row of its campaign with the most quote requests, then visits", () => {
    const rows = table(
      row("facebook", "paid_social", "lente", { leads: 1, visitors: 50 }),
      row("instagram", "paid_social", "lente", { leads: 3, visitors: 10 }),
      row("google", "cpc", "lente", { leads: 9, visitors: 500 }),
      row("fb", "paid", "lente", { leads: 3, visitors: 20 }),
    );
    assignSpend(rows, [
      { platform: "meta", utmCampaign: "lente", cents: 30_000 },
      { platform: "meta", utmCampaign: "lente", cents: 125 },
      { platform: "google", utmCampaign: "lente", cents: 700 },
    ]);
    const spend = Object.fromEntries([...rows.values()].map((r) => [r.source, r.counts.spendCents]));
    expect(spend).toEqual({ facebook: 0, instagram: 0, google: 700, fb: 30_125 });
  });

  it("gives spend without visits a row of its own, once, and leaves ZERO untouched", () => {
    const rows = table(row("facebook", "paid_social", "lente", { leads: 2 }));
    assignSpend(rows, [
      { platform: "tiktok", utmCampaign: "alleen-uitgaven", cents: 400 },
      { platform: "tiktok", utmCampaign: "alleen-uitgaven", cents: 600 },
      { platform: "snapchat", utmCampaign: "alleen-uitgaven", cents: 50 },
    ]);
    expect(ZERO.spendCents).toBe(0);
    expect(
      [...rows.values()].map((r) => [r.source, r.medium, r.campaign, r.counts.spendCents, r.counts.leads]),
    ).toEqual([
      ["facebook", "paid_social", "lente", 0, 2],
      ["tiktok", NO_MEDIUM, "alleen-uitgaven", 1000, 0],
      ["snapchat", NO_MEDIUM, "alleen-uitgaven", 50, 0],
    ]);
  });
});
