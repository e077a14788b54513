import { z } from "zod";
import { IsoDateTime, Uuid } from "../entities/common";

// The audit log (who, what, when), kept two years. The gateway records its own events (sign-ins,
// changes to admin accounts) and those the other services send it on the `audit` queue
// (`audit.record`, libs/contracts/src/jobs): status changes and deletions of lease requests, inbox
// entries deleted, settings saved (which section and fields, never a value), e-mails sent from the
// panel, ad spend imported, typed in or linked (tracking: the platform, campaign and row counts). A target is an id or an admin's username, never a lead's personal data.

export const AUDIT_RETENTION_DAYS = 2 * 365;

export const AUDIT_ACTIONS = [
  "login.success",
  "login.failed",
  "login.code_failed",
  "login.locked",
  "admin.created",
  "admin.disabled",
  "admin.enabled",
  "admin.removed",
  "admin.totp_reset",
  "account.password_changed",
  "account.totp_enabled",
  "account.totp_disabled",
  "lead.status_changed",
  "lead.stage_moved_back",
  "lead.follow_up_changed",
  "lead.note_added",
  "lead.note_edited",
  "lead.note_deleted",
  "lead.deleted",
  "lead.exported",
  "email.deleted",
  "settings.company_changed",
  "settings.email_changed",
  "settings.pixels_changed",
  "settings.theme_changed",
  "settings.google_ads_changed",
  "settings.google_ads_url_rotated",
  "settings.inbound_url_rotated",
  "settings.reply_address_changed",
  "settings.event_webhook_key_set",
  "settings.email_template_created",
  "settings.email_template_changed",
  "settings.email_template_deleted",
  "google_ads.downloaded",
  "ad_spend.imported",
  "ad_spend.entered",
  "ad_spend.linked",
  "email.sent",
  "email.resent",
  "email.cancelled",
  "email.test_sent",
  "privacy.exported",
  "privacy.erased",
  "settings.response_changed",
  "admin.takes_new_leads_changed",
  "account.preferences_changed",
  "lead.owner_changed",
  "lead.call_logged",
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS, { error: "Onbekende actie" });
export type AuditAction = z.infer<typeof AuditAction>;

/** What the panel shows for each action. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "login.success": "Ingelogd",
  "login.failed": "Mislukte inlogpoging",
  "login.code_failed": "Onjuiste tweestapscode",
  "login.locked": "Inloggen geblokkeerd",
  "admin.created": "Beheerder aangemaakt",
  "admin.disabled": "Beheerder uitgeschakeld",
  "admin.enabled": "Beheerder ingeschakeld",
  "admin.removed": "Beheerder verwijderd",
  "admin.totp_reset": "Tweestapsverificatie van beheerder gereset",
  "account.password_changed": "Eigen wachtwoord gewijzigd",
  "account.totp_enabled": "Tweestapsverificatie aangezet",
  "account.totp_disabled": "Tweestapsverificatie uitgezet",
  "lead.status_changed": "Status aanvraag gewijzigd",
  "lead.stage_moved_back": "Fase aanvraag teruggezet",
  "lead.follow_up_changed": "Opvolgdatum gewijzigd",
  "lead.note_added": "Notitie toegevoegd",
  "lead.note_edited": "Notitie gewijzigd",
  "lead.note_deleted": "Notitie verwijderd",
  "lead.deleted": "Aanvraag verwijderd",
  "lead.exported": "Aanvragen geëxporteerd (CSV)",
  "email.deleted": "E-mail uit inbox verwijderd",
  "settings.company_changed": "Bedrijfsgegevens gewijzigd",
  "settings.email_changed": "E-mailinstellingen gewijzigd",
  "settings.pixels_changed": "Pixels gewijzigd",
  "settings.theme_changed": "Thema gewijzigd",
  "settings.google_ads_changed": "Google Ads-conversienamen gewijzigd",
  "settings.google_ads_url_rotated": "Geheime link voor Google Ads vernieuwd",
  "settings.inbound_url_rotated": "Geheime link voor binnenkomende e-mail vernieuwd",
  "settings.reply_address_changed": "Antwoordadres gewijzigd",
  "settings.event_webhook_key_set": "Verificatiesleutel SendGrid Event Webhook ingesteld",
  "settings.email_template_created": "E-mailsjabloon aangemaakt",
  "settings.email_template_changed": "E-mailsjabloon gewijzigd",
  "settings.email_template_deleted": "E-mailsjabloon verwijderd",
  "google_ads.downloaded": "Google Ads-conversiebestand gedownload",
  "ad_spend.imported": "Advertentiekosten ingelezen",
  "ad_spend.entered": "Advertentiekosten van een dag ingevoerd",
  "ad_spend.linked": "Campagne gekoppeld aan utm_campaign",
  "email.sent": "E-mail verstuurd",
  "email.resent": "E-mail opnieuw verstuurd",
  "email.cancelled": "Verzenden e-mail geannuleerd",
  "email.test_sent": "Test-e-mail verstuurd",
  "privacy.exported": "Gegevens van een persoon geëxporteerd",
  "privacy.erased": "Gegevens van een persoon gewist",
  "settings.response_changed": "Reactietermijnen en toewijzing gewijzigd",
  "admin.takes_new_leads_changed": "Nieuwe aanvragen voor beheerder aan- of uitgezet",
  "account.preferences_changed": "Eigen meldingen gewijzigd",
  "lead.owner_changed": "Aanvraag toegewezen",
  "lead.call_logged": "Gesprek vastgelegd",
};

/** Field names a settings entry's detail lists (comma-separated), as the panel shows them. */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  companyName: "bedrijfsnaam",
  mobileAbbreviation: "mobiele afkorting",
  kvkNumber: "KvK-nummer",
  btwNumber: "BTW-nummer",
  address: "adres",
  city: "plaats",
  postalCode: "postcode",
  phoneNumber: "telefoonnummer",
  emailAddress: "e-mailadres",
  website: "website",
  description: "omschrijving",
  sendgridApiKey: "SendGrid API key",
  fromEmailAddress: "afzenderadres",
  notifyCompanyEmail: "melding per e-mail",
  facebookPixelId: "Meta Pixel ID",
  snapchatPixelId: "Snapchat Pixel ID",
  tiktokPixelId: "TikTok Pixel ID",
  googleAdsLeadConversion: "conversienaam aanvraag",
  googleAdsOfferteConversion: "conversienaam offerte",
  googleAdsGetekendConversion: "conversienaam getekend contract",
  primaryColor: "hoofdkleur",
  primaryHover: "hoofdkleur bij aanwijzen",
  accentColor: "accentkleur",
  backgroundGradientStart: "achtergrondverloop begin",
  backgroundGradientEnd: "achtergrondverloop eind",
  textPrimary: "tekstkleur",
  textSecondary: "tweede tekstkleur",
  buttonRadius: "afronding knoppen",
  cardRadius: "afronding kaarten",
  assignment: "toewijzing",
  quoteMinutes: "termijn offerteaanvraag",
  quoteBasis: "telwijze offerteaanvraag",
  contactMinutes: "termijn contactbericht",
  contactBasis: "telwijze contactbericht",
  workingHours: "werktijden",
  closedDays: "gesloten dagen",
  // An e-mail template's fields.
  name: "naam",
  subject: "onderwerp",
  body: "tekst",
};

/** Bounds of what a service may send for one entry (the audit.record job). */
export const AUDIT_ACTOR_MAX = 100;
export const AUDIT_TARGET_MAX = 200;
export const AUDIT_DETAIL_MAX = 500;

export const AuditEntry = z
  .object({
    id: Uuid,
    at: IsoDateTime,
    actor: z
      .string()
      .describe("Username of the admin who did it (at the time; never given to another admin)"),
    actorId: Uuid.nullable().describe("The acting admin's immutable id (null for entries from before ids)"),
    action: AuditAction,
    target: z
      .string()
      .nullable()
      .describe(
        "What it was done to, if anything: an admin's username, a lease request's or e-mail's id; never a lead's personal data",
      ),
    detail: z
      .string()
      .nullable()
      .describe(
        "e.g. how a sign-in was made (password, totp, recovery), a status change (`nieuw → bekeken`), the settings fields changed (`companyName, phoneNumber`; never a value)",
      ),
  })
  .describe("One audit log entry");
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AUDIT_PAGE_MAX = 200;

// PostgreSQL text cannot hold a NUL: refused here (400) instead of failing the query (500).
const noNul = (value: string) => !value.includes("\0");
const INVALID_CHARACTER = "Bevat een ongeldig teken";

export const AuditLogQuery = z.object({
  action: AuditAction.optional(),
  actor: z
    .string()
    .trim()
    .max(100, { error: "Maximaal 100 tekens" })
    .refine(noNul, { error: INVALID_CHARACTER })
    .optional(),
  target: z
    .string()
    .trim()
    .max(AUDIT_TARGET_MAX, { error: `Maximaal ${AUDIT_TARGET_MAX} tekens` })
    .refine(noNul, { error: INVALID_CHARACTER })
    .optional()
    .describe("Only entries about this target (exact: a username or an id)"),
  from: IsoDateTime.optional().describe("Only entries at or after this moment"),
  before: IsoDateTime.optional().describe(
    "Only entries before this moment (the last `at` of the previous page)",
  ),
  limit: z.coerce
    .number({ error: "limit moet een getal zijn" })
    .int({ error: "limit moet een geheel getal zijn" })
    .min(1, { error: "limit moet minstens 1 zijn" })
    .max(AUDIT_PAGE_MAX, { error: `limit mag hoogstens ${AUDIT_PAGE_MAX} zijn` })
    .default(50),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

export const AuditLogPage = z
  .object({ items: z.array(AuditEntry).describe("Newest first") })
  .describe("A page of the audit log");
export type AuditLogPage = z.infer<typeof AuditLogPage>;
