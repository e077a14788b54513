import { z } from "zod";
import { unsafeNameChar } from "../entities/common";
import { EURO_AMOUNT_MAX } from "../entities/lease-request";
import { hasCents } from "./lease-requests";
import { CalendarDate } from "./tracking";

/** The ad platforms whose spend exports are read (and typed in by hand). */
export const AD_PLATFORMS = ["meta", "tiktok", "snapchat", "google"] as const;
export const AdPlatform = z.enum(AD_PLATFORMS, {
  error: "Kies een platform: meta, tiktok, snapchat of google",
});
export type AdPlatform = z.infer<typeof AdPlatform>;

/** What the panel calls each platform. */
export const AD_PLATFORM_LABELS: Record<AdPlatform, string> = {
  meta: "Meta (Facebook, Instagram)",
  tiktok: "TikTok",
  snapchat: "Snapchat",
  google: "Google Ads",
};

/** An uploaded export may be this large (the route's body limit) and have this many lines. */
export const AD_SPEND_CSV_MAX_BYTES = 2 * 1024 * 1024;
export const AD_SPEND_CSV_MAX_LINES = 20_000;
/** A campaign name as the platforms allow it, at most this long. */
export const SPEND_CAMPAIGN_MAX = 200;

/** Refuses a name holding a control, reading-direction or unpaired surrogate character, saying which. */
export const safeName =
  (what: string) =>
  (value: string, ctx: z.RefinementCtx): void => {
    const bad = unsafeNameChar(value);
    if (bad) ctx.addIssue({ code: "custom", message: `${what} bevat ${bad}`, input: value });
  };

/**
 * A campaign name: trimmed and in Unicode's composed form (NFC), so "é" typed or pasted either way
 * is one name, as it is when read from an export (domain/spend-csv.ts in tracking).
 */
export const SpendCampaignName = z
  .string({ error: "Vul de campagnenaam in" })
  .trim()
  .overwrite((name) => name.normalize("NFC"))
  .min(1, { error: "Vul de campagnenaam in" })
  .max(SPEND_CAMPAIGN_MAX, { error: `Een campagnenaam mag hoogstens ${SPEND_CAMPAIGN_MAX} tekens zijn` })
  .superRefine(safeName("De campagnenaam"));

export const AdSpendImportBody = z
  .strictObject({
    csv: z
      .string({ error: "Stuur de export als tekst in csv" })
      .min(1, { error: "Het bestand is leeg" })
      .refine((csv) => !csv.includes("\0"), { error: "Het bestand bevat een ongeldig teken (NUL)" })
      .describe(
        "The export's text: Meta, TikTok, Snapchat or Google Ads, Dutch or English, one row per day and campaign",
      ),
  })
  .describe("A spend export to import");
export type AdSpendImportBody = z.infer<typeof AdSpendImportBody>;

export const AdSpendImportError = z.object({
  line: z.number().int().min(1).describe("The line in the file (1 is the first)"),
  message: z.string().describe("What is wrong with it, in Dutch"),
});
export type AdSpendImportError = z.infer<typeof AdSpendImportError>;

export const AdSpendImportResult = z
  .object({
    platform: AdPlatform.describe("The platform whose export it is, detected from its header"),
    imported: z.number().int().min(0).describe("Days of a campaign stored new or with a new amount"),
    unchanged: z.number().int().min(0).describe("Days of a campaign already stored with this amount"),
    errors: z.array(AdSpendImportError).describe("Rows not read, by line; the good rows are kept"),
  })
  .describe("What an import did; the same file again imports nothing");
export type AdSpendImportResult = z.infer<typeof AdSpendImportResult>;

const euros = z
  .number({ error: "Vul het bedrag in euro's in (een getal, bijvoorbeeld 125.5)" })
  .min(0, { error: "Het bedrag moet 0 of meer zijn" })
  .max(EURO_AMOUNT_MAX, { error: "Het bedrag is te groot" })
  .refine(hasCents, { error: "Gebruik hoogstens twee decimalen" });

export const AdSpendEntryBody = z
  .strictObject({
    platform: AdPlatform,
    day: CalendarDate.describe("The (Amsterdam) day of the spend"),
    campaign: SpendCampaignName.describe("The campaign's name on the platform"),
    amount: euros.describe("Euros spent that day"),
  })
  .describe("One day's spend of a campaign, typed in; replaces what was stored for that day");
export type AdSpendEntryBody = z.infer<typeof AdSpendEntryBody>;

export const AdSpendQuery = z
  .object({ from: CalendarDate, to: CalendarDate })
  .refine((q) => q.from <= q.to, { error: "De begindatum ligt na de einddatum", path: ["from"] });
export type AdSpendQuery = z.infer<typeof AdSpendQuery>;

export const AdSpendCampaign = z
  .object({
    platform: AdPlatform,
    campaign: z.string().describe("The name in the platform's export"),
    utmCampaign: z.string().describe("The utm_campaign it counts for: its link, else the same name"),
    linked: z.boolean().describe("A link to another utm_campaign is set"),
    amount: z.number().describe("Euros spent in the period"),
    days: z.number().int().min(0).describe("Days with spend in the period"),
  })
  .describe("A campaign's spend over a period");
export type AdSpendCampaign = z.infer<typeof AdSpendCampaign>;

export const AdSpendList = z
  .object({ items: z.array(AdSpendCampaign).describe("Most spent first, at most 1,000") })
  .describe("Spend per platform and campaign over a period");
export type AdSpendList = z.infer<typeof AdSpendList>;

export const UTM_CAMPAIGN_MAX = 100;

export const SpendLinkBody = z
  .strictObject({
    platform: AdPlatform,
    campaign: SpendCampaignName.describe("The name in the platform's export"),
    utmCampaign: z
      .string({ error: "Vul de utm_campaign in" })
      .trim()
      .overwrite((c) => c.normalize("NFC"))
      .min(1, { error: "Vul de utm_campaign in" })
      .max(UTM_CAMPAIGN_MAX, { error: `De utm_campaign mag hoogstens ${UTM_CAMPAIGN_MAX} tekens zijn` })
      .superRefine(safeName("De utm_campaign"))
      .nullable()
      .describe("The utm_campaign of the landing URLs; null removes the link"),
  })
  .describe(
    "Link a spend campaign name to the utm_campaign its ads land with (once; later imports follow it)",
  );
export type SpendLinkBody = z.infer<typeof SpendLinkBody>;
