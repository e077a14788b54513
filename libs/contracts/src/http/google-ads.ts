import { z } from "zod";
import { IsoDateTime } from "../entities/common";
import { mayReadAsFormula } from "../csv";
import type { ConversionEvent } from "./conversions";

// Google Ads hears of a lead's events through a file, not an API call: the
// offline conversion import template for clicks, downloaded in the panel or fetched by Google Ads'
// scheduled upload from a secret URL. Leads builds it from its own rows (click ids, stages).

/** Google accepts a click's conversions for 90 days after the click; older rows are never in the file. */
export const GOOGLE_ADS_IMPORT_WINDOW_DAYS = 90;

/** The file's time zone (its `Parameters:TimeZone=` line); conversion times are local to it. */
export const GOOGLE_ADS_TIME_ZONE = "Europe/Amsterdam";

/** The conversion actions' names in Google Ads until staff set their own (type "Import from clicks"). */
export const DEFAULT_GOOGLE_CONVERSION_NAMES: Record<ConversionEvent, string> = {
  lead: "Offerteaanvraag",
  offerte: "Offerte verstuurd",
  getekend: "Contract getekend",
};

/** The secret URL's path before the secret; the path is `${prefix}${secret}.csv`. */
export const GOOGLE_ADS_FEED_PREFIX = "/api/google-ads/conversions/";
export const googleAdsFeedPath = (secret: string) => `${GOOGLE_ADS_FEED_PREFIX}${secret}.csv`;
/** 32 random bytes, base64url: what a feed secret looks like (anything else is no secret). */
export const GOOGLE_ADS_FEED_SECRET = /^[A-Za-z0-9_-]{43}$/;

const NAME_MESSAGE = "Vul de naam van de conversieactie in Google Ads in";
const conversionName = z
  .string({ error: NAME_MESSAGE })
  .trim()
  .min(1, { error: NAME_MESSAGE })
  .max(100, { error: "Een conversienaam mag hoogstens 100 tekens zijn" })
  .regex(/^[^\p{Cc}]*$/u, { error: "Een conversienaam mag geen regeleinden of tabs bevatten" })
  // Kept exactly as Google Ads names the action, so never made formula-safe with a leading "'":
  // refused instead when a spreadsheet could read a formula in it, also after a "," or ";" where
  // an import (Dutch Excel: ";") splits the line.
  .regex(/^[^=+\-@]/, { error: "Een conversienaam mag niet beginnen met =, +, - of @", abort: true })
  .refine((name) => !mayReadAsFormula(name), {
    error:
      "Een conversienaam mag na een komma of puntkomma niet verdergaan met =, +, - of @; pas de naam ook in Google Ads aan",
  });

export const GoogleConversionNames = z.object({
  lead: z.string().describe("The quote request's arrival"),
  offerte: z.string().describe("An offer sent"),
  getekend: z.string().describe("A contract signed (its value: the commission)"),
});
export type GoogleConversionNames = z.infer<typeof GoogleConversionNames>;

export const GoogleAdsSettings = z
  .object({
    conversionNames: GoogleConversionNames,
    feedUrlSet: z.boolean().describe("A secret URL exists (it is shown once, when made)"),
    feedRotatedAt: IsoDateTime.nullable().describe("When the current secret URL was made"),
    feedFetchedAt: IsoDateTime.nullable().describe("When the current secret URL was last fetched"),
    importWindowDays: z.number().int().describe("Only leads whose click is this recent are in the file"),
  })
  .describe("The Google Ads offline conversion file: its conversion names and secret URL");
export type GoogleAdsSettings = z.infer<typeof GoogleAdsSettings>;

export const UpdateGoogleAdsSettingsBody = z
  .strictObject({
    conversionNames: z
      .strictObject({
        lead: conversionName.optional(),
        offerte: conversionName.optional(),
        getekend: conversionName.optional(),
      })
      .optional(),
  })
  .describe("The conversion actions' names as Google Ads knows them; only what is sent changes");
export type UpdateGoogleAdsSettingsBody = z.infer<typeof UpdateGoogleAdsSettingsBody>;

export const RotateGoogleAdsFeedBody = z.strictObject({}).describe("Nothing: a new secret is made");

export const GoogleAdsFeedUrl = z
  .object({
    path: z.string().describe("The secret URL's path on the site (prefix it with the site's origin)"),
    rotatedAt: IsoDateTime,
  })
  .describe("The new secret URL, answered this once; the previous one stops working at once");
export type GoogleAdsFeedUrl = z.infer<typeof GoogleAdsFeedUrl>;

export const GoogleAdsFeedParam = z.object({
  secret: z.string().describe("The secret of the URL; a wrong one answers 404"),
});
