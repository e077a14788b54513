import { z } from "zod";
import { IsoDateTime } from "../entities/common";
import { FormClickIds } from "./marketing";

// Conversions sent server-side to the ad platforms: the conversions service sends
// a lead's events to each platform switched on, and reports each outcome back to leads.

export const CONVERSION_PLATFORMS = ["meta", "tiktok", "snapchat", "google"] as const;
export const ConversionPlatform = z.enum(CONVERSION_PLATFORMS, {
  error: "Kies een platform: meta, tiktok, snapchat of google",
});
export type ConversionPlatform = z.infer<typeof ConversionPlatform>;

/** The platforms set up with a pixel id and one access token (Google has an account and credentials). */
export const TOKEN_PLATFORMS = ["meta", "tiktok", "snapchat"] as const;
export type TokenPlatform = (typeof TOKEN_PLATFORMS)[number];

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

/** A Google Ads customer id as Google Ads shows it ("123-456-7890") or as digits; stored as the 10 digits. */
const googleCustomerId = z
  .string({ error: "De klant-ID van Google Ads is tekst" })
  .trim()
  .regex(/^\d{3}-?\d{3}-?\d{4}$/, { error: "De klant-ID van Google Ads is 10 cijfers (123-456-7890)" })
  .transform((v) => v.replaceAll("-", ""));

/** A conversion action's numeric id (Google Ads: Doelen › Conversies › the action's "ctId"). */
const googleConversionActionId = z
  .string({ error: "Het ID van de conversieactie is tekst" })
  .trim()
  .regex(/^\d{1,20}$/, { error: "Het ID van een conversieactie bestaat uit cijfers" });

export const GOOGLE_SERVICE_ACCOUNT_KEY_MAX = 10_000;

/**
 * A service account's JSON key file as Google Cloud gives it: type service_account, client_email
 * and the RSA private key (PEM) are what the token request needs.
 */
const googleServiceAccountKey = z
  .string({ error: "De sleutel van het serviceaccount is de tekst van het JSON-sleutelbestand" })
  .max(GOOGLE_SERVICE_ACCOUNT_KEY_MAX, { error: "Het JSON-sleutelbestand mag hoogstens 10.000 tekens zijn" })
  .transform((text, ctx) => {
    let key: unknown;
    try {
      key = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: "custom", message: "Het sleutelbestand is geen geldige JSON" });
      return z.NEVER;
    }
    const k = key as Record<string, unknown>;
    const email = typeof k.client_email === "string" ? k.client_email.trim() : "";
    const pem = typeof k.private_key === "string" ? k.private_key : "";
    if (
      k.type !== "service_account" ||
      !/^[^\s@]{1,200}@[^\s@]{1,200}$/.test(email) ||
      !/^-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+-----END (RSA )?PRIVATE KEY-----\s*$/.test(pem)
    ) {
      ctx.addIssue({
        code: "custom",
        message:
          "Het sleutelbestand is geen sleutel van een serviceaccount (type service_account, client_email en private_key)",
      });
      return z.NEVER;
    }
    return { kind: "serviceAccount" as const, clientEmail: email, privateKey: pem };
  });

const oauthField = (name: string) =>
  z
    .string({ error: `${name} is tekst` })
    .trim()
    .min(1, { error: `${name} ontbreekt` })
    .max(2000, { error: `${name} mag hoogstens 2.000 tekens zijn` })
    .regex(/^[\x21-\x7e]+$/, { error: `${name} mag geen spaties of bijzondere tekens bevatten` });

/** The OAuth client and its refresh token (the developer token is accepted but the Data Manager API needs none). */
const googleOAuthClient = z
  .strictObject(
    {
      clientId: oauthField("De client-ID"),
      clientSecret: oauthField("Het clientgeheim"),
      refreshToken: oauthField("Het vernieuwingstoken"),
      developerToken: oauthField("Het ontwikkelaarstoken").optional(),
    },
    {
      error:
        "Geef de sleutel van een serviceaccount (serviceAccountKey) of een OAuth-client (clientId, clientSecret, refreshToken)",
    },
  )
  .transform(({ clientId, clientSecret, refreshToken }) => ({
    kind: "oauthClient" as const,
    clientId,
    clientSecret,
    refreshToken,
  }));

const CREDENTIALS_HINT =
  "Geef de sleutel van een serviceaccount (serviceAccountKey) of een OAuth-client (clientId, clientSecret, refreshToken)";
const googleServiceAccount = z
  .strictObject({ serviceAccountKey: googleServiceAccountKey }, { error: CREDENTIALS_HINT })
  .transform((v) => v.serviceAccountKey);

/**
 * Either kind, told apart by its fields (a service account's key file, else an OAuth client), so a
 * refusal names what is wrong with the kind that was meant.
 */
export const GoogleCredentialsBody = z
  .unknown()
  .transform((value, ctx) => {
    const serviceAccount = typeof value === "object" && value !== null && "serviceAccountKey" in value;
    const parsed = (serviceAccount ? googleServiceAccount : googleOAuthClient).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  })
  .describe(CREDENTIALS_HINT);

/** The credentials as stored (encrypted) and handed to the conversions service. */
export const GoogleCredentials = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("serviceAccount"), clientEmail: z.string(), privateKey: z.string() }),
  z.object({
    kind: z.literal("oauthClient"),
    clientId: z.string(),
    clientSecret: z.string(),
    refreshToken: z.string(),
  }),
]);
export type GoogleCredentials = z.infer<typeof GoogleCredentials>;

const GoogleConversionActions = z.object({
  lead: z.string().nullable(),
  offerte: z.string().nullable(),
  getekend: z.string().nullable(),
});

export const GoogleConversionSettingsBody = z.strictObject({
  enabled: z.boolean({ error: "enabled is true of false" }).optional(),
  customerId: googleCustomerId
    .nullable()
    .optional()
    .describe("The Google Ads account (customer id); null removes it"),
  conversionActions: z
    .strictObject({
      lead: googleConversionActionId.nullable().optional(),
      offerte: googleConversionActionId.nullable().optional(),
      getekend: googleConversionActionId.nullable().optional(),
    })
    .optional()
    .describe("Each event's conversion action id (type UPLOAD_CLICKS); null removes one, absent keeps it"),
  credentials: GoogleCredentialsBody.nullable()
    .optional()
    .describe(
      'Service account ({ "serviceAccountKey": "<the JSON key file>" }) or OAuth client ({ clientId, clientSecret, refreshToken }); null removes them; never answered back',
    ),
});
export type GoogleConversionSettingsBody = z.infer<typeof GoogleConversionSettingsBody>;
/** What the panel sends for Google (before the server's parsing: the key file as text). */
export type GoogleConversionSettingsInput = z.input<typeof GoogleConversionSettingsBody>;

export const UpdateConversionSettingsBody = z
  .strictObject({
    meta: PlatformConversionSettingsBody.optional(),
    tiktok: PlatformConversionSettingsBody.optional(),
    snapchat: PlatformConversionSettingsBody.optional(),
    google: GoogleConversionSettingsBody.optional(),
  })
  .describe("Partial update per platform: only what is sent changes");
export type UpdateConversionSettingsBody = z.infer<typeof UpdateConversionSettingsBody>;
export type UpdateConversionSettingsInput = z.input<typeof UpdateConversionSettingsBody>;

const PlatformConversionSettings = z.object({
  enabled: z.boolean(),
  tokenSet: z.boolean().describe("An access token is stored (it is never answered)"),
  pixelIdSet: z.boolean().describe("The platform's pixel id is set in the pixel settings"),
});
const GoogleConversionSettings = z.object({
  enabled: z.boolean(),
  customerId: z.string().nullable().describe("The Google Ads customer id (10 digits)"),
  conversionActions: GoogleConversionActions.describe("Each event's conversion action id"),
  credentialsSet: z.boolean().describe("Credentials are stored (they are never answered)"),
  credentialsKind: z
    .enum(["serviceAccount", "oauthClient"])
    .nullable()
    .describe("Which kind of credentials is stored"),
});
export const ConversionSettings = z
  .object({
    meta: PlatformConversionSettings,
    tiktok: PlatformConversionSettings,
    snapchat: PlatformConversionSettings,
    google: GoogleConversionSettings,
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
  google: z.object({
    enabled: z.boolean(),
    customerId: z.string().nullable(),
    conversionActions: GoogleConversionActions,
    credentials: GoogleCredentials.nullable(),
    /** Credentials are stored that the encryption key cannot open. */
    credentialsUnreadable: z.boolean().default(false),
  }),
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

/** A platform's test code as its test tool shows it (Meta's Test Events, TikTok's test events). */
export const TEST_EVENT_CODE_REGEX = /^[A-Za-z0-9]{4,64}$/;

export const ConversionPlatformParam = z.object({ platform: ConversionPlatform });

export const ConversionTestBody = z
  .strictObject({
    testEventCode: z
      .string({ error: "De testcode is tekst" })
      .trim()
      .regex(TEST_EVENT_CODE_REGEX, {
        error: "De testcode bestaat uit 4 tot 64 letters en cijfers (zoals TEST12345)",
      })
      .optional()
      .describe(
        "Meta's and TikTok's test_event_code (required for them: without it the event would count); Snapchat and Google validate without counting",
      ),
  })
  .describe("Send one test event to the platform's test tool");
export type ConversionTestBody = z.infer<typeof ConversionTestBody>;

export const ConversionTestResult = z
  .object({
    platform: ConversionPlatform,
    ok: z.boolean().describe("The platform took (or validated) the test event"),
    status: z.number().int().nullable().describe("The platform's HTTP status; null when it was not reached"),
    message: z.string().describe("The platform's own answer, or why it could not be reached"),
    matchKeys: z.array(MatchKey).describe("The match keys the test event carried"),
  })
  .describe("What the platform answered to a test event");
export type ConversionTestResult = z.infer<typeof ConversionTestResult>;
