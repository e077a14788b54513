import { z } from "zod";
import { emptyToUndefined, hasControlChars, withUrlScheme } from "../entities/common";
import { LeaseRequest, LeaseStatus, LeaseTerm } from "../entities/lease-request";
import { AnalyticsChannel, FormSessionId } from "./tracking";
import { CAR_URL_MESSAGE, emailAddress, honeypot, httpUrl, optionalField, phoneNumber, text } from "./fields";

export { REQUIRED_FIELDS_MESSAGE } from "./fields";

/** Select values arrive as strings ("48"); a whole-number string becomes a number. */
function numericString(value: unknown): unknown {
  return typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
}

export const CreateLeaseRequestBody = z
  .strictObject({
    carUrl: z
      .preprocess(withUrlScheme, httpUrl(CAR_URL_MESSAGE))
      .describe("Absolute http(s) URL of the car, at most 2048 characters; a bare host name gets https://"),
    contactNumber: phoneNumber(),
    email: emailAddress(),
    companyName: optionalField(text(200)),
    leaseTerm: optionalField(z.preprocess(numericString, LeaseTerm)).describe("Months: 24, 36, 48 or 60"),
    message: optionalField(text(5000)),
    website: honeypot(),
    sessionId: FormSessionId,
  })
  .describe("Quote request from the public form");
export type CreateLeaseRequestBody = z.infer<typeof CreateLeaseRequestBody>;
export type CreateLeaseRequestInput = z.input<typeof CreateLeaseRequestBody>;

export const CreateLeaseRequestResponse = z
  .object({ id: z.uuid() })
  .describe("201 Created: the request is stored and will be followed up");
export type CreateLeaseRequestResponse = z.infer<typeof CreateLeaseRequestResponse>;

export const LeaseRequestListQuery = z.object({
  q: z
    .preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .max(200, { error: "De zoekterm mag hoogstens 200 tekens zijn" })
        .refine((q) => !q.includes("\0"), { error: "De zoekterm bevat een ongeldig teken" })
        .optional(),
    )
    .describe("Search in e-mail, company name, contact number and car URL"),
  status: z.preprocess(emptyToUndefined, LeaseStatus.optional()),
  channel: z
    .preprocess(
      emptyToUndefined,
      z
        .enum(AnalyticsChannel.options, { error: `Kies een kanaal: ${AnalyticsChannel.options.join(", ")}` })
        .optional(),
    )
    .describe("Only requests whose visit came through this channel"),
  campaign: z
    .preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .max(100, { error: "De campagne mag hoogstens 100 tekens zijn" })
        .refine((c) => !hasControlChars(c), { error: "De campagne bevat een ongeldig teken" })
        .optional(),
    )
    .describe("Only requests whose visit came from this utm_campaign (exact)"),
  followUp: z
    .preprocess(
      emptyToUndefined,
      z.enum(["vandaag"], { error: "followUp kan alleen vandaag zijn" }).optional(),
    )
    .describe("vandaag: only requests to follow up today or earlier (overdue ones included)"),
  page: z.coerce
    .number({ error: "page moet een getal zijn" })
    .int({ error: "page moet een geheel getal zijn" })
    .min(1, { error: "page moet minstens 1 zijn" })
    .default(1),
  pageSize: z.coerce
    .number({ error: "pageSize moet een getal zijn" })
    .int({ error: "pageSize moet een geheel getal zijn" })
    .min(1, { error: "pageSize moet minstens 1 zijn" })
    .max(200, { error: "pageSize mag hoogstens 200 zijn" })
    .default(50),
});
export type LeaseRequestListQuery = z.infer<typeof LeaseRequestListQuery>;

/** The CSV export takes the list's filters (search, status, channel, campaign), not its paging. */
export const LeaseRequestExportQuery = LeaseRequestListQuery.pick({
  q: true,
  status: true,
  followUp: true,
  channel: true,
  campaign: true,
});
export type LeaseRequestExportQuery = z.infer<typeof LeaseRequestExportQuery>;

export const LeaseRequestCounts = z
  .object({
    unread: z.number().int().min(0),
    bekeken: z.number().int().min(0),
    gereageerd: z.number().int().min(0),
    total: z.number().int().min(0),
    followUpDue: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe("Requests to follow up today or earlier (Amsterdam days)"),
  })
  .describe("Counters over ALL requests, whatever the filter");
export type LeaseRequestCounts = z.infer<typeof LeaseRequestCounts>;

export const LeaseRequestListResponse = z.object({
  items: z.array(LeaseRequest).describe("Newest first"),
  total: z.number().int().min(0).describe("Number of requests matching the filter"),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  counts: LeaseRequestCounts,
});
export type LeaseRequestListResponse = z.infer<typeof LeaseRequestListResponse>;

export const UpdateLeaseStatusBody = z.strictObject({
  status: LeaseStatus,
  isRead: z.boolean(),
});
export type UpdateLeaseStatusBody = z.infer<typeof UpdateLeaseStatusBody>;

export const LeaseRequestIdParam = z.object({ id: z.uuid({ error: "Ongeldig id" }) });
export type LeaseRequestIdParam = z.infer<typeof LeaseRequestIdParam>;
