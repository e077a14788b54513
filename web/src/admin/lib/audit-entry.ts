import { AUDIT_FIELD_LABELS, LEASE_STATUSES, type AuditEntry, type LeaseStatus } from "@lease/contracts";
import { formatDay } from "./follow-up";
import { STATUS_LABELS } from "./timeline";

const SIGN_IN_WAYS: Record<string, string> = {
  password: "met wachtwoord",
  totp: "met wachtwoord en code",
  recovery: "met wachtwoord en herstelcode",
  new_password: "met eenmalig wachtwoord, daarna eigen wachtwoord gekozen",
};

/** What an erasure's or export's counts call the parts that are no person's data, in plain words. */
const COUNT_WORDS: Record<string, string> = {
  wachtrijregels: "interne berichten nog te verwerken",
  wachtrijtaken: "geplande verwerkingstaken",
};

const isStatus = (value: string): value is LeaseStatus =>
  (LEASE_STATUSES as readonly string[]).includes(value);

/** "nieuw → offerte, maandbedrag € 489,00" as "van Nieuw naar Offerte, maandbedrag € 489,00". */
function statusChangeText(detail: string): string {
  const match = /^(\w+) → (\w+)(.*)$/s.exec(detail);
  if (!match || !isStatus(match[1]!) || !isStatus(match[2]!)) return detail;
  return `van ${STATUS_LABELS[match[1]]} naar ${STATUS_LABELS[match[2]]}${match[3]}`;
}

/**
 * An entry's detail as the panel shows it: sign-in ways, settings fields, statuses and counts in
 * words, a day as 28-11-2026; an id the row already links to is left out. Null: nothing to add.
 */
export function auditDetailText(entry: Pick<AuditEntry, "action" | "detail">): string | null {
  const detail = entry.detail;
  if (!detail) return null;
  if (entry.action === "login.success") return SIGN_IN_WAYS[detail] ?? null;
  if (entry.action.startsWith("settings."))
    return detail
      .split(", ")
      .map((field) => AUDIT_FIELD_LABELS[field] ?? field)
      .join(", ");
  if (entry.action === "lead.status_changed" || entry.action === "lead.stage_moved_back")
    return statusChangeText(detail);
  // A follow-up day is recorded as YYYY-MM-DD; said in a Dutch sentence as 28-11-2026.
  if (entry.action === "lead.follow_up_changed" && /^\d{4}-\d{2}-\d{2}$/.test(detail))
    return formatDay(detail);
  // An e-mail sent about a lead names the inbox entry's id; the row links to the lead instead.
  if (entry.action === "email.sent" && /^e-mail [0-9a-f-]{36}$/i.test(detail)) return null;
  if (entry.action.startsWith("privacy."))
    return detail.replace(/\b(wachtrijregels|wachtrijtaken)\b/g, (word) => COUNT_WORDS[word] ?? word);
  return detail;
}

/**
 * The lease request an entry is about, when its target is one: the id to link to and whether the
 * entry itself says it is gone (deleted). Null for other targets (usernames, e-mails, campaigns).
 */
export function leadTargetOf(
  entry: Pick<AuditEntry, "action" | "target" | "detail">,
): { id: string; deleted: boolean } | null {
  if (!entry.target) return null;
  const aboutLead =
    (entry.action.startsWith("lead.") && entry.action !== "lead.exported") ||
    (entry.action === "email.sent" && /^e-mail /.test(entry.detail ?? ""));
  if (!aboutLead || !/^[0-9a-f-]{36}$/i.test(entry.target)) return null;
  return { id: entry.target, deleted: entry.action === "lead.deleted" };
}
