import { z } from "zod";
import { CalendarDate, IsoDateTime, hasControlChars } from "../entities/common";

/**
 * With analytics consent the web generates `session-${random base36}-${Date.now()}` and keeps it in
 * local storage; without consent it sends no id and the server derives one (services/tracking README).
 */
export const SESSION_ID_REGEX = /^session-[A-Za-z0-9]+-\d{10,16}$/;
/** Local-storage key under which the browser keeps its session id. */
export const VISITOR_SESSION_STORAGE_KEY = "visitor-session";

export const SessionId = z
  .string({ error: "sessionId is verplicht" })
  .max(100, { error: "sessionId mag hoogstens 100 tekens zijn" })
  .regex(SESSION_ID_REGEX, { error: "sessionId heeft niet de vorm session-<letters en cijfers>-<tijdstip>" });
export type SessionId = z.infer<typeof SessionId>;

/**
 * The visitor session a form was sent from, as the browser keeps it with analytics consent; left
 * out without consent (the form is accepted all the same and counted as an unattributed conversion).
 */
export const FormSessionId = SessionId.optional().describe(
  "The visitor's session id (analytics consent only): the lead is attributed to that visit",
);

export const TrackVisitBody = z
  .strictObject({
    sessionId: SessionId.optional().describe(
      "The visitor's id with analytics consent; left out without it (the server then derives a daily-rotating one)",
    ),
    page: z
      .string()
      .max(512)
      .startsWith("/")
      .refine((page) => !hasControlChars(page), { error: "Ongeldig pad" })
      .describe('Path of the page, starting with "/"'),
    referrer: z
      .string()
      .max(1024)
      .refine((referrer) => !hasControlChars(referrer), { error: "Ongeldige referrer" })
      .optional()
      .describe("document.referrer; may be empty"),
    consented: z
      .literal(true, { error: "consented is true of weggelaten" })
      .optional()
      .describe(
        "The visit's landing page sent again, with the new session id, at the moment analytics consent was given: it gives the session that page's landing page, referrer and campaign, and is not counted as a page view again",
      ),
  })
  .refine((visit) => !visit.consented || visit.sessionId !== undefined, {
    error: "Een bezoek met consented hoort bij een sessionId",
    path: ["sessionId"],
  })
  .describe("Sent on load and on every history change; answered 204 No Content");
export type TrackVisitBody = z.infer<typeof TrackVisitBody>;

export const TrackHeartbeatBody = z
  .object({ sessionId: SessionId.optional().describe("As in the visit: left out without analytics consent") })
  .describe("Sent every 30 seconds; answered 204 No Content");
export type TrackHeartbeatBody = z.infer<typeof TrackHeartbeatBody>;

export const VISITOR_SERIES_RANGES = ["24h", "7d", "30d"] as const;
export const VisitorSeriesRange = z.enum(VISITOR_SERIES_RANGES, {
  error: `range moet een van ${VISITOR_SERIES_RANGES.join(", ")} zijn`,
});
export type VisitorSeriesRange = z.infer<typeof VisitorSeriesRange>;

export const VisitorSeriesQuery = z.object({ range: VisitorSeriesRange.default("24h") });
export type VisitorSeriesQuery = z.infer<typeof VisitorSeriesQuery>;

/** The panel's page of active visitors; the live push carries the first page. */
export const ACTIVE_VISITORS_PAGE = 25;
/** At most this many active visitors in one answer. */
export const ACTIVE_VISITORS_LIMIT_MAX = 200;
/** Response header of GET /api/admin/active-visitors: how many are active, whatever the page. */
export const ACTIVE_VISITORS_TOTAL_HEADER = "x-total-count";

export const ActiveVisitorsQuery = z.object({
  offset: z.coerce
    .number({ error: "offset moet een getal zijn" })
    .int({ error: "offset moet een geheel getal zijn" })
    .min(0, { error: "offset mag niet negatief zijn" })
    // The live set holds at most 50,000 sessions (tracking's ACTIVE_SESSIONS_MAX).
    .max(50_000, { error: "offset mag hoogstens 50000 zijn" })
    .default(0)
    .describe("How many of the most recently seen to skip"),
  limit: z.coerce
    .number({ error: "limit moet een getal zijn" })
    .int({ error: "limit moet een geheel getal zijn" })
    .min(1, { error: "limit moet minstens 1 zijn" })
    .max(ACTIVE_VISITORS_LIMIT_MAX, { error: `limit mag hoogstens ${ACTIVE_VISITORS_LIMIT_MAX} zijn` })
    .default(ACTIVE_VISITORS_LIMIT_MAX),
});
export type ActiveVisitorsQuery = z.infer<typeof ActiveVisitorsQuery>;

export const VisitorSeriesBucket = z.object({
  start: IsoDateTime,
  visitors: z.number().int().min(0).describe("Distinct sessions in the bucket"),
  pageViews: z.number().int().min(0),
});
export type VisitorSeriesBucket = z.infer<typeof VisitorSeriesBucket>;

export const VisitorSeries = z
  .object({ range: VisitorSeriesRange, buckets: z.array(VisitorSeriesBucket) })
  .describe("Hourly buckets for 24h, daily buckets for 7d and 30d, oldest first");
export type VisitorSeries = z.infer<typeof VisitorSeries>;

/** A calendar day in Europe/Amsterdam, "YYYY-MM-DD" (the one date schema of the API). */
export { CalendarDate };

export const ANALYTICS_CHANNELS = [
  "Direct",
  "Organic Search",
  "Paid Search",
  "Organic Social",
  "Paid Social",
  "Email",
  "Referral",
  "Other",
] as const;
export const AnalyticsChannel = z.enum(ANALYTICS_CHANNELS);
export type AnalyticsChannel = z.infer<typeof AnalyticsChannel>;

/**
 * The channels' Dutch names, wherever people read them (the panel, the CSV export). The API and
 * the stored attribution keep GA4's names above as stable keys.
 */
export const ANALYTICS_CHANNEL_LABELS: Readonly<Record<AnalyticsChannel, string>> = {
  Direct: "Direct",
  "Organic Search": "Organisch zoeken",
  "Paid Search": "Betaald zoeken",
  "Organic Social": "Organisch sociaal",
  "Paid Social": "Betaald sociaal",
  Email: "E-mail",
  Referral: "Verwijzing",
  Other: "Overig",
};

/** A channel's Dutch name; an unknown value as it is. */
export function channelLabel(channel: string): string {
  return ANALYTICS_CHANNEL_LABELS[channel as AnalyticsChannel] ?? channel;
}

/** At most this many characters in a UTM value (longer ones are never stored, see the tracking README). */
export const UTM_VALUE_MAX = 100;

/** A filter value from the query string: one value (not repeated), bounded, no control characters. */
const filterText = (name: string, max: number) =>
  z
    .string({ error: `Geef ${name} één keer op` })
    .min(1, { error: `${name} mag niet leeg zijn` })
    .max(max, { error: `${name} mag hoogstens ${max} tekens zijn` })
    .refine((value) => !hasControlChars(value), { error: `${name} bevat ongeldige tekens` });

/**
 * Narrows an analytics read to the visits that match every filter given. A visit is one session on
 * one Amsterdam day; its channel, campaign and landing page are those of its first page view that day.
 */
export const AnalyticsFilter = z.object({
  channel: z
    .enum(ANALYTICS_CHANNELS, {
      error: `Onbekend kanaal; kies een van ${ANALYTICS_CHANNELS.join(", ")}`,
    })
    .optional()
    .describe("Only visits of this channel"),
  campaign: filterText("campaign", UTM_VALUE_MAX)
    .optional()
    .describe(
      "Only visits of this utm_campaign (any source and medium unless campaignSource/campaignMedium narrow it)",
    ),
  campaignSource: filterText("campaignSource", UTM_VALUE_MAX)
    .optional()
    .describe(
      'With campaign: only its visits of this source, as in the campaign row ("(direct)" without one)',
    ),
  campaignMedium: filterText("campaignMedium", UTM_VALUE_MAX)
    .optional()
    .describe('With campaign: only its visits of this medium, as in the campaign row ("(geen)" without one)'),
  page: filterText("page", 512)
    .refine((page) => page.startsWith("/") && !/[?#]/.test(page), {
      error: "page is het pad van een landingspagina: begint met / en zonder ? of #",
    })
    .optional()
    .describe("Only visits that landed on this page (path without query string)"),
});
export type AnalyticsFilter = z.infer<typeof AnalyticsFilter>;

/** The query parameters of a filter, in the order the admin panel writes them. */
export const ANALYTICS_FILTER_KEYS = [
  "channel",
  "campaign",
  "campaignSource",
  "campaignMedium",
  "page",
] as const;

export const AnalyticsQuery = z
  .object({
    from: CalendarDate.describe("First day of the period (Europe/Amsterdam), inclusive"),
    to: CalendarDate.describe("Last day of the period, inclusive; at most today"),
    ...AnalyticsFilter.shape,
  })
  .refine((q) => q.from <= q.to, { error: "De begindatum ligt na de einddatum", path: ["from"] })
  .refine(
    (q) => q.campaign !== undefined || (q.campaignSource === undefined && q.campaignMedium === undefined),
    {
      error: "campaignSource en campaignMedium horen bij een campaign; geef ook campaign op",
      path: ["campaign"],
    },
  );
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

/** Whether a query narrows the read to some visits. */
export function isFiltered(q: AnalyticsFilter): boolean {
  return ANALYTICS_FILTER_KEYS.some((key) => q[key] !== undefined);
}

export const ANALYTICS_BUCKETS = ["hour", "day", "month"] as const;
export const AnalyticsBucket = z
  .enum(ANALYTICS_BUCKETS)
  .describe("hour for periods of up to 2 days, day up to 92 days, month beyond");
export type AnalyticsBucket = z.infer<typeof AnalyticsBucket>;

const Count = z.number().int().min(0);

export const AnalyticsPoint = z.object({
  start: IsoDateTime.describe("Start of the bucket (the period's start for a partial first month)"),
  visitors: Count.describe(
    "Distinct sessions in the bucket: exact for hours and days, within 2 % for months; under a filter a month's figure is the sum of its days' (visits)",
  ),
  pageViews: Count,
});
export type AnalyticsPoint = z.infer<typeof AnalyticsPoint>;

export const AnalyticsTopPage = z.object({
  page: z.string(),
  views: Count,
  visitors: Count.describe(
    "Distinct sessions that viewed the page in the period (estimate, 1.6 % standard error)",
  ),
});
export type AnalyticsTopPage = z.infer<typeof AnalyticsTopPage>;

/** Conversions of a period or breakdown value: quote requests and contact messages apart. */
const Conversions = {
  quotes: Count.describe("Quote requests sent from these visits"),
  contacts: Count.describe("Contact messages sent from these visits"),
  conversions: Count.describe("quotes + contacts"),
  conversionRate: z
    .number()
    .min(0)
    .nullable()
    .describe("conversions / visitors in percent, rounded to 0.1; null without visitors"),
};

export const AnalyticsBreakdownRow = z.object({
  value: z.string().describe('The channel, source, landing page, country ("(onbekend)" when unknown) ...'),
  visitors: Count.describe(
    "Distinct sessions of the period with this value (estimate, 3.3 % standard error, never above the period's visitors, the value's visits or its page views); under a filter the sum of each day's distinct sessions (visits), exact",
  ),
  pageViews: Count.describe("Page views of those visits"),
  ...Conversions,
});
export type AnalyticsBreakdownRow = z.infer<typeof AnalyticsBreakdownRow>;

export const AnalyticsCampaignRow = AnalyticsBreakdownRow.extend({
  source: z.string(),
  medium: z.string(),
  campaign: z.string(),
});
export type AnalyticsCampaignRow = z.infer<typeof AnalyticsCampaignRow>;

const Totals = z.object({
  visitors: Count.describe(
    "Distinct sessions in the period: exact for one day, within 2 % beyond (never below its largest day nor above the sum of its days); under a filter the sum of each day's distinct sessions (visits: a session on three days counts three times)",
  ),
  pageViews: Count,
  ...Conversions,
});

export const Analytics = z
  .object({
    from: CalendarDate,
    to: CalendarDate,
    bucket: AnalyticsBucket,
    totals: Totals,
    series: z.array(AnalyticsPoint).describe("Every bucket of the period up to now, oldest first"),
    topPages: z
      .array(AnalyticsTopPage)
      .describe(
        "The 10 most viewed pages of the period; empty under a filter (page views per page are not kept per visit: see landingPages)",
      ),
    previous: z
      .object({ from: CalendarDate, to: CalendarDate, totals: Totals })
      .describe("The period of the same length just before, for comparison"),
    change: z
      .object({
        visitors: z.number().nullable(),
        pageViews: z.number().nullable(),
        conversions: z.number().nullable(),
      })
      .describe("Change against the previous period in percent, rounded to 0.1; null when it had none"),
    unattributed: z
      .object({ quotes: Count, contacts: Count })
      .describe(
        "Quote requests and contact messages of the period without a known visit (sent without analytics consent, or from a visit not recorded): in the totals, under no channel, source, page, country, device or browser; 0 under a filter",
      ),
    channels: z.array(AnalyticsBreakdownRow).describe("Every channel of the period, most visitors first"),
    sources: z
      .array(AnalyticsBreakdownRow)
      .describe('utm_source, else the referrer host, else "(direct)"; top 10'),
    campaigns: z.array(AnalyticsCampaignRow).describe("utm_source / utm_medium / utm_campaign; top 10"),
    landingPages: z.array(AnalyticsBreakdownRow).describe("The first page of each visit; top 10"),
    countries: z
      .array(AnalyticsBreakdownRow)
      .describe("From the visitor's address at the visit (not stored); top 10"),
    devices: z.array(AnalyticsBreakdownRow).describe("desktop, mobile, tablet"),
    browsers: z.array(AnalyticsBreakdownRow).describe("top 10"),
  })
  .describe(
    "Visitors and page views for any period, with breakdowns, from rollups; with a filter (channel, campaign, page) every figure, the previous period's included, counts only the matching visits",
  );
export type Analytics = z.infer<typeof Analytics>;
