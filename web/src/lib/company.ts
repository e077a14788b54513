import type { PublicCompanySettings } from "@lease/contracts";
import { DEFAULT_COMPANY_NAME } from "./constants";

// Company details as the public pages show them: settings when present, fallback texts otherwise.

export const COMPANY_FALLBACKS = {
  phone: "Telefoonnummer op aanvraag",
  email: "E-mailadres op aanvraag",
  address: "Adres op aanvraag",
  kvk: "KvK-nummer op aanvraag",
  btw: "BTW-nummer op aanvraag",
} as const;

export interface CompanyDetails {
  name: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  postalCode: string | null;
  city: string | null;
  kvk: string | null;
  btw: string | null;
  /** "Straat 1, 1234 AB Amsterdam" from whichever parts are set; null when none is. */
  fullAddress: string | null;
}

const clean = (value: string | null | undefined): string | null => value?.trim() || null;

export function companyDetails(settings: Partial<PublicCompanySettings> | undefined): CompanyDetails {
  const address = clean(settings?.address);
  const postalCode = clean(settings?.postalCode);
  const city = clean(settings?.city);
  const place = [postalCode, city].filter(Boolean).join(" ");
  const fullAddress = [address, place].filter(Boolean).join(", ") || null;
  return {
    name: clean(settings?.companyName) ?? DEFAULT_COMPANY_NAME,
    phone: clean(settings?.phoneNumber),
    email: clean(settings?.emailAddress),
    address,
    postalCode,
    city,
    kvk: clean(settings?.kvkNumber),
    btw: clean(settings?.btwNumber),
    fullAddress,
  };
}

/**
 * The registration lines of the contact section and footer: "KvK: 12345678" when set, else the
 * fallback alone ("KvK-nummer op aanvraag", not "KvK: KvK-nummer op aanvraag").
 */
export function registrationLines(company: Pick<CompanyDetails, "kvk" | "btw">): [string, string] {
  return [
    company.kvk ? `KvK: ${company.kvk}` : COMPANY_FALLBACKS.kvk,
    company.btw ? `BTW: ${company.btw}` : COMPANY_FALLBACKS.btw,
  ];
}

/** tel: link target: digits and a leading plus only. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
