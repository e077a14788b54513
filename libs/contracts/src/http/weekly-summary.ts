import { z } from "zod";
import { CalendarDate, IsoDateTime, Uuid } from "../entities/common";
import { ResponseFigures } from "./response-report";
import { ResponseBasis } from "./response-settings";

// The weekly summary e-mail (Monday 08:00 Amsterdam time, to every admin who chose it in "Mijn
// account"): leads works out the figures, the mailer writes and sends the e-mail.

/** The figures of a set of no quote requests (an admin without leads in the week). */
export const NO_RESPONSE_FIGURES: ResponseFigures = Object.freeze({
  leads: 0,
  answered: 0,
  unanswered: 0,
  withinPromise: 0,
  late: 0,
  withinPromiseShare: null,
  medianMinutes: null,
  p90Minutes: null,
  medianClockMinutes: null,
  p90ClockMinutes: null,
});

/** An ISO week, "2026-W13": Monday to Sunday in Amsterdam. */
export const IsoWeek = z.string().regex(/^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$/, {
  error: "Geef de week op als JJJJ-Www, bijvoorbeeld 2026-W13",
});
export type IsoWeek = z.infer<typeof IsoWeek>;

export const WeeklySummaryQuery = z.object({ week: IsoWeek });
export type WeeklySummaryQuery = z.infer<typeof WeeklySummaryQuery>;

/** The admin's open leads the e-mail lists at most (the count says how many there are in all). */
export const WEEKLY_SUMMARY_LEADS_MAX = 10;

export const WeeklySummaryLead = z.object({
  source: z.enum(["lease_request", "contact_form"]),
  id: Uuid,
  name: z.string().describe("What the panel's list names it by: the company (else the e-mail) or the sender"),
  receivedAt: IsoDateTime,
  responseDueAt: IsoDateTime.nullable(),
  answered: z.boolean().describe("Has had its first response"),
  overdue: z.boolean().describe("Past its deadline without a response"),
});
export type WeeklySummaryLead = z.infer<typeof WeeklySummaryLead>;

/** leads → mailer: one admin's figures for one week (GET /internal/staff/{id}/weekly-summary). */
export const InternalWeeklySummary = z.object({
  week: IsoWeek,
  from: CalendarDate.describe("The week's Monday (Amsterdam)"),
  to: CalendarDate.describe("The week's Sunday"),
  promise: z.object({ quoteMinutes: z.number().int().min(1), quoteBasis: ResponseBasis }),
  totals: ResponseFigures.describe(
    "Every quote request and contact message of the week (the response report's totals)",
  ),
  own: ResponseFigures.describe("The admin's own quote requests and contact messages of the week"),
  open: z.object({
    total: z.number().int().min(0).describe("The admin's open leads now (lease requests and messages)"),
    late: z.number().int().min(0).describe("Of those, waiting past their deadline"),
    leads: z
      .array(WeeklySummaryLead)
      .max(WEEKLY_SUMMARY_LEADS_MAX)
      .describe("Late ones first, then by deadline, then the oldest"),
  }),
});
export type InternalWeeklySummary = z.infer<typeof InternalWeeklySummary>;
