import { z } from "zod";
import { PRIVACY_RETENTION_DAYS } from "@lease/contracts";
import { baseConfigSchema } from "@lease/platform";

export const leadsConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9081),
  /** Submissions per client IP per window (lease requests and contact messages each). */
  LEAD_RATE_LIMIT: z.coerce.number().int().min(1).default(5),
  LEAD_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  /** The gateway's address(es), comma-separated: X-Forwarded-For is only believed from these. */
  TRUSTED_PROXIES: z.string().default("127.0.0.1,::1"),
  /** How often the outbox relay looks for rows nobody nudged it about. */
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(200),
  /** How often each replica looks for leads that passed their response deadline (announced once). */
  OVERDUE_SCAN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Lease requests and contact messages are removed this many days after receipt (privacy policy). */
  LEAD_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(PRIVACY_RETENTION_DAYS),
});
export type LeadsConfig = z.infer<typeof leadsConfigSchema>;
