import { z } from "zod";
import { IsoDateTime } from "../entities/common";
import { FormClickIds } from "./marketing";

// Conversions sent server-side to the ad platforms (issue 35 item 4): the conversions service sends
// a lead's events to each platform switched on, and reports each outcome back to leads.

export const CONVERSION_PLATFORMS = ["meta", "tiktok", "snapchat"] as const;
export const ConversionPlatform = z.enum(CONVERSION_PLATFORMS, {
  error: "Kies een platform: meta, tiktok of snapchat",
});
export type ConversionPlatform = z.infer<typeof ConversionPlatform>;

/** The lead's events the platforms hear of: its arrival, an offer, a signed contract. */
export const CONVERSION_EVENTS = ["lead", "offerte", "getekend"] as const;
export const ConversionEvent = z.enum(CONVERSION_EVENTS);
export type ConversionEvent = z.infer<typeof ConversionEvent>;

export const CONVERSION_STATUSES = ["sent", "waiting", "failed"] as const;
export const ConversionStatus = z.enum(CONVERSION_STATUSES);
export type ConversionStatus = z.infer<typeof ConversionStatus>;

/**
 * What an event can carry to match it to a person on the platform: the hashed e-mail and phone,
 * the ad's click id, Meta's browser id (fbp), the visitor's address, the hashed lead id and the
 * hashed country. The lead's conversions list shows which ones each event carried.
 */
export const MATCH_KEYS = ["email", "phone", "click_id", "fbp", "ip", "external_id", "country"] as const;
export const MatchKey = z.enum(MATCH_KEYS);
export type MatchKey = z.infer<typeof MatchKey>;

export const ConversionDelivery = z
  .object({
    platform: ConversionPlatform,
    event: ConversionEvent,
    status: ConversionStatus.describe("sent; waiting (queued, or retrying after a failure); failed for good"),
    at: IsoDateTime.describe("When this status was reached"),
    error: z.string().optional().describe("Why it is not sent (yet), with the platform's own message"),
    matchKeys: z
      .array(MatchKey)
      .default([])
      .describe("The match keys the event carried (empty until it was built once)"),
  })
  .describe("One event of a lead sent (or being sent) to one ad platform");
export type ConversionDelivery = z.infer<typeof ConversionDelivery>;

const platformToken = z
  .string({ error: "Het toegangstoken is tekst" })
  .trim()
  .min(10, { error: "Het toegangstoken is te kort" })
  .max(1000, { error: "Het toegangstoken mag hoogstens 1.000 tekens zijn" })
  .regex(/^[\x21-\x7e]+$/, { error: "Het toegangstoken mag geen spaties of bijzondere tekens bevatten" });

export const PlatformConversionSettingsBody = z.strictObject({
  enabled: z.boolean({ error: "enabled is true of false" }).optional(),
  accessToken: platformToken
    .nullable()
    .optional()
    .describe("The platform's Conversions API access token; null removes it; absent keeps it"),
});

export const UpdateConversionSettingsBody = z
  .strictObject({
    meta: PlatformConversionSettingsBody.optional(),
    tiktok: PlatformConversionSettingsBody.optional(),
    snapchat: PlatformConversionSettingsBody.optional(),
  })
  .describe("Partial update per platform: only what is sent changes");
export type UpdateConversionSettingsBody = z.infer<typeof UpdateConversionSettingsBody>;

const PlatformConversionSettings = z.object({
  enabled: z.boolean(),
  tokenSet: z.boolean().describe("An access token is stored (it is never answered)"),
  pixelIdSet: z.boolean().describe("The platform's pixel id is set in the pixel settings"),
});
export const ConversionSettings = z
  .object({
    meta: PlatformConversionSettings,
    tiktok: PlatformConversionSettings,
    snapchat: PlatformConversionSettings,
  })
  .describe("Which platforms receive the leads' conversions; tokens are stored encrypted and never answered");
export type ConversionSettings = z.infer<typeof ConversionSettings>;

const InternalPlatformSettings = z.object({
  enabled: z.boolean(),
  pixelId: z.string().nullable(),
  accessToken: z.string().nullable(),
  /** A token is stored that the encryption key cannot open: nothing can be sent until it is entered again. */
  tokenUnreadable: z.boolean().default(false),
});
/** settings → conversions: each platform's switch, pixel id and token in clear. */
export const InternalConversionSettings = z.object({
  meta: InternalPlatformSettings,
  tiktok: InternalPlatformSettings,
  snapchat: InternalPlatformSettings,
});
export type InternalConversionSettings = z.infer<typeof InternalConversionSettings>;

/** leads → conversions: what a lead's events are sent with (marketing consent only). */
export const InternalLeadConversion = z.object({
  id: z.uuid(),
  marketingConsent: z.boolean(),
  email: z.string(),
  phone: z.string(),
  clickIds: FormClickIds.nullable(),
  userAgent: z.string().nullable(),
  pageUrl: z.string().nullable(),
  /** The Meta pixel's browser id the form sent (its _fbp cookie). */
  fbp: z.string().nullable().default(null),
  /** The visitor's address when the form was sent, while the arrival is still to be sent. */
  clientIp: z.string().nullable().default(null),
  createdAt: IsoDateTime,
});
export type InternalLeadConversion = z.infer<typeof InternalLeadConversion>;

export const RetryConversionsBody = z
  .strictObject({ platform: ConversionPlatform.optional() })
  .describe("Send the lead's failed events again (to one platform, or every one)");
export type RetryConversionsBody = z.infer<typeof RetryConversionsBody>;
