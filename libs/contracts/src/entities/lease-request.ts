import { z } from "zod";
import { CalendarDate, IsoDateTime, Uuid } from "./common";
import { AnalyticsChannel } from "../http/tracking";
import { ConversionDelivery } from "../http/conversions";

/**
 * The seed's statuses (nieuw, bekeken, gereageerd; docs/glossary.md) and the lead's road to a contract after
 * them: an offer sent (offerte), a contract signed (getekend), or lost (verloren).
 */
export const LEASE_STATUSES = ["nieuw", "bekeken", "gereageerd", "offerte", "getekend", "verloren"] as const;
export const LeaseStatus = z.enum(LEASE_STATUSES, { error: "Kies een geldige status" });
export type LeaseStatus = z.infer<typeof LeaseStatus>;

/** Why a lead was lost: a fixed list, in the panel's Dutch. */
export const LOST_REASONS = [
  "te duur",
  "geen reactie",
  "elders getekend",
  "niet kredietwaardig",
  "anders",
] as const;
export const LostReason = z.enum(LOST_REASONS, {
  error: "Kies een reden: te duur, geen reactie, elders getekend, niet kredietwaardig of anders",
});
export type LostReason = z.infer<typeof LostReason>;

/** The stages after the seed's statuses: the lead's road to a contract. */
export const LEAD_STAGES = ["offerte", "getekend", "verloren"] as const satisfies readonly LeaseStatus[];

/** Each status by the name the panel's stage form gives it (and the API's messages about stages). */
export const LEASE_STATUS_NAMES: Record<LeaseStatus, string> = {
  nieuw: "Nieuw",
  bekeken: "Bekeken",
  gereageerd: "Gereageerd",
  offerte: "Offerte verstuurd",
  getekend: "Contract getekend",
  verloren: "Verloren",
};

const EURO = new Intl.NumberFormat("nl-NL", { style: "currency", currency: "EUR" });
/** "€ 1.200,00": whole cents in Dutch notation (a normal space after the sign). */
export function euroText(cents: number): string {
  return EURO.format(cents / 100).replace(/\u00a0/g, " ");
}

/** A contract's term in months, at most ten years. */
export const CONTRACT_TERM_MAX = 120;
/** The largest amount taken, in euros (a typo guard, far above any lease or commission). */
export const EURO_AMOUNT_MAX = 10_000_000;

export const LeadOwner = z
  .object({ id: Uuid, username: z.string() })
  .describe("The admin who answers the lead (one active admin)");
export type LeadOwner = z.infer<typeof LeadOwner>;

/** What the first response to a lead was: an e-mail sent from the panel, a call that reached them, or the status. */
export const FIRST_RESPONSE_KINDS = ["email", "call", "status"] as const;
export const FirstResponseKind = z.enum(FIRST_RESPONSE_KINDS);
export type FirstResponseKind = z.infer<typeof FirstResponseKind>;

/** A lead's owner and first response, against the promise (lease requests and contact messages alike). */
export const LeadResponseFields = z.object({
  owner: LeadOwner.nullable().default(null).describe("null: nobody yet (assigned by hand)"),
  responseDueAt: IsoDateTime.nullable()
    .default(null)
    .describe("When the promised first response is due; null for leads from before deadlines were kept"),
  firstResponseAt: IsoDateTime.nullable()
    .default(null)
    .describe("The first e-mail sent to the customer, call that reached them, or status gereageerd"),
  firstResponseKind: FirstResponseKind.nullable().default(null),
  overdue: z
    .boolean()
    .default(false)
    .describe("Waiting past its deadline (no first response); an answer after the deadline is not overdue"),
});
export type LeadResponseFields = z.infer<typeof LeadResponseFields>;

/** Terms offered by the quote form, in months. */
export const LEASE_TERMS = [24, 36, 48, 60] as const;
export const LeaseTerm = z.literal(LEASE_TERMS, {
  error: "Kies een looptijd van 24, 36, 48 of 60 maanden",
});
export type LeaseTerm = z.infer<typeof LeaseTerm>;

/** Terms offered by the calculator, in months (one more than the quote form). */
export const CALCULATOR_TERMS = [24, 36, 48, 60, 72] as const;

/** Pages of a visit kept with a lead at most. */
export const ATTRIBUTION_PAGES_MAX = 50;

export const LeadAttribution = z
  .object({
    channel: AnalyticsChannel,
    source: z.string().max(200).describe('utm_source, "" when none'),
    medium: z.string().max(200),
    campaign: z.string().max(200),
    term: z.string().max(200),
    content: z.string().max(200),
    paidClick: z.boolean().describe("The landing URL carried a paid-click id (the id itself is never kept)"),
    referrerHost: z.string().max(300).describe('"" for none'),
    landingPage: z.string().max(600).describe("Path of the visit's first page, without query string"),
    firstSeenAt: IsoDateTime.describe("The visit's first page view"),
    pagesBeforeConversion: z
      .number()
      .int()
      .min(0)
      .describe("Page views of the visit before the form was sent"),
    pages: z
      .array(z.string().max(600))
      .max(ATTRIBUTION_PAGES_MAX)
      .describe(`Those pages in order, the first ${ATTRIBUTION_PAGES_MAX} at most`),
  })
  .describe("Where the visit that sent the form came from: its first page view's acquisition");
export type LeadAttribution = z.infer<typeof LeadAttribution>;

/**
 * Where a lead's attribution stands: `pending` while tracking works it out (the form came with a
 * visitor session id), `found` once it is stored, `no_consent` when the form came without a session
 * id (no analytics consent: there is none to find), `not_found` when tracking found no page view of
 * that session, `unknown` for leads from before this was kept.
 */
export const ATTRIBUTION_STATUSES = ["pending", "found", "no_consent", "not_found", "unknown"] as const;
export const AttributionStatus = z.enum(ATTRIBUTION_STATUSES);
export type AttributionStatus = z.infer<typeof AttributionStatus>;

export const LeaseRequest = z
  .object({
    id: Uuid,
    carUrl: z.string(),
    contactNumber: z.string(),
    contactNumberE164: z
      .string()
      .nullable()
      .default(null)
      .describe(
        'The phone number as the ad platforms get it (E.164, "+31612345678"); null when it is no valid number, or in the list',
      ),
    email: z.string(),
    companyName: z.string().nullable(),
    leaseTerm: z.number().int().nullable().describe("Months"),
    message: z.string().nullable(),
    status: LeaseStatus,
    isRead: z.boolean(),
    createdAt: IsoDateTime,
    duplicateOf: Uuid.nullable().describe(
      "Id of an earlier request from the same e-mail address or phone number within 90 days",
    ),
    attribution: LeadAttribution.nullable().describe(
      "The visit's origin; null until tracking answered, or when the form came without a session id (no analytics consent) or from a visit not recorded",
    ),
    attributionStatus: AttributionStatus.default("unknown").describe(
      "Whether the attribution is still being worked out, found, or definitively absent (and why)",
    ),
    followUpOn: CalendarDate.nullable()
      .default(null)
      .describe(
        '"Opvolgen op" (YYYY-MM-DD, an Amsterdam day) to follow this request up; null when none is set',
      ),
    monthlyAmount: z
      .number()
      .nullable()
      .default(null)
      .describe("Euros a month of the offer or contract (offerte, getekend); null when none was given"),
    commission: z
      .number()
      .nullable()
      .default(null)
      .describe("The broker's commission in euros of a signed contract (getekend); null otherwise"),
    contractTerm: z
      .number()
      .int()
      .nullable()
      .default(null)
      .describe("Months of the signed contract, if given"),
    lostReason: LostReason.nullable().default(null).describe("Why the lead was lost (verloren)"),
    lostNote: z.string().nullable().default(null).describe("Staff's note on the loss, if any"),
    marketingConsent: z
      .boolean()
      .default(false)
      .describe(
        "The visitor gave marketing consent on the page: only then are its conversions sent to the ad platforms",
      ),
    conversions: z
      .array(ConversionDelivery)
      .default([])
      .describe("Its events sent to the ad platforms (the detail; empty in the list)"),
    emailUndeliverable: z
      .object({ at: IsoDateTime, reason: z.string().nullable() })
      .nullable()
      .default(null)
      .describe(
        "An e-mail to the address bounced or was dropped (SendGrid's Event Webhook): it does not work, call instead; null otherwise",
      ),
    ...LeadResponseFields.shape,
  })
  .describe("A quote request sent from the public lease form");
export type LeaseRequest = z.infer<typeof LeaseRequest>;
