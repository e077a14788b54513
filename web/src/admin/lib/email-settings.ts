import type { AdminCompanySettings } from "@lease/contracts";

export interface EmailSettingsDraft {
  sendgridApiKey: string;
  fromEmailAddress: string;
}

export type EmailSettingsStatus = "configured" | "sender_missing" | "key_missing" | "not_configured";

export const EMAIL_STATUS_TEXT: Record<EmailSettingsStatus, string> = {
  configured: "Volledig geconfigureerd",
  sender_missing: "Afzender e-mail ontbreekt",
  key_missing: "API key ontbreekt",
  not_configured: "Niet geconfigureerd",
};

const isSet = (value: string) => value.trim().length > 0;

export function emailSettingsStatus(draft: EmailSettingsDraft): EmailSettingsStatus {
  const key = isSet(draft.sendgridApiKey);
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

export const canSendTest = (draft: EmailSettingsDraft) => emailSettingsStatus(draft) === "configured";
