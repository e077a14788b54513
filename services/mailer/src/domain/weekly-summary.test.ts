import { describe, expect, it } from "vitest";
import {
  NO_RESPONSE_FIGURES,
  type CampaignFigures,
  type CampaignReport,
  type InternalWeeklySummary,
} from "@lease/contracts";
import { cheapestCampaigns, renderWeeklySummary, type WeeklyCampaigns } from "./weekly-summary";

const none = NO_RESPONSE_FIGURES;
const summary = (over: Partial<InternalWeeklySummary> = {}): InternalWeeklySummary => ({
  week: "2026-W43",
  from: "2026-10-19",
  to: "2026-10-25",
  promise: { quoteMinutes: 240, quoteBasis: "working" },
  totals: none,
  own: none,
  open: { total: 0, late: 0, leads: [] },
  ...over,
});
const render = (s: InternalWeeklySummary, campaigns: WeeklyCampaigns, links = true) =>
  renderWeeklySummary({
    username: "alice",
    summary: s,
    campaigns,
    leadLink: (_source, id) =>
      links ? `https://lease.example.nl/admin?tab=aanvragen&lead=${id}` : undefined,
    tabLink: (tab) => (links ? `https://lease.example.nl/admin?tab=${tab}` : undefined),
  });

const figures = (over: Partial<CampaignFigures>): CampaignFigures => ({
  spend: 0,
  visitors: 0,
  leads: 0,
  contacts: 0,
  offers: 0,
  contracts: 0,
  commission: 0,
  leadRate: null,
  offerRate: null,
  contractRate: null,
  costPerLead: null,
  costPerContract: null,
  roas: null,
  ...over,
});
const report = (rows: CampaignReport["rows"], spend: number): CampaignReport => ({
  from: "2026-10-19",
  to: "2026-10-25",
  previousFrom: "2026-10-12",
  previousTo: "2026-10-18",
  cohort: true,
  rows,
  others: null,
  channels: [],
  totals: figures({ spend }),
  previousTotals: figures({}),
});
const row = (campaign: string, over: Partial<CampaignFigures>) => ({
  source: "facebook",
  medium: "paid_social",
  campaign,
  previous: null,
  ...figures(over),
});

describe("the weekly summary e-mail's text", () => {
  it("says plainly when there were no leads, no open leads, and no ad spend entered", () => {
    const mail = render(summary(), cheapestCampaigns(report([row("lente", { leads: 2 })], 0)));
    expect(mail.subject).toBe("Weekoverzicht week 43: 0 aanvragen, 0 openstaande leads te laat");
    expect(mail.text).toContain("week 43 (19 oktober 2026 t/m 25 oktober 2026)");
    expect(mail.text).toContain("Alle aanvragen\nGeen aanvragen.");
    expect(mail.text).toContain("Je hebt geen openstaande leads.");
    expect(mail.text).toContain(
      "Voor deze week zijn geen advertentiekosten ingevoerd, dus de kosten per aanvraag en per contract zijn niet te berekenen.",
    );
  });

  it("measures in working hours when the promise does, and says when the campaign report was unavailable", () => {
    const totals = {
      ...none,
      leads: 3,
      answered: 3,
      withinPromise: 2,
      late: 1,
      withinPromiseShare: 2 / 3,
      medianMinutes: 90,
      p90Minutes: 300,
      medianClockMinutes: 2000,
      p90ClockMinutes: 4000,
    };
    const mail = render(summary({ totals }), cheapestCampaigns(null));
    expect(mail.text).toContain(
      [
        "Aanvragen: 3, beantwoord: 3, nooit beantwoord: 0",
        "Binnen de belofte van 4 uur (werkuren): 67% (2 van 3)",
        "Reactietijd: mediaan 1 u 30 min, 90% binnen 5 u (werkuren)",
      ].join("\n"),
    );
    expect(mail.text).toContain("De campagnecijfers konden nu niet worden opgehaald");
  });

  it("picks the lowest cost per lead and per contract among campaigns with spend, and says when none brought one", () => {
    const rows = [
      row("duur", { spend: 500, leads: 2, costPerLead: 250 }),
      row("goedkoop", { spend: 100, leads: 4, costPerLead: 25 }),
      row("gratis", { spend: 0, leads: 9 }),
      row("midden", { spend: 200, leads: 2, costPerLead: 100 }),
      row("nog een", { spend: 300, leads: 1, costPerLead: 300 }),
    ];
    const campaigns = cheapestCampaigns(report(rows, 1100));
    expect(campaigns.kind === "figures" && campaigns.perLead.map((r) => r.campaign)).toEqual([
      "goedkoop",
      "midden",
      "duur",
    ]);
    const text = render(summary(), campaigns).text;
    expect(text).toContain("- goedkoop (facebook / paid_social): € 25,00 per aanvraag (€ 100,00 uitgegeven)");
    expect(text).toContain(
      "Laagste kosten per contract:\n- Nog geen campagne met advertentiekosten bracht een contract uit de aanvragen van deze week.",
    );
  });

  it("escapes names in the HTML part and leaves out links when the panel's address is unknown", () => {
    const lead = {
      source: "lease_request" as const,
      id: "5e1c0000-0000-4000-8000-000000000001",
      name: "<b>Bad</b> & Co",
      receivedAt: "2026-10-20T08:00:00.000Z",
      responseDueAt: "2026-10-21T08:00:00.000Z",
      answered: false,
      overdue: true,
    };
    const s = summary({ open: { total: 12, late: 1, leads: [lead] } });
    const linked = render(s, { kind: "no-spend" });
    expect(linked.html).toContain("&lt;b&gt;Bad&lt;/b&gt; &amp; Co");
    expect(linked.html).not.toContain("<b>Bad</b>");
    expect(linked.text).toContain(
      "Te laat: <b>Bad</b> & Co (lease aanvraag, reageren moest vóór 21 oktober 2026 om 10:00): https://lease.example.nl/admin?tab=aanvragen&lead=5e1c0000-0000-4000-8000-000000000001",
    );
    expect(linked.text).toContain(
      "En nog 11 meer in Lease Aanvragen: https://lease.example.nl/admin?tab=aanvragen",
    );
    const unlinked = render(s, { kind: "no-spend" }, false);
    expect(unlinked.text).not.toContain("http");
    expect(unlinked.html).not.toContain("href");
    expect(unlinked.text).toContain(
      "Te laat: <b>Bad</b> & Co (lease aanvraag, reageren moest vóór 21 oktober 2026 om 10:00)\n",
    );
  });
});
