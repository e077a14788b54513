import { z } from "zod";
import { isSafeHttpUrl } from "../entities/common";
import { MOBILE_ABBREVIATION_MAX_LENGTH, isMaskedApiKey } from "../entities/company-settings";
import { ThemeValues } from "../entities/theme-settings";
import { EMAIL_MESSAGE, clearableField, emailAddress, maxLengthMessage, phoneNumber, text } from "./fields";

export const UpdateThemeSettingsBody = ThemeValues.partial()
  .strict()
  .describe("Partial update: only the fields sent change");
export type UpdateThemeSettingsBody = z.infer<typeof UpdateThemeSettingsBody>;

export const COMPANY_NAME_REQUIRED_MESSAGE = "Bedrijfsnaam is verplicht";
export const WEBSITE_MESSAGE = "Voer een geldige website URL in";

/** "www.bedrijf.nl" is what people type; it is read as https://www.bedrijf.nl. */
function withDefaultScheme(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  return /^[a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)+(\/.*)?$/i.test(trimmed) ? `https://${trimmed}` : trimmed;
}

/** Digits only, after removing the spaces and dots people type as separators. */
const stripSeparators = (value: string) => value.replace(/[\s.]/g, "");

const KvkNumber = z
  .string()
  .transform(stripSeparators)
  .pipe(z.string().regex(/^\d{8}$/, { error: "KvK-nummer bestaat uit 8 cijfers" }));

const BtwNumber = z
  .string()
  .transform((value) => stripSeparators(value).toUpperCase())
  .pipe(z.string().regex(/^NL\d{9}B\d{2}$/, { error: "Gebruik een BTW-nummer als NL123456789B01" }));

const PostalCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[1-9]\d{3} ?[A-Z]{2}$/, { error: "Gebruik een postcode als 1234 AB" })
  .transform((value) => `${value.slice(0, 4)} ${value.slice(-2)}`);

const Website = z.preprocess(
  withDefaultScheme,
  z
    .string({ error: WEBSITE_MESSAGE })
    .max(2048, { error: WEBSITE_MESSAGE })
    .refine(isSafeHttpUrl, { error: WEBSITE_MESSAGE }),
);

const SendgridApiKey = z
  .string()
  .trim()
  .max(200, { error: maxLengthMessage(200) })
  .regex(/^\S+$/, { error: "De API key mag geen spaties bevatten" });

/** A masked key sent back unchanged means "keep the stored key": it parses to undefined. */
function maskedToUndefined(value: unknown): unknown {
  return typeof value === "string" && isMaskedApiKey(value.trim()) ? undefined : value;
}

/** Keys of AdminCompanySettings the admin form echoes back; accepted and dropped (read-only). */
const readOnly = z
  .unknown()
  .optional()
  .transform(() => undefined)
  .describe("Read-only; ignored when sent back");

/**
 * Partial update of the company settings (company form, e-mail settings form and pixel form all
 * use it). Absent key: keep the stored value; "" or null: clear it.
 */
export const UpdateCompanySettingsBody = z
  .strictObject({
    companyName: z
      .string({ error: COMPANY_NAME_REQUIRED_MESSAGE })
      .trim()
      .min(1, { error: COMPANY_NAME_REQUIRED_MESSAGE })
      .max(200, { error: maxLengthMessage(200) })
      .optional(),
    mobileAbbreviation: clearableField(
      z
        .string()
        .trim()
        .max(MOBILE_ABBREVIATION_MAX_LENGTH, { error: maxLengthMessage(MOBILE_ABBREVIATION_MAX_LENGTH) }),
    ),
    kvkNumber: clearableField(KvkNumber),
    btwNumber: clearableField(BtwNumber),
    address: clearableField(text(200)),
    city: clearableField(text(200)),
    postalCode: clearableField(PostalCode),
    phoneNumber: clearableField(phoneNumber()),
    emailAddress: clearableField(emailAddress(EMAIL_MESSAGE)),
    website: clearableField(Website),
    description: clearableField(text(2000)),
    sendgridApiKey: z
      .preprocess(maskedToUndefined, clearableField(SendgridApiKey))
      .optional()
      .describe('Mail-provider key; the masked value ("SG.…abcd") sent back keeps the stored key'),
    fromEmailAddress: clearableField(emailAddress(EMAIL_MESSAGE)),
    notifyCompanyEmail: z
      .boolean({ error: "Kies aan of uit voor de melding per e-mail bij een nieuwe aanvraag" })
      .optional()
      .describe("E-mail the company about each new quote request and contact message"),
    facebookPixelId: clearableField(
      z
        .string()
        .trim()
        .regex(/^\d{10,20}$/, { error: "Een Meta Pixel ID bestaat uit 10 tot 20 cijfers" }),
    ),
    snapchatPixelId: clearableField(
      z
        .string()
        .trim()
        .pipe(z.guid({ error: "Een Snapchat Pixel ID heeft de vorm van een UUID" })),
    ),
    tiktokPixelId: clearableField(
      z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z0-9]{15,25}$/, {
          error: "Een TikTok Pixel ID bestaat uit 15 tot 25 hoofdletters en cijfers",
        }),
    ),
    sendgridApiKeyUnreadable: readOnly,
    id: readOnly,
    createdAt: readOnly,
    updatedAt: readOnly,
  })
  .describe("Partial update: absent keeps, empty string or null clears");
export type UpdateCompanySettingsBody = z.infer<typeof UpdateCompanySettingsBody>;
