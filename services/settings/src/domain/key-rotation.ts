import type { Logger } from "@lease/platform";
import type { CompanySettingsRepository } from "../repositories/company-settings";
import type { SecretBox } from "./secret-box";

export type RewrapOutcome = "none" | "current" | "rewrapped" | "unreadable";

/**
 * At start: moves the stored provider key to the current SETTINGS_ENCRYPTION_KEY when it was made
 * with one of SETTINGS_ENCRYPTION_KEY_PREVIOUS, so the old key can be dropped after a rollout.
 * Replicas may race; the compare-and-set update lets one win and the rest find it current.
 */
export async function rewrapStoredSecrets(
  company: CompanySettingsRepository,
  box: SecretBox,
  logger: Logger,
): Promise<RewrapOutcome> {
  const stored = (await company.get()).sendgridApiKeyEncrypted;
  if (!stored) return "none";
  let replacement: string | null;
  try {
    replacement = box.rewrap(stored);
  } catch {
    logger.warn(
      "the stored SendGrid API key cannot be decrypted with SETTINGS_ENCRYPTION_KEY or SETTINGS_ENCRYPTION_KEY_PREVIOUS; " +
        "set the key that encrypted it as SETTINGS_ENCRYPTION_KEY_PREVIOUS, or enter the API key again in the admin",
    );
    return "unreadable";
  }
  if (replacement === null) return "current";
  if (await company.replaceEncryptedKey(stored, replacement)) {
    logger.info("re-encrypted the stored SendGrid API key with the current SETTINGS_ENCRYPTION_KEY");
    return "rewrapped";
  }
  return "current";
}
