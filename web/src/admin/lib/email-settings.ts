import type { AdminCompanySettings } from "@lease/contracts";

export interface EmailSettingsDraft {
  sendgridApiKey: string;
  fromEmailAddress: string;
}

export type EmailSettingsStatus =
  "configured" | "key_unreadable" | "sender_missing" | "key_missing" | "not_configured";

/** What the mailer can use: a stored key it cannot decrypt is not "configured". */
export const KEY_UNREADABLE_TEXT = "De opgeslagen API key kan niet worden gelezen — voer hem opnieuw in";

export const EMAIL_STATUS_TEXT: Record<EmailSettingsStatus, string> = {
  configured: "Volledig geconfigureerd",
  key_unreadable: KEY_UNREADABLE_TEXT,
  sender_missing: "Afzender e-mail ontbreekt",
  key_missing: "API key ontbreekt",
  not_configured: "Niet geconfigureerd",
};

const isSet = (value: string) => value.trim().length > 0;

/**
 * `keyUnreadable`: the stored key cannot be decrypted (the server says so); until a new key is
 * typed, that is the status, whatever the sender.
 */
export function emailSettingsStatus(draft: EmailSettingsDraft, keyUnreadable = false): EmailSettingsStatus {
  const key = isSet(draft.sendgridApiKey);
  if (keyUnreadable && !key) return "key_unreadable";
  const sender = isSet(draft.fromEmailAddress);
  if (key && sender) return "configured";
  if (key) return "sender_missing";
  if (sender) return "key_missing";
  return "not_configured";
}

/** Non-blocking hint: a SendGrid key starts with "SG." (the masked stored key does too). */
export const isApiKeyFormatValid = (key: string) => key.trim().startsWith("SG.");

/** Non-blocking hint: a sender address contains "@". */
export const isSenderFormatValid = (sender: string) => sender.includes("@");

export const FORMAT_VALID = "Geldig formaat";
export const FORMAT_INVALID = "Ongeldig formaat";

export function draftFromSettings(
  settings: Pick<AdminCompanySettings, "sendgridApiKey" | "fromEmailAddress"> | undefined,
): EmailSettingsDraft {
  return {
    sendgridApiKey: settings?.sendgridApiKey ?? "",
    fromEmailAddress: settings?.fromEmailAddress ?? "",
  };
}

/** The partial update: only the fields that differ from the stored values ("" clears a field). */
export function changedEmailFields(
  stored: EmailSettingsDraft,
  draft: EmailSettingsDraft,
): Partial<Record<keyof EmailSettingsDraft, string>> {
  const changes: Partial<Record<keyof EmailSettingsDraft, string>> = {};
  if (draft.sendgridApiKey.trim() !== stored.sendgridApiKey.trim())
    changes.sendgridApiKey = draft.sendgridApiKey.trim();
  if (draft.fromEmailAddress.trim() !== stored.fromEmailAddress.trim())
    changes.fromEmailAddress = draft.fromEmailAddress.trim();
  return changes;
}

export const hasUnsavedChanges = (stored: EmailSettingsDraft, draft: EmailSettingsDraft) =>
  Object.keys(changedEmailFields(stored, draft)).length > 0;

export const canSendTest = (draft: EmailSettingsDraft, keyUnreadable = false) =>
  emailSettingsStatus(draft, keyUnreadable) === "configured";

/**
 * Why what is typed would not work (empty when it would): a missing field, or a key or sender of
 * the wrong format, in words for the line under the saved status.
 */
export function draftProblems(draft: EmailSettingsDraft, keyUnreadable = false): string[] {
  const status = emailSettingsStatus(draft, keyUnreadable);
  const problems = status === "configured" ? [] : [EMAIL_STATUS_TEXT[status]];
  if (isSet(draft.sendgridApiKey) && !isApiKeyFormatValid(draft.sendgridApiKey))
    problems.push("de API key heeft een ongeldig formaat (een SendGrid API key begint met SG.)");
  if (isSet(draft.fromEmailAddress) && !isSenderFormatValid(draft.fromEmailAddress))
    problems.push("de afzender e-mail heeft een ongeldig formaat (een e-mailadres bevat een @)");
  return problems;
}
