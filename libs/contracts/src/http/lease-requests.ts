import { z } from "zod";
import { emptyToUndefined, hasControlChars, withUrlScheme } from "../entities/common";
import {
  CONTRACT_TERM_MAX,
  EURO_AMOUNT_MAX,
  LEAD_STAGES,
  LeaseRequest,
  LeaseStatus,
  LeaseTerm,
  LostReason,
} from "../entities/lease-request";
import { AnalyticsChannel, FormSessionId } from "./tracking";
import { FormMarketing } from "./marketing";
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
    ...FormMarketing,
  })
  .describe("Quote request from the public form");
export type CreateLeaseRequestBody = z.infer<typeof CreateLeaseRequestBody>;
export type CreateLeaseRequestInput = z.input<typeof CreateLeaseRequestBody>;

export const CreateLeaseRequestResponse = z
  .object({
    id: z.uuid(),
    eventId: z
      .uuid()
      .optional()
      .describe(
        "With marketing consent: the event id the page's pixel Lead event uses (the server's is the same)",
      ),
  })
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
  status: z
    .preprocess(emptyToUndefined, LeaseStatus.optional())
    .describe(
      "The requests with that status badge: nieuw = nieuw and unread; bekeken = bekeken, or nieuw and read; gereageerd",
    ),
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
  owner: z
    .preprocess(
      emptyToUndefined,
      z
        .union([z.literal("me"), z.literal("none"), z.uuid()], {
          error: "owner is me, none of het id van een beheerder",
        })
        .optional(),
    )
    .describe("me: the signed-in admin's leads (Mijn aanvragen); none: nobody's; or an admin's id"),
  sort: z
    .preprocess(
      emptyToUndefined,
      z.enum(["newest", "urgency"], { error: "sort is newest of urgency" }).optional(),
    )
    .describe(
      "newest (default); urgency: waiting leads by deadline (late ones first), then the rest newest first",
    ),
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
  owner: true,
  q: true,
  status: true,
  followUp: true,
  channel: true,
  campaign: true,
});
export type LeaseRequestExportQuery = z.infer<typeof LeaseRequestExportQuery>;

const count = (what: string) => z.number().int().min(0).default(0).describe(what);

export const LeaseRequestCounts = z
  .object({
    unread: z.number().int().min(0).describe("Not opened yet (whatever the status)"),
    nieuw: count('With the red "Nieuw" badge: status nieuw and not opened'),
    bekeken: z
      .number()
      .int()
      .min(0)
      .describe('With the yellow "Bekeken" badge: status bekeken, or nieuw and already opened'),
    gereageerd: z.number().int().min(0).describe("Status gereageerd"),
    offerte: count("Status offerte: an offer sent"),
    getekend: count("Status getekend: a contract signed"),
    verloren: count("Status verloren"),
    total: z
      .number()
      .int()
      .min(0)
      .describe("All requests: the sum of the six badge counts (nieuw to verloren)"),
    followUpDue: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe("Requests to follow up today or earlier (Amsterdam days)"),
    waiting: count('"Wachten op reactie": open requests with a deadline and no first response yet'),
    overdue: count('"Te laat": of those, the ones past their deadline'),
  })
  .describe("Counters over ALL requests, whatever the filter");
export type LeaseRequestCounts = z.infer<typeof LeaseRequestCounts>;

export const LeaseRequestListResponse = z.object({
  items: z.array(LeaseRequest).describe("Newest first (sort=urgency: by deadline)"),
  total: z.number().int().min(0).describe("Number of requests matching the filter"),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  counts: LeaseRequestCounts,
});
export type LeaseRequestListResponse = z.infer<typeof LeaseRequestListResponse>;

/**
 * At most two decimals, allowing for binary fractions (349.5, 0.1 + 0.2), and never an amount that
 * rounds to 0 cents without being 0: 1e-9 is within the tolerance but would be stored as €0.
 */
export function hasCents(euros: number): boolean {
  const cents = Math.round(euros * 100);
  return Math.abs(cents - euros * 100) < 1e-6 && (cents !== 0 || euros === 0);
}

/** Euros as stored: whole cents. */
export const toCents = (euros: number): number => Math.round(euros * 100);
/** Stored cents back to the API's euros (null stays null). */
export const centsToEuros = (cents: number | null): number | null => (cents === null ? null : cents / 100);

/**
 * An amount in euros: a JSON number of whole cents (two decimals at most; checked first, so 1e-9
 * reads "hoogstens twee decimalen"), then at least 0 (or above 0) as stored, in cents.
 */
function euros(what: string, { positive = false } = {}) {
  const What = `${what[0]!.toUpperCase()}${what.slice(1)}`;
  return z
    .number({ error: `Vul ${what} in euro's in (een getal, bijvoorbeeld 349.5)` })
    .refine(hasCents, { error: `Gebruik voor ${what} hoogstens twee decimalen`, abort: true })
    .refine((n) => (positive ? toCents(n) > 0 : toCents(n) >= 0), {
      error: `${What} moet ${positive ? "groter dan 0" : "0 of meer"} zijn`,
    })
    .refine((n) => n <= EURO_AMOUNT_MAX, { error: `${What} is te groot` });
}

const isRead = z.boolean({ error: "isRead moet true of false zijn" }).optional();

/**
 * "Fase terugzetten": the stage the admin saw and confirmed to leave, with what it held. Without it a
 * lead in a stage does not go back to nieuw, bekeken or gereageerd (409), so a status button from a
 * stale screen never drops an offer or a contract.
 */
const moveBackFrom = z
  .enum(LEAD_STAGES, { error: "moveBackFrom moet offerte, getekend of verloren zijn" })
  .optional()
  .describe(
    "Moving back a stage: the lead's current stage (offerte, getekend, verloren) as confirmed by the admin. Required to go from a stage to nieuw, bekeken or gereageerd; 409 when the lead is not (or no longer) in that stage",
  );

export const UpdateLeaseStatusBody = z
  .discriminatedUnion(
    "status",
    [
      z.strictObject({ status: z.enum(["nieuw", "bekeken", "gereageerd"]), isRead, moveBackFrom }),
      z.strictObject({
        status: z.literal("offerte"),
        monthlyAmount: euros("het maandbedrag", { positive: true }).describe("Euros a month of the offer"),
        isRead,
        moveBackFrom,
      }),
      z.strictObject({
        status: z.literal("getekend"),
        commission: euros("de commissie").describe("The broker's commission in euros (required)"),
        monthlyAmount: euros("het maandbedrag", { positive: true }).optional(),
        term: z
          .number({ error: "De looptijd moet een aantal maanden zijn" })
          .int({ error: "De looptijd moet een heel aantal maanden zijn" })
          .min(1, { error: "De looptijd moet minstens 1 maand zijn" })
          .max(CONTRACT_TERM_MAX, { error: `De looptijd mag hoogstens ${CONTRACT_TERM_MAX} maanden zijn` })
          .optional()
          .describe("Months of the contract"),
        isRead,
      }),
      z.strictObject({
        status: z.literal("verloren"),
        lostReason: LostReason,
        note: z
          .string({ error: "De toelichting moet tekst zijn" })
          .trim()
          .max(1000, { error: "De toelichting mag hoogstens 1.000 tekens zijn" })
          .refine((note) => !hasControlChars(note.replace(/[\r\n\t]/g, "")), {
            error: "De toelichting bevat een ongeldig teken",
          })
          .optional()
          .transform((note) => note || undefined),
        isRead,
      }),
    ],
    { error: "Kies een geldige status: nieuw, bekeken, gereageerd, offerte, getekend of verloren" },
  )
  .describe(
    "A new status; offerte needs monthlyAmount, getekend needs commission (monthlyAmount and term optional), verloren needs lostReason (note optional). Amounts are euros with at most two decimals. isRead defaults to true. From a stage back to nieuw, bekeken or gereageerd only with moveBackFrom (the stage confirmed to leave).",
  );
export type UpdateLeaseStatusBody = z.infer<typeof UpdateLeaseStatusBody>;
export type UpdateLeaseStatusInput = z.input<typeof UpdateLeaseStatusBody>;

export const LeaseRequestIdParam = z.object({ id: z.uuid({ error: "Ongeldig id" }) });
export type LeaseRequestIdParam = z.infer<typeof LeaseRequestIdParam>;
