import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/**
 * A phone number as people type it on the quote form ("+31 (0)6-1234 5678", "0031 (0)6 1234 5678",
 * "06 1234 5678", "+32 470 12 34 56"), in E.164 ("+31612345678"), or null when it is no valid
 * number. Parsed with libphonenumber-js and its full metadata (each country's number patterns, not
 * only lengths), so a national "(0)" after the country code is dropped and a wrong length is no
 * number. A number without a country code is read as Dutch: the site's visitors.
 */
export function phoneE164(phone: string): string | null {
  const parsed = parsePhoneNumberFromString(phone, "NL");
  return parsed?.isValid() ? parsed.number : null;
}

/** The number's country (ISO 3166-1 alpha-2, lower-case: "nl", "be"), or null without a valid number. */
export function phoneCountry(phone: string): string | null {
  const parsed = parsePhoneNumberFromString(phone, "NL");
  return parsed?.isValid() && parsed.country ? parsed.country.toLowerCase() : null;
}
