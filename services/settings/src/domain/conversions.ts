import {
  CONVERSION_PLATFORMS,
  type ConversionPlatform,
  type ConversionSettings,
  type InternalConversionSettings,
  type UpdateConversionSettingsBody,
} from "@lease/contracts";
import { HttpError } from "@lease/platform";
import type { CompanySettingsRow } from "../repositories/company-settings";
import type { CompanySettingsPatch } from "../repositories/company-settings";
import { openSecret } from "./company";
import type { SecretBox } from "./secret-box";

// Each ad platform's Conversions API switch and token, in the company row. The token is encrypted
// with the SendGrid key's secret box (SETTINGS_ENCRYPTION_KEY), answered to the panel only as
// `tokenSet`, and in clear only on the internal route, to the conversions service.

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
  ConversionPlatform,
  { enabled: keyof CompanySettingsRow; token: keyof CompanySettingsRow; pixel: keyof CompanySettingsRow }
>;

/** The names of the columns a save may change (for the audit entry: names only, never a token). */
export const CONVERSION_FIELDS: string[] = CONVERSION_PLATFORMS.flatMap((p) => [
  COLUMNS[p].enabled,
  COLUMNS[p].token,
]);

export function toConversionSettings(row: CompanySettingsRow): ConversionSettings {
  const one = (p: ConversionPlatform) => ({
    enabled: row[COLUMNS[p].enabled],
    tokenSet: row[COLUMNS[p].token] !== null,
    pixelIdSet: Boolean(row[COLUMNS[p].pixel]?.trim()),
  });
  return { meta: one("meta"), tiktok: one("tiktok"), snapchat: one("snapchat") };
}

export function toInternalConversionSettings(
  row: CompanySettingsRow,
  box: SecretBox,
): InternalConversionSettings {
  const one = (p: ConversionPlatform) => {
    const stored = row[COLUMNS[p].token];
    const accessToken = openSecret(stored, box);
    return {
      enabled: row[COLUMNS[p].enabled],
      pixelId: row[COLUMNS[p].pixel]?.trim() || null,
      accessToken,
      tokenUnreadable: stored !== null && accessToken === null,
    };
  };
  return { meta: one("meta"), tiktok: one("tiktok"), snapchat: one("snapchat") };
}

/** Columns of a save: absent keeps, null removes a token, a token is encrypted with a fresh IV. */
export function conversionPatch(body: UpdateConversionSettingsBody, box: SecretBox): CompanySettingsPatch {
  const patch: Record<string, unknown> = {};
  for (const p of CONVERSION_PLATFORMS) {
    const part = body[p];
    if (!part) continue;
    if (part.enabled !== undefined) patch[COLUMNS[p].enabled] = part.enabled;
    if (part.accessToken !== undefined)
      patch[COLUMNS[p].token] = part.accessToken === null ? null : box.encrypt(part.accessToken);
  }
  return patch as CompanySettingsPatch;
}

const PLATFORM_NAMES: Record<ConversionPlatform, string> = {
  meta: "Facebook/Meta",
  tiktok: "TikTok",
  snapchat: "Snapchat",
};

/**
 * A platform a save touches may be on only with a pixel id and a token: without either nothing can
 * be sent, and "Conversies Opgeslagen" would read as if it could (issue 41 item 9).
 */
export function refuseUnsendable(body: UpdateConversionSettingsBody, after: CompanySettingsRow): void {
  const fields = CONVERSION_PLATFORMS.flatMap((p) => {
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
  const first = fields[0];
  if (first)
    throw new HttpError(
      400,
      "validation_failed",
      fields.length === 1 ? first.message : "Controleer de ingevulde gegevens",
      fields,
    );
}
