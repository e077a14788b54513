import { z } from "zod";
import { CalendarDate, Uuid } from "../entities/common";
import { JobSource } from "../jobs/source";
import { AnalyticsChannel } from "./tracking";

// How the promises are kept, over time (services/leads/README.md, "The response report"): the
// quote requests and contact messages of a period, per Amsterdam week, owner, channel, campaign and
// kind, with the time to their first response in working and in clock minutes and the share
// answered within the promise.

/** The longest period the report reads: two years (a leap day included). */
export const RESPONSE_REPORT_DAYS_MAX = 731;

/** Days from `from` to `to`, both inclusive ("YYYY-MM-DD" each). */
export const daysInPeriod = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

export const ResponseReportQuery = z
  .object({
    from: CalendarDate.describe("First day (Europe/Amsterdam), inclusive"),
    to: CalendarDate.describe("Last day, inclusive; at most today"),
  })
  .refine((q) => q.from <= q.to, { error: "De begindatum ligt na de einddatum", path: ["from"] })
  .refine((q) => daysInPeriod(q.from, q.to) <= RESPONSE_REPORT_DAYS_MAX, {
    error: `Kies een periode van hoogstens twee jaar (${RESPONSE_REPORT_DAYS_MAX} dagen)`,
    path: ["from"],
  });
export type ResponseReportQuery = z.infer<typeof ResponseReportQuery>;

const count = z.number().int().min(0);
const minutes = z.number().int().min(0).nullable();

export const ResponseFigures = z.object({
  leads: count.describe("Quote requests received"),
  answered: count.describe(
    "Of those, answered (a first response: e-mail, call that reached them, gereageerd)",
  ),
  unanswered: count.describe("Never answered (so far): leads − answered"),
  withinPromise: count.describe("Answered no later than their deadline"),
  late: count.describe("Answered after their deadline, or not answered and past it"),
  withinPromiseShare: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe(
      "withinPromise ÷ (withinPromise + late): leads still within their deadline and leads from before deadlines are left out; null when none is decided",
    ),
  medianMinutes: minutes.describe(
    "Median working minutes from arrival to the first response (null: none answered)",
  ),
  p90Minutes: minutes.describe("90th percentile of the working minutes to the first response"),
  medianClockMinutes: minutes.describe("Median clock minutes from arrival to the first response"),
  p90ClockMinutes: minutes.describe("90th percentile of the clock minutes to the first response"),
});
export type ResponseFigures = z.infer<typeof ResponseFigures>;

export const ResponseReportWeek = ResponseFigures.extend({
  week: CalendarDate.describe("The Monday of the Amsterdam week (ISO week)"),
  isoWeek: z.number().int().min(1).max(53).describe("ISO week number"),
});
export type ResponseReportWeek = z.infer<typeof ResponseReportWeek>;

export const ResponseReportOwner = ResponseFigures.extend({
  owner: z
    .object({ id: Uuid, username: z.string() })
    .nullable()
    .describe("The lead's owner now; null: nobody"),
});
export type ResponseReportOwner = z.infer<typeof ResponseReportOwner>;

export const ResponseReportChannel = ResponseFigures.extend({
  channel: AnalyticsChannel.nullable().describe("The visit's channel; null: no known visit"),
});
export type ResponseReportChannel = z.infer<typeof ResponseReportChannel>;

/** Campaigns the report names at most (most leads first). */
export const RESPONSE_REPORT_CAMPAIGNS_MAX = 100;

export const ResponseReportCampaign = ResponseFigures.extend({
  campaign: z.string().describe("utm_campaign of the visit"),
});
export type ResponseReportCampaign = z.infer<typeof ResponseReportCampaign>;

/** What the panel and the CSV call each kind. */
export const RESPONSE_KIND_LABELS: Record<JobSource, string> = {
  lease_request: "Lease aanvragen",
  contact_form: "Contactberichten",
};

export const ResponseReportKind = ResponseFigures.extend({
  kind: JobSource.describe("lease_request: quote requests; contact_form: contact messages"),
});
export type ResponseReportKind = z.infer<typeof ResponseReportKind>;

export const ResponseReport = z
  .object({
    from: CalendarDate,
    to: CalendarDate,
    weeks: z
      .array(ResponseReportWeek)
      .describe("Every Amsterdam week that overlaps the period, oldest first"),
    owners: z.array(ResponseReportOwner).describe("Per owner, most leads first"),
    channels: z.array(ResponseReportChannel).describe("Per channel, most leads first"),
    campaigns: z
      .array(ResponseReportCampaign)
      .max(RESPONSE_REPORT_CAMPAIGNS_MAX)
      .describe(
        `Per campaign (leads with a utm_campaign), most leads first: at most ${RESPONSE_REPORT_CAMPAIGNS_MAX}`,
      ),
    otherCampaigns: z
      .object({ campaigns: count, leads: count })
      .nullable()
      .describe("The campaigns beyond `campaigns`: how many and their leads; null when none"),
    kinds: z
      .array(ResponseReportKind)
      .describe("Quote requests and contact messages apart, each against its own promise (both always)"),
    totals: ResponseFigures,
  })
  .describe(
    "How the promised response times were kept for the quote requests and contact messages of the period",
  );
export type ResponseReport = z.infer<typeof ResponseReport>;

/**
 * A duration in minutes as the panel writes it: "45 min", "2 u 15 min", "3 u", "1 d 4 u"
 * (from a day on, whole hours).
 */
export function dutchDuration(minutes: number): string {
  const total = Math.max(0, Math.round(minutes));
  if (total < 60) return `${total} min`;
  if (total < 24 * 60) {
    const h = Math.floor(total / 60);
    const m = total % 60;
    return m === 0 ? `${h} u` : `${h} u ${m} min`;
  }
  const hours = Math.round(total / 60);
  const d = Math.floor(hours / 24);
  const h = hours % 24;
  return h === 0 ? `${d} d` : `${d} d ${h} u`;
}
