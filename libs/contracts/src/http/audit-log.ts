import { z } from "zod";
import { IsoDateTime, Uuid } from "../entities/common";

// The audit log (who, what, when), kept two years. The gateway records its own events: sign-ins and
// changes to admin accounts; other services' events (status changes, deletions, settings, e-mails
// sent) are not in it yet.

export const AUDIT_RETENTION_DAYS = 2 * 365;

export const AUDIT_ACTIONS = [
  "login.success",
  "admin.created",
  "admin.disabled",
  "admin.enabled",
  "admin.removed",
  "account.password_changed",
  "account.totp_enabled",
  "account.totp_disabled",
  "privacy.exported",
  "privacy.erased",
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS, { error: "Onbekende actie" });
export type AuditAction = z.infer<typeof AuditAction>;

/** What the panel shows for each action. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "login.success": "Ingelogd",
  "admin.created": "Beheerder aangemaakt",
  "admin.disabled": "Beheerder uitgeschakeld",
  "admin.enabled": "Beheerder ingeschakeld",
  "admin.removed": "Beheerder verwijderd",
  "account.password_changed": "Eigen wachtwoord gewijzigd",
  "account.totp_enabled": "Tweestapsverificatie aangezet",
  "account.totp_disabled": "Tweestapsverificatie uitgezet",
  "privacy.exported": "Gegevens van een persoon geëxporteerd",
  "privacy.erased": "Gegevens van een persoon gewist",
};

export const AuditEntry = z
  .object({
    id: Uuid,
    at: IsoDateTime,
    actor: z.string().describe("Username of the admin who did it"),
    action: AuditAction,
    target: z.string().nullable().describe("What it was done to (an admin's username), if anything"),
    detail: z.string().nullable().describe("e.g. how a sign-in was made (password, totp, recovery)"),
  })
  .describe("One audit log entry");
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AUDIT_PAGE_MAX = 200;

export const AuditLogQuery = z.object({
  action: AuditAction.optional(),
  actor: z.string().trim().max(100, { error: "Maximaal 100 tekens" }).optional(),
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
