import { z } from "zod";
import { AnalyticsChannel, CalendarDate } from "./tracking";

export const CampaignReportQuery = z
  .object({
    from: CalendarDate.describe("First day (Europe/Amsterdam), inclusive"),
    to: CalendarDate.describe("Last day, inclusive; at most today"),
  })
  .refine((q) => q.from <= q.to, { error: "De begindatum ligt na de einddatum", path: ["from"] });
export type CampaignReportQuery = z.infer<typeof CampaignReportQuery>;

const count = z.number().int().min(0);
const ratio = z.number().nullable();

export const CampaignFigures = z.object({
  spend: z.number().describe("Euros spent on the ads in the period"),
  visitors: count.describe("Visits (visitor-days) that landed with it"),
  leads: count.describe("Quote requests"),
  contacts: count.describe("Contact messages"),
  offers: count.describe("Quote requests of the period that got an offer (also when lost or signed since)"),
  contracts: count.describe("Quote requests of the period that were signed"),
  commission: z.number().describe("Euros of commission of those contracts"),
  leadRate: ratio.describe("Quote requests per 100 visits (null without visits)"),
  offerRate: ratio.describe("Offers per 100 quote requests"),
  contractRate: ratio.describe("Contracts per 100 offers"),
  costPerLead: ratio.describe("Spend ÷ quote requests, euros (null without quote requests or without spend)"),
  costPerContract: ratio.describe("Spend ÷ contracts, euros (null without contracts or without spend)"),
  roas: ratio.describe("Return on ad spend: commission ÷ spend (null without spend)"),
});
export type CampaignFigures = z.infer<typeof CampaignFigures>;

export const CampaignReportRow = CampaignFigures.extend({
  source: z.string().describe('utm_source, "(direct)" when none'),
  medium: z.string().describe('utm_medium, "(geen)" when none'),
  campaign: z.string().describe("utm_campaign (a spend campaign's link or name)"),
  previous: CampaignFigures.nullable().describe("The same row in the previous period (null: not there)"),
});
export type CampaignReportRow = z.infer<typeof CampaignReportRow>;

/** Campaigns the report names at most, most spent first; the rest are summed as one row. */
export const CAMPAIGN_REPORT_ROWS_MAX = 100;

export const OtherCampaignsRow = CampaignFigures.extend({
  campaigns: count.describe("How many campaigns it sums"),
  previous: CampaignFigures.nullable().describe("The same campaigns in the previous period"),
}).describe(`The campaigns beyond the first ${CAMPAIGN_REPORT_ROWS_MAX}, summed ("Overige campagnes")`);
export type OtherCampaignsRow = z.infer<typeof OtherCampaignsRow>;

export const ChannelReportRow = CampaignFigures.extend({
  channel: AnalyticsChannel,
  previous: CampaignFigures.nullable(),
});
export type ChannelReportRow = z.infer<typeof ChannelReportRow>;

export const CampaignReport = z
  .object({
    from: CalendarDate,
    to: CalendarDate,
    previousFrom: CalendarDate.describe("The previous period of the same length, compared with"),
    previousTo: CalendarDate,
    cohort: z
      .literal(true)
      .describe("Offers, contracts and commission count in the period their quote request arrived"),
    rows: z
      .array(CampaignReportRow)
      .max(CAMPAIGN_REPORT_ROWS_MAX)
      .describe(
        `Per source / medium / campaign, most spent first (then most quote requests, visits): at most ${CAMPAIGN_REPORT_ROWS_MAX}`,
      ),
    others: OtherCampaignsRow.nullable().describe(
      "The campaigns beyond `rows`, summed; null when there are none",
    ),
    channels: z.array(ChannelReportRow).describe("Per channel"),
    totals: CampaignFigures.describe("The whole site, leads without a known visit included"),
    previousTotals: CampaignFigures,
  })
  .describe("What each campaign cost and brought in the period");
export type CampaignReport = z.infer<typeof CampaignReport>;
