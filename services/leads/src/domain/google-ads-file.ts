import {
  GOOGLE_ADS_FEED_SECRET,
  GOOGLE_CLICK_ID_REGEX,
  defuseFormulas,
  GOOGLE_ADS_TIME_ZONE,
  type ConversionEvent,
  type FormClickIds,
  type GoogleConversionNames,
} from "@lease/contracts";
import { newUrlSecret, urlSecretHash, urlSecretMatches } from "@lease/platform";
import { amsterdamParts } from "./csv";

// Google Ads' offline conversion import file for click conversions ("Conversions from clicks"
// template, support.google.com/google-ads/answer/7014069): a `Parameters:TimeZone=` line, then the
// template's header, then one row per conversion with exactly one of the three click ids in its
// own column (Google refuses a row with more than one), and the template's consent columns ("Ad
// User Data", "Ad Personalization": Granted), which Google's EU user consent policy asks of every
// conversion from the EEA. Only leads whose visitor gave marketing consent are ever in the file, so
// both are always Granted.

/** One conversion of the file: a lead's event and the click that brought the lead. */
export interface GoogleConversionRow {
  clickIds: Pick<FormClickIds, "gclid" | "gbraid" | "wbraid">;
  event: ConversionEvent;
  at: Date;
  /** The commission of a signed contract; null: no value (Google then counts the action's own). */
  valueCents: number | null;
}

export const GOOGLE_ADS_PARAMETERS = `Parameters:TimeZone=${GOOGLE_ADS_TIME_ZONE}`;
export const GOOGLE_ADS_COLUMNS = [
  "Google Click ID",
  "GBRAID",
  "WBRAID",
  "Conversion Name",
  "Conversion Time",
  "Conversion Value",
  "Conversion Currency",
  "Ad User Data",
  "Ad Personalization",
] as const;

/** The consent columns' value: the file holds only leads with marketing consent. */
const GRANTED = "Granted";

/** A click id as Google issues them; anything else (a row stored before the check) is never written. */
const issued = (id: string | undefined): id is string => id !== undefined && GOOGLE_CLICK_ID_REGEX.test(id);

/**
 * The row's click id in its column: the gclid when there is one (Google prefers it), else the
 * wbraid (iOS, web conversions: ours), else the gbraid (iOS, app conversions); null without one.
 */
function clickColumns(ids: GoogleConversionRow["clickIds"]): [string, string, string] | null {
  if (issued(ids.gclid)) return [ids.gclid, "", ""];
  if (issued(ids.wbraid)) return ["", "", ids.wbraid];
  if (issued(ids.gbraid)) return ["", ids.gbraid, ""];
  return null;
}

/** "2026-07-01 14:00:00": the moment in Amsterdam's local time (summer and winter), as the file's time zone says. */
export function googleAdsTime(at: Date): string {
  const p = amsterdamParts(at);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** "1200.50": euros with a decimal point and no thousands separator, as Google reads a value. */
const googleAdsValue = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

/**
 * A CSV cell (RFC 4180): quoted, inner quotes doubled, only when it holds a comma, semicolon (Dutch
 * Excel's separator), quote or line break. A formula start is refused in a conversion name when it
 * is saved; one stored before that gets a "'" here (defuseFormulas), as in every other export.
 */
export function googleAdsCell(value: string): string {
  const text = defuseFormulas(value);
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file, UTF-8 without BOM (its first line must read `Parameters:`), CRLF line ends. */
export function googleAdsConversionsCsv(rows: GoogleConversionRow[], names: GoogleConversionNames): string {
  const lines = [GOOGLE_ADS_PARAMETERS, GOOGLE_ADS_COLUMNS.join(",")];
  for (const row of rows) {
    const click = clickColumns(row.clickIds);
    if (!click) continue;
    const cells = [
      ...click,
      names[row.event],
      googleAdsTime(row.at),
      googleAdsValue(row.valueCents),
      "EUR",
      GRANTED,
      GRANTED,
    ];
    lines.push(cells.map(googleAdsCell).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** The secret URL's secret (libs/platform secret-url.ts): shown once, stored as its SHA-256. */
export const newFeedSecret = newUrlSecret;
export const feedSecretHash = urlSecretHash;

/** Whether a URL's secret is the stored one; compared in constant time, and false without one. */
export const feedSecretMatches = (secret: string, storedHash: string | null): boolean =>
  urlSecretMatches(secret, storedHash, GOOGLE_ADS_FEED_SECRET);
