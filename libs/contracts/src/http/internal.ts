import { z } from "zod";
import { IsoDateTime } from "../entities/common";
import { PublicCompanySettings } from "../entities/company-settings";
import { LeaseRequest } from "../entities/lease-request";
import { ApiError } from "./errors";

// Service-to-service answers on /internal/* routes (never reached through the gateway; they need
// the INTERNAL_TOKEN header). They may carry data the public API never shows.

/** Every service's liveness probe (GET /healthz): the process answers. */
export const HealthAnswer = z.object({ status: z.literal("ok"), service: z.string() });
export type HealthAnswer = z.infer<typeof HealthAnswer>;

/** Every service's readiness probe (GET /readyz), up or down only: which check failed is the metrics port's. */
export const ReadinessAnswer = z.object({ status: z.enum(["ready", "not_ready"]) });
export type ReadinessAnswer = z.infer<typeof ReadinessAnswer>;

/** settings → mailer: the decrypted provider key and sender, plus the company details for mail bodies. */
export const InternalMailSettings = z.object({
  sendgridApiKey: z.string().nullable(),
  /** A key is stored but cannot be decrypted (sendgridApiKey is then null): nothing can be sent. */
  sendgridApiKeyUnreadable: z.boolean().default(false),
  fromEmailAddress: z.string().nullable(),
  /** Absent from a settings service of before the switch: the notification stays on. */
  notifyCompanyEmail: z.boolean().default(true),
  company: PublicCompanySettings,
});
export type InternalMailSettings = z.infer<typeof InternalMailSettings>;

/** leads → mailer: one lease request, for the inbox entry and the company notification. */
export const InternalLeaseRequest = LeaseRequest;
export type InternalLeaseRequest = z.infer<typeof InternalLeaseRequest>;

/** mailer → leads: a contact message's sender was answered by e-mail at `at`. */
export const InternalFirstResponseBody = z.strictObject({
  at: IsoDateTime,
  kind: z.literal("email"),
});
export type InternalFirstResponseBody = z.infer<typeof InternalFirstResponseBody>;

/** leads → mailer: one message of the public contact form. */
export const InternalContactMessage = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  message: z.string(),
  createdAt: z.string(),
});
export type InternalContactMessage = z.infer<typeof InternalContactMessage>;

/** The largest visit beacon body the gateway accepts (a real one is a few hundred bytes). */
export const TRACK_BEACON_MAX_BYTES = 16 * 1024;

/**
 * gateway → tracking: the visit beacons (POST /api/track/visit and /heartbeat, answered by the
 * gateway) that arrived together, forwarded in one call: tracking's one ingest route. Each hit
 * carries the visitor's raw JSON body and what tracking needs from the request; tracking validates
 * each and answers each.
 */
export const InternalTrackHit = z.strictObject({
  kind: z.enum(["visit", "heartbeat"]),
  /** The visitor's request body, unparsed (tracking answers invalid JSON with the usual 400). */
  body: z.string().max(TRACK_BEACON_MAX_BYTES),
  /** The visitor's address as the gateway determined it (trusted proxies applied). */
  ip: z.string().max(64),
  userAgent: z
    .string()
    .max(16 * 1024)
    .optional(),
  cookie: z
    .string()
    .max(16 * 1024)
    .optional(),
  requestId: z.string().max(128).optional(),
});
export type InternalTrackHit = z.infer<typeof InternalTrackHit>;

export const TRACK_BATCH_PATH = "/internal/track/batch";
export const TRACK_BATCH_MAX_HITS = 128;

export const InternalTrackBatch = z.strictObject({
  hits: z.array(InternalTrackHit).min(1).max(TRACK_BATCH_MAX_HITS),
});
export type InternalTrackBatch = z.infer<typeof InternalTrackBatch>;

/** One answer per hit, in order: the status and (for an error) the body the visitor gets. */
export const InternalTrackResult = z.object({
  status: z.number().int().min(200).max(599),
  error: ApiError.optional(),
  headers: z.record(z.string(), z.string()).optional(),
});
export type InternalTrackResult = z.infer<typeof InternalTrackResult>;

export const InternalTrackBatchResult = z.object({ results: z.array(InternalTrackResult) });
export type InternalTrackBatchResult = z.infer<typeof InternalTrackBatchResult>;
