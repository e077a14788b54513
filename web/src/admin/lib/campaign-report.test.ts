import { describe, expect, it } from "vitest";
import type { CampaignFigures, CampaignReport } from "@lease/contracts";
import { FIGURE_COLUMNS, KEY_FIGURES, SCREEN_COLUMNS, campaignReportCsv, sortRows } from "./campaign-report";

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

describe("the campaign report in the panel", () => {
  it("writes the figures in Dutch: € 1.200,00, 33,3%, ROAS 4,0", () => {
    const format = Object.fromEntries(FIGURE_COLUMNS.map((c) => [c.key, c.format]));
    expect(format.commission!(1200)).toBe("€ 1.200,00");
    expect(format.offerRate!(33.3)).toBe("33,3%");
    expect(format.roas!(4)).toBe("4,0");
    expect(format.costPerContract!(null)).toBe("-");
  });

  it("shows every figure once, the money a marketer comes for first", () => {
    expect(SCREEN_COLUMNS.map((c) => c.key).sort()).toEqual(FIGURE_COLUMNS.map((c) => c.key).sort());
    expect(SCREEN_COLUMNS.slice(0, KEY_FIGURES.length).map((c) => c.key)).toEqual([
      "spend",
      "leads",
      "contracts",
      "costPerLead",
      "costPerContract",
      "roas",
    ]);
  });

  it("sorts on a figure with empty ratios last", () => {
    const rows = [
      figures({ roas: null, leads: 1 }),
      figures({ roas: 4, leads: 3 }),
      figures({ roas: 0.5, leads: 2 }),
    ];
    expect(sortRows(rows, "roas", true).map((r) => r.roas)).toEqual([4, 0.5, null]);
    expect(sortRows(rows, "leads", false).map((r) => r.leads)).toEqual([1, 2, 3]);
  });

  it("downloads as Dutch CSV with a totals line, text cells that cannot be formulas", () => {
    const report = {
      rows: [
        {
          source: "facebook",
          medium: "paid_social",
          campaign: "=lente",
          previous: null,
          ...figures({ spend: 300, leads: 3, roas: 4 }),
        },
      ],
      others: { campaigns: 1234, previous: null, ...figures({ spend: 0.5 }) },
      totals: figures({ spend: 300.5, leads: 3, roas: 4 }),
    } as unknown as CampaignReport;
    const [header, row, others, total] = campaignReportCsv(report).slice(1).split("\r\n");
    expect(header).toMatch(/^"Bron";"Medium";"Campagne";"Kosten";"Bezoeken";"Aanvragen";/);
    expect(row).toMatch(/^"facebook";"paid_social";"'=lente";"300";"0";"3";/);
    expect(others).toMatch(/^"Overige campagnes \(1\.234\)";"";"";"0,5";/);
    expect(total).toMatch(/^"Totaal";"";"";"300,5";/);
  });
});
