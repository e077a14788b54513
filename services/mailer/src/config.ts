import { z } from "zod";
import { INBOUND_BODY_LIMIT_BYTES, PRIVACY_RETENTION_DAYS } from "@lease/contracts";
import { baseConfigSchema, publicOriginSchema } from "@lease/platform";

const serviceUrl = (name: string) => z.url({ error: `${name} must be the http:// URL of the service` });

export const mailerConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8084),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9084),
  SENDGRID_API_BASE_URL: z.url().default("https://api.sendgrid.com"),
  SETTINGS_URL: serviceUrl("SETTINGS_URL"),
  LEADS_URL: serviceUrl("LEADS_URL"),
  /** The campaign report for the weekly summary; absent, the summary says campaign figures are unavailable. */
  TRACKING_URL: serviceUrl("TRACKING_URL").optional(),
  /** The site's origin: the company's notification links to the lead in the admin panel there. */
  PUBLIC_ORIGIN: publicOriginSchema,
  /** How long the mail settings from the settings service are kept (also dropped on change events). */
  MAIL_SETTINGS_CACHE_MS: z.coerce.number().int().min(0).default(60_000),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(10),
  /** Short, so a killed worker's jobs come back within seconds. */
  WORKER_LOCK_MS: z.coerce.number().int().min(500).default(5_000),
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(5_000),
  /** A send claim older than this belongs to a dead worker: marked failed, never resent. */
  SEND_STALE_CLAIM_MS: z.coerce.number().int().min(1000).default(60_000),
  /** How often queued e-mails whose enqueue failed (Redis down) are queued again, and replies whose sender leads could not look up are matched. */
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** E-mails (inbox, sent mail, delivery records) are removed this many days after they were made (privacy policy). */
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(PRIVACY_RETENTION_DAYS),
  /**
   * The process's scheduling niceness (0-19). Sending e-mail and logging the inbox is background
   * work: on a machine shared with the processes that answer visitors, it yields the CPU to them, so
   * a burst of quotes is accepted first and logged a moment later. 0 turns it off.
   */
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /** Proxies (the gateway) whose X-Forwarded-For names the client, for the webhooks' rate limit. */
  TRUSTED_PROXIES: z.string().default("127.0.0.1,::1"),
  /** Inbound Parse posts per client address (SendGrid's senders) and window; more answer 429 and are retried. */
  INBOUND_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
  INBOUND_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** An Inbound Parse post's body at most (SendGrid's 30 MB and the form around it; lower to refuse less). */
  INBOUND_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(INBOUND_BODY_LIMIT_BYTES)
    .default(INBOUND_BODY_LIMIT_BYTES),
  /** Inbound Parse posts read at once (each up to 32 MB in memory); more answer 503 and are retried. */
  INBOUND_MAX_CONCURRENT: z.coerce.number().int().min(1).max(64).default(4),
  /** Received attachments' bytes kept in all (5 GiB); past it a message is kept without the bytes that do not fit. */
  MAIL_ATTACHMENTS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(5 * 1024 ** 3),
});
export type MailerConfig = z.infer<typeof mailerConfigSchema>;
