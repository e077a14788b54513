import { HttpError, type PrivacyStore } from "@lease/platform";
import type { MailSettingsSource } from "../repositories/mail-settings";
import type { MailPrivacyRepository } from "../repositories/privacy";

export const COMPANY_ADDRESS_ERROR = "privacy_company_address";
export const COMPANY_ADDRESS_MESSAGE =
  "Dit is een e-mailadres van het bedrijf zelf (de bedrijfsgegevens, de meldingen of de afzender). " +
  "Zoek op het adres van de persoon die om inzage of wissen vraagt.";

/**
 * The mailer's part of people's data, refusing the company's own addresses: the inbox's recipient
 * is the company on every entry, so "everything about" that address would be everyone's e-mail.
 * The current settings (company address, sender) and every address the company used before count.
 */
export function mailPrivacyStore(repo: MailPrivacyRepository, settings: MailSettingsSource): PrivacyStore {
  async function refuseCompanyAddress(email: string): Promise<void> {
    const current = await settings.get();
    const own = [current.company.emailAddress, current.fromEmailAddress].map((a) => a?.trim().toLowerCase());
    if (own.includes(email) || (await repo.isCompanyAddress(email)))
      throw new HttpError(422, COMPANY_ADDRESS_ERROR, COMPANY_ADDRESS_MESSAGE);
  }
  return {
    async find(email, leadIds) {
      await refuseCompanyAddress(email);
      return repo.find(email, leadIds);
    },
    async erase(email, leadIds) {
      await refuseCompanyAddress(email);
      return repo.erase(email, leadIds);
    },
  };
}
