import {
  GoogleCredentials,
  TOKEN_PLATFORMS,
  type ConversionSettings,
  type InternalConversionSettings,
  type TokenPlatform,
  type UpdateConversionSettingsBody,
} from "@lease/contracts";
import { HttpError } from "@lease/platform";
import type { CompanySettingsRow } from "../repositories/company-settings";
import type { CompanySettingsPatch } from "../repositories/company-settings";
import { openSecret } from "./company";
import type { SecretBox } from "./secret-box";

// Each ad platform's Conversions API switch and token, in the company row. The token is encrypted
// with the SendGrid key's secret box (SETTINGS_ENCRYPTION_KEY), answered to the panel only as
// `tokenSet`, and in clear only on the internal route, to the conversions service. Google's
// credentials (a service account key or an OAuth client, as JSON) are kept the same way, with the
// Google Ads account and each event's conversion action in clear.

const COLUMNS = {
  meta: { enabled: "metaConversionsEnabled", token: "metaAccessTokenEncrypted", pixel: "facebookPixelId" },
  tiktok: {
    enabled: "tiktokConversionsEnabled",
    token: "tiktokAccessTokenEncrypted",
    pixel: "tiktokPixelId",
  },
  snapchat: {
    enabled: "snapchatConversionsEnabled",
    token: "snapchatAccessTokenEncrypted",
    pixel: "snapchatPixelId",
  },
} as const satisfies Record<
  TokenPlatform,
  { enabled: keyof CompanySettingsRow; token: keyof CompanySettingsRow; pixel: keyof CompanySettingsRow }
>;

const GOOGLE_ACTIONS = {
  lead: "googleActionLead",
  offerte: "googleActionOfferte",
  getekend: "googleActionGetekend",
} as const satisfies Record<string, keyof CompanySettingsRow>;

/** The columns whose values are compared decrypted for the audit entry (each encryption differs). */
export const SECRET_COLUMNS: string[] = [
  ...TOKEN_PLATFORMS.map((p) => COLUMNS[p].token),
  "googleCredentialsEncrypted",
];

/** The names of the columns a save may change (for the audit entry: names only, never a token). */
export const CONVERSION_FIELDS: string[] = [
  ...TOKEN_PLATFORMS.flatMap((p) => [COLUMNS[p].enabled, COLUMNS[p].token]),
  "googleConversionsEnabled",
  "googleCustomerId",
  ...Object.values(GOOGLE_ACTIONS),
  "googleCredentialsEncrypted",
];

/** The stored Google credentials in clear, or null when none or unreadable (or not of their shape). */
function googleCredentials(row: CompanySettingsRow, box: SecretBox): GoogleCredentials | null {
  const text = openSecret(row.googleCredentialsEncrypted, box);
  if (text === null) return null;
  try {
    return GoogleCredentials.parse(JSON.parse(text));
  } catch {
    return null;
  }
}

const googleActions = (row: CompanySettingsRow) => ({
  lead: row.googleActionLead,
  offerte: row.googleActionOfferte,
  getekend: row.googleActionGetekend,
});

/** What the panel sees: switches, ids, and only whether secrets are stored (and which kind for Google). */
export function toConversionSettings(row: CompanySettingsRow, box: SecretBox): ConversionSettings {
  const one = (p: TokenPlatform) => ({
    enabled: row[COLUMNS[p].enabled],
    tokenSet: row[COLUMNS[p].token] !== null,
    pixelIdSet: Boolean(row[COLUMNS[p].pixel]?.trim()),
  });
  return {
    meta: one("meta"),
    tiktok: one("tiktok"),
    snapchat: one("snapchat"),
    google: {
      enabled: row.googleConversionsEnabled,
      customerId: row.googleCustomerId,
      conversionActions: googleActions(row),
      credentialsSet: row.googleCredentialsEncrypted !== null,
      credentialsKind: googleCredentials(row, box)?.kind ?? null,
    },
  };
}

export function toInternalConversionSettings(
  row: CompanySettingsRow,
  box: SecretBox,
): InternalConversionSettings {
  const one = (p: TokenPlatform) => {
    const stored = row[COLUMNS[p].token];
    const accessToken = openSecret(stored, box);
    return {
      enabled: row[COLUMNS[p].enabled],
      pixelId: row[COLUMNS[p].pixel]?.trim() || null,
      accessToken,
      tokenUnreadable: stored !== null && accessToken === null,
    };
  };
  const credentials = googleCredentials(row, box);
  return {
    meta: one("meta"),
    tiktok: one("tiktok"),
    snapchat: one("snapchat"),
    google: {
      enabled: row.googleConversionsEnabled,
      customerId: row.googleCustomerId,
      conversionActions: googleActions(row),
      credentials,
      credentialsUnreadable: row.googleCredentialsEncrypted !== null && credentials === null,
    },
  };
}

/** Columns of a save: absent keeps, null removes a token, a token is encrypted with a fresh IV. */
export function conversionPatch(body: UpdateConversionSettingsBody, box: SecretBox): CompanySettingsPatch {
  const patch: Record<string, unknown> = {};
  for (const p of TOKEN_PLATFORMS) {
    const part = body[p];
    if (!part) continue;
    if (part.enabled !== undefined) patch[COLUMNS[p].enabled] = part.enabled;
    if (part.accessToken !== undefined)
      patch[COLUMNS[p].token] = part.accessToken === null ? null : box.encrypt(part.accessToken);
  }
  const google = body.google;
  if (google) {
    if (google.enabled !== undefined) patch.googleConversionsEnabled = google.enabled;
    if (google.customerId !== undefined) patch.googleCustomerId = google.customerId;
    for (const [event, column] of Object.entries(GOOGLE_ACTIONS)) {
      const id = google.conversionActions?.[event as keyof typeof GOOGLE_ACTIONS];
      if (id !== undefined) patch[column] = id;
    }
    if (google.credentials !== undefined)
      patch.googleCredentialsEncrypted =
        google.credentials === null ? null : box.encrypt(JSON.stringify(google.credentials));
  }
  return patch as CompanySettingsPatch;
}

const PLATFORM_NAMES: Record<TokenPlatform, string> = {
  meta: "Facebook/Meta",
  tiktok: "TikTok",
  snapchat: "Snapchat",
};

/**
 * A platform a save touches may be on only with a pixel id and a token: without either nothing can
 * be sent, and "Conversies Opgeslagen" would read as if it could.
 */
export function refuseUnsendable(body: UpdateConversionSettingsBody, after: CompanySettingsRow): void {
  const fields = TOKEN_PLATFORMS.flatMap((p) => {
    if (!body[p] || !after[COLUMNS[p].enabled]) return [];
    const missing = [
      after[COLUMNS[p].pixel]?.trim() ? null : "een Pixel ID (bij Social Media Pixels)",
      after[COLUMNS[p].token] !== null ? null : "een toegangstoken",
    ].filter(Boolean);
    if (missing.length === 0) return [];
    return [
      {
        path: `${p}.enabled`,
        message: `${PLATFORM_NAMES[p]}: conversies kunnen pas aan met ${missing.join(" en ")}; zonder wordt er niets verstuurd`,
      },
    ];
  });
  if (body.google && after.googleConversionsEnabled) {
    const missing = [
      after.googleCustomerId ? null : "een klant-ID van Google Ads",
      after.googleCredentialsEncrypted !== null ? null : "inloggegevens",
    ].filter(Boolean);
    if (missing.length)
      fields.push({
        path: "google.enabled",
        message: `Google: conversies kunnen pas aan met ${missing.join(" en ")}; zonder wordt er niets verstuurd`,
      });
  }
  const first = fields[0];
  if (first)
    throw new HttpError(
      400,
      "validation_failed",
      fields.length === 1 ? first.message : "Controleer de ingevulde gegevens",
      fields,
    );
}

/** A secret column's value in clear, for comparing a save's before and after. */
export function secretInClear(row: CompanySettingsRow, column: string, box: SecretBox): string | null {
  return openSecret((row as Record<string, unknown>)[column] as string | null, box);
}
