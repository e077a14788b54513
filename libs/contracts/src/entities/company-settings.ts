import { z } from "zod";
import { IsoDateTime, Uuid } from "./common";

/** Shown wherever the company name is needed and none is configured. */
export const DEFAULT_COMPANY_NAME = "Zakelijk Lease Centrum";
export const MOBILE_ABBREVIATION_MAX_LENGTH = 15;

const OptionalText = z.string().nullable();

/**
 * What anyone may read (GET /api/company-settings). An allowlist: the mail-provider key and the
 * sender address are deliberately absent, so adding a secret column can never leak it here.
 */
export const PublicCompanySettings = z.object({
  companyName: z.string(),
  mobileAbbreviation: OptionalText,
  kvkNumber: OptionalText,
  btwNumber: OptionalText,
  address: OptionalText,
  city: OptionalText,
  postalCode: OptionalText,
  phoneNumber: OptionalText,
  emailAddress: OptionalText,
  website: OptionalText,
  description: OptionalText,
  facebookPixelId: OptionalText,
  snapchatPixelId: OptionalText,
  tiktokPixelId: OptionalText,
  updatedAt: IsoDateTime.nullable().describe("Null while the defaults have never been saved"),
});
export type PublicCompanySettings = z.infer<typeof PublicCompanySettings>;

export const PUBLIC_COMPANY_SETTINGS_KEYS = Object.keys(
  PublicCompanySettings.shape,
) as (keyof PublicCompanySettings)[];

export const AdminCompanySettings = PublicCompanySettings.extend({
  id: Uuid,
  sendgridApiKey: z
    .string()
    .nullable()
    .describe('Always masked ("SG.…" plus the last 4 characters); the key itself is never sent back'),
  sendgridApiKeyUnreadable: z
    .boolean()
    .describe(
      "A key is stored but cannot be decrypted (SETTINGS_ENCRYPTION_KEY changed since it was saved): sendgridApiKey is then null and the key must be entered again",
    ),
  fromEmailAddress: OptionalText,
  notifyCompanyEmail: z
    .boolean()
    .describe("Whether the company gets an e-mail about each new quote request and contact message"),
  createdAt: IsoDateTime,
});
export type AdminCompanySettings = z.infer<typeof AdminCompanySettings>;

/** The company fields below every e-mail the panel sends. */
export type CompanyFooterFields = Pick<
  PublicCompanySettings,
  | "companyName"
  | "address"
  | "postalCode"
  | "city"
  | "phoneNumber"
  | "emailAddress"
  | "website"
  | "kvkNumber"
  | "btwNumber"
>;

/**
 * The company details the mailer adds below every message from the panel, line by line; the
 * compose window shows the same lines ("worden automatisch toegevoegd"), so neither says more.
 */
export function companyFooterLines(company: Partial<CompanyFooterFields> | undefined): string[] {
  const c = company ?? {};
  const place = [c.postalCode, c.city].filter(Boolean).join(" ");
  const lines = [
    c.companyName?.trim() || DEFAULT_COMPANY_NAME,
    [c.address, place].filter(Boolean).join(", "),
    c.phoneNumber ? `Tel: ${c.phoneNumber}` : "",
    c.emailAddress ? `E-mail: ${c.emailAddress}` : "",
    c.website ?? "",
    [c.kvkNumber ? `KvK: ${c.kvkNumber}` : "", c.btwNumber ? `BTW: ${c.btwNumber}` : ""]
      .filter(Boolean)
      .join(" | "),
  ];
  return lines.filter((l) => l.trim());
}

const MASK = "SG.…";

/** Masks a stored API key for display: "SG.…" plus its last 4 characters (only for long keys). */
export function maskApiKey(key: string | null | undefined): string | null {
  if (!key) return null;
  return key.length >= 12 ? `${MASK}${key.slice(-4)}` : MASK;
}

/** True for a value produced by maskApiKey (also with "..." typed for "…"): "keep the stored key". */
export function isMaskedApiKey(value: string): boolean {
  return /^SG\.(…|\.\.\.)[^\s]{0,4}$/.test(value);
}
