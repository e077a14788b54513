import { UpdateCompanySettingsBody, type AdminCompanySettings } from "@lease/contracts";
import type { ZodType } from "zod";
import type { CompanySettingsUpdate } from "../api";

/** The company fields the Bedrijfsgegevens tab edits, in display order. */
export const COMPANY_FIELDS = [
  { key: "companyName", label: "Bedrijfsnaam" },
  { key: "mobileAbbreviation", label: "Mobiele afkorting (max. 15 tekens)" },
  { key: "kvkNumber", label: "KvK-nummer" },
  { key: "btwNumber", label: "BTW-nummer" },
  { key: "address", label: "Adres" },
  { key: "postalCode", label: "Postcode" },
  { key: "city", label: "Plaats" },
  { key: "phoneNumber", label: "Telefoonnummer" },
  { key: "emailAddress", label: "E-mailadres" },
  { key: "website", label: "Website" },
  { key: "description", label: "Omschrijving" },
] as const;

export type CompanyFieldKey = (typeof COMPANY_FIELDS)[number]["key"];
export type CompanyDraft = Record<CompanyFieldKey, string>;

export function companyDraft(settings: AdminCompanySettings | undefined): CompanyDraft {
  const draft = {} as CompanyDraft;
  for (const { key } of COMPANY_FIELDS) draft[key] = settings?.[key] ?? "";
  return draft;
}

/** The PUT body: every company field; an empty optional field is sent as "" and cleared. */
export function companyUpdateBody(draft: CompanyDraft): CompanySettingsUpdate {
  return { ...draft, companyName: draft.companyName.trim() };
}

export const COMPANY_NAME_REQUIRED = "Bedrijfsnaam is verplicht";
export const MOBILE_ABBREVIATION_TOO_LONG = "Maximaal 15 tekens";

/** Client rules of the company form: companyName required, mobileAbbreviation max 15. */
export function validateCompany(draft: CompanyDraft): Partial<Record<CompanyFieldKey, string>> {
  const errors: Partial<Record<CompanyFieldKey, string>> = {};
  if (!draft.companyName.trim()) errors.companyName = COMPANY_NAME_REQUIRED;
  if (draft.mobileAbbreviation.trim().length > 15) errors.mobileAbbreviation = MOBILE_ABBREVIATION_TOO_LONG;
  return errors;
}

/**
 * The server's own rules (UpdateCompanySettingsBody) for each field given: the message it would
 * answer, by field. Lets a field's message go as soon as its value is corrected, before saving.
 */
export function settingsFieldErrors(values: Record<string, string>): Record<string, string> {
  const shape = UpdateCompanySettingsBody.shape as Record<string, ZodType | undefined>;
  const errors: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const parsed = shape[key]?.safeParse(value);
    if (parsed && !parsed.success) errors[key] = parsed.error.issues[0]?.message ?? "Ongeldige waarde";
  }
  return errors;
}
