import { z } from "zod";
import { IsoDateTime, Uuid } from "../entities/common";
import { emailAddress } from "./fields";

// People's data (AVG): everything held about one e-mail address, found, exported as one JSON file
// and erased on request. The gateway asks leads, mailer and tracking over /internal/privacy/*; each
// service reads and erases its own tables and the finished jobs of the queue it consumes.
// The address travels in request bodies only (POST), never in a URL, so no access log holds it.

/** The address, trimmed and lower-cased: every match is case-insensitive on it. */
export const PrivacyEmail = emailAddress().transform((email) => email.toLowerCase());

export const PrivacySearchBody = z.strictObject({ email: PrivacyEmail });
export type PrivacySearchBody = z.infer<typeof PrivacySearchBody>;

/** What the erasure body must carry besides the address: the admin confirmed it in a dialog. */
export const PRIVACY_ERASE_CONFIRMATION = "WISSEN";

export const PrivacyEraseBody = z.strictObject({
  email: PrivacyEmail,
  confirm: z.literal(PRIVACY_ERASE_CONFIRMATION, {
    error: `Bevestig het wissen met confirm: "${PRIVACY_ERASE_CONFIRMATION}"`,
  }),
});
export type PrivacyEraseBody = z.infer<typeof PrivacyEraseBody>;

/**
 * The kinds of data held about a person, in the order the panel lists them. The leads' outbox
 * rows (jobs not yet handed on) are technical: erased with the person's leads, never shown.
 */
export const PRIVACY_KINDS = [
  "leaseRequests",
  "contactMessages",
  "notes",
  "statusChanges",
  "inboxEmails",
  "sentEmails",
  "conversions",
] as const;
export const PrivacyKind = z.enum(PRIVACY_KINDS);
export type PrivacyKind = z.infer<typeof PrivacyKind>;

/** What the panel shows for each kind (and the headings of the export). */
export const PRIVACY_KIND_LABELS: Record<PrivacyKind, string> = {
  leaseRequests: "Offerteaanvragen",
  contactMessages: "Contactberichten",
  notes: "Notities",
  statusChanges: "Statuswijzigingen",
  inboxEmails: "Ontvangen e-mails (van de persoon)",
  sentEmails: "Verzonden e-mails (aan de persoon of over de aanvragen)",
  conversions: "Bezoekherkomst van de aanvragen",
};

export const PrivacyKindSummary = z.object({
  kind: PrivacyKind,
  count: z.number().int().min(0),
  first: IsoDateTime.nullable().describe("The oldest row's date (null when none)"),
  last: IsoDateTime.nullable().describe("The newest row's date (null when none)"),
});
export type PrivacyKindSummary = z.infer<typeof PrivacyKindSummary>;

export const PrivacySummary = z
  .object({ total: z.number().int().min(0), kinds: z.array(PrivacyKindSummary) })
  .describe("How much is held about the address, per kind");
export type PrivacySummary = z.infer<typeof PrivacySummary>;

/** One stored row as its service holds it (column names as in its table), between the services. */
export const PrivacyRecord = z.record(z.string(), z.unknown());
export type PrivacyRecord = z.infer<typeof PrivacyRecord>;

/** One entry of the export: Dutch field names, values as a person reads them. */
export const PrivacyDocumentEntry = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));
export type PrivacyDocumentEntry = z.infer<typeof PrivacyDocumentEntry>;

/**
 * The export: a document about the person, in Dutch, dates as "28 november 2026 14:03"
 * (Amsterdam time). Their requests, messages, e-mails, notes, status changes and the visits their
 * requests came from; internal ids, hashes and queue rows are left out (the explanation says so).
 */
export const PrivacyExport = z
  .object({
    Persoonsgegevens: z.string().describe("The address the document is about"),
    "Opgesteld op": z.string(),
    Toelichting: z.string(),
    Offerteaanvragen: z.array(PrivacyDocumentEntry),
    Contactberichten: z.array(PrivacyDocumentEntry),
    "E-mails": z.array(PrivacyDocumentEntry),
    Notities: z.array(PrivacyDocumentEntry),
    Statuswijzigingen: z.array(PrivacyDocumentEntry),
    Bezoekherkomst: z.array(PrivacyDocumentEntry),
  })
  .describe("Everything held about the address, as a document for the person (Dutch)");
export type PrivacyExport = z.infer<typeof PrivacyExport>;

export const PrivacyErasure = z
  .object({
    removed: z
      .record(z.string(), z.number().int().min(0))
      .describe(
        "Rows removed per kind (also `outbox`: unpublished job rows, `jobs`: queue jobs, `mentions`: other rows where the address became [gewist], `auditEntries`: audit log entries that named the address or a lead)",
      ),
    total: z.number().int().min(0),
  })
  .describe("What this erasure removed; a repeat removes nothing more and answers zeros");
export type PrivacyErasure = z.infer<typeof PrivacyErasure>;

// Service to service (/internal/privacy/find and /erase on leads, mailer and tracking).

export const PRIVACY_LEAD_IDS_MAX = 10_000;

export const InternalPrivacyRequest = z.strictObject({
  email: PrivacyEmail,
  /** The person's lease requests and contact messages (leads answers them first). */
  leadIds: z.array(Uuid).max(PRIVACY_LEAD_IDS_MAX).default([]),
});
export type InternalPrivacyRequest = z.infer<typeof InternalPrivacyRequest>;

export const InternalPrivacyFound = z.record(z.string(), z.array(PrivacyRecord));
export type InternalPrivacyFound = z.infer<typeof InternalPrivacyFound>;

export const InternalPrivacyErased = z.record(z.string(), z.number().int().min(0));
export type InternalPrivacyErased = z.infer<typeof InternalPrivacyErased>;

/**
 * The privacy policy's retention for quote requests, contact messages and the e-mails about them
 * ("1 jaar na ontvangst", /privacy-beleid): the default of LEAD_RETENTION_DAYS (leads) and
 * MAIL_RETENTION_DAYS (mailer). Change the page with it.
 */
export const PRIVACY_RETENTION_DAYS = 365;
