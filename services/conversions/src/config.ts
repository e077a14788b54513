import { z } from "zod";
import { PRIVACY_RETENTION_DAYS } from "@lease/contracts";
import { baseConfigSchema, publicOriginSchema } from "@lease/platform";

const serviceUrl = (name: string) => z.url({ error: `${name} must be the http:// URL of the service` });

export const conversionsConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8085),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9085),
  SETTINGS_URL: serviceUrl("SETTINGS_URL"),
  LEADS_URL: serviceUrl("LEADS_URL"),
  /** The site's origin: the event's page when the lead has none (Meta requires one for website events). */
  PUBLIC_ORIGIN: publicOriginSchema,
  /** Each platform's API (tests point them at local receivers). */
  META_API_BASE_URL: z.url().default("https://graph.facebook.com"),
  /**
   * The Graph API version of the Conversions API call (/v<version>/<pixel id>/events); the default
   * is the newest in Meta's changelog (developers.facebook.com/docs/graph-api/changelog).
   */
  META_API_VERSION: z
    .string()
    .regex(/^\d+\.\d+$/, { error: "META_API_VERSION is a Graph API version such as 26.0" })
    .default("26.0"),
  TIKTOK_API_BASE_URL: z.url().default("https://business-api.tiktok.com"),
  SNAPCHAT_API_BASE_URL: z.url().default("https://tr.snapchat.com"),
  /** Google's Data Manager API (POST /v1/events:ingest) and its OAuth 2.0 token endpoint. */
  GOOGLE_CONVERSIONS_API_BASE_URL: z.url().default("https://datamanager.googleapis.com"),
  GOOGLE_OAUTH_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  /** How long one platform call may take before it counts as unreachable (and is tried again). */
  PLATFORM_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /**
   * Test events one admin may send a minute: each is a call to the ad platform on the broker's
   * account, which the platforms throttle (and Meta's test tool lists every one).
   */
  CONVERSION_TEST_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  WORKER_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
  /** Delivery records older than this are removed (the privacy policy's retention of leads). */
  CONVERSION_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(PRIVACY_RETENTION_DAYS),
});
export type ConversionsConfig = z.infer<typeof conversionsConfigSchema>;
