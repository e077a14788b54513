import {
  AdminCompanySettings,
  DEFAULT_COMPANY_NAME,
  PUBLIC_COMPANY_SETTINGS_KEYS,
  PublicCompanySettings,
  maskApiKey,
  type UpdateCompanySettingsBody,
} from "@lease/contracts";
import type { CompanySettingsPatch, CompanySettingsRow } from "../repositories/company-settings";
import type { SecretBox } from "./secret-box";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Every field of the row a reader might want, the secret still encrypted (never decrypted here). */
function readable(row: CompanySettingsRow): Record<string, unknown> {
  return {
    ...row,
    companyName: row.companyName || DEFAULT_COMPANY_NAME,
    createdAt: row.createdAt.toISOString(),
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * The public answer is built from the allowlist only: a column added later (or a secret) can
 * never reach it by accident.
 */
export function toPublicCompanySettings(row: CompanySettingsRow): PublicCompanySettings {
  const all = readable(row);
  const picked = Object.fromEntries(PUBLIC_COMPANY_SETTINGS_KEYS.map((key) => [key, all[key] ?? null]));
  return PublicCompanySettings.parse(picked);
}

/** The admin sees the sender address and only a masked provider key. */
export function toAdminCompanySettings(row: CompanySettingsRow, box: SecretBox): AdminCompanySettings {
  return AdminCompanySettings.parse({
    ...toPublicCompanySettings(row),
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    fromEmailAddress: row.fromEmailAddress,
    notifyCompanyEmail: row.notifyCompanyEmail,
    // Stored with another key (a new SETTINGS_ENCRYPTION_KEY, no previous one to read it): no
    // masked "SG.…" as if it worked, but the fact that it must be entered again.
    sendgridApiKey: maskApiKey(decryptedApiKey(row, box)),
    sendgridApiKeyUnreadable: isApiKeyUnreadable(row, box),
  });
}

/** True when a provider key is stored that none of the encryption keys opens. */
export function isApiKeyUnreadable(row: CompanySettingsRow, box: SecretBox): boolean {
  return row.sendgridApiKeyEncrypted !== null && decryptedApiKey(row, box) === null;
}

/** The decrypted provider key, or null when none is stored or it cannot be read. */
export function decryptedApiKey(row: CompanySettingsRow, box: SecretBox): string | null {
  return openSecret(row.sendgridApiKeyEncrypted, box);
}

/** A stored secret (the SendGrid key, a platform's token) in clear, or null when none or unreadable. */
export function openSecret(stored: string | null, box: SecretBox): string | null {
  if (!stored) return null;
  try {
    return box.decrypt(stored);
  } catch {
    return null;
  }
}

/**
 * Turns a validated partial update into columns: absent fields stay out (kept), null clears, the
 * provider key is encrypted with a fresh IV; a masked key was already parsed to "absent".
 */
export function companyPatch(body: UpdateCompanySettingsBody, box: SecretBox): CompanySettingsPatch {
  const { sendgridApiKey, id: _id, createdAt: _c, updatedAt: _u, ...fields } = body;
  const patch: CompanySettingsPatch = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (patch as Record<string, unknown>)[key] = value;
  }
  if (sendgridApiKey !== undefined)
    patch.sendgridApiKeyEncrypted = sendgridApiKey === null ? null : box.encrypt(sendgridApiKey);
  return patch;
}
