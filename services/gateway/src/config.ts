import { z } from "zod";
import { baseConfigSchema } from "@lease/platform";

/** One URL, or several comma-separated (replicas; the gateway balances and skips dead ones). */
const serviceUrl = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .refine((v) => v.split(",").every((u) => /^https?:\/\/[^\s,]+$/.test(u.trim())), {
      error: `${name} must be the http:// URL of the service (several comma-separated for replicas)`,
    });

export const gatewayConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  LEADS_URL: serviceUrl("LEADS_URL"),
  SETTINGS_URL: serviceUrl("SETTINGS_URL"),
  TRACKING_URL: serviceUrl("TRACKING_URL"),
  MAILER_URL: serviceUrl("MAILER_URL"),
  /** The built web app (web/dist). Missing folder: the API still works, pages answer 503. */
  WEB_DIST_DIR: z.string().default("web/dist"),
  /** The site's own origin, e.g. https://lease.example.nl; when unset the request's Host is used. */
  PUBLIC_ORIGIN: z.url().optional(),
  /** Comma-separated proxy addresses whose X-Forwarded-For is believed (a load balancer in front). */
  TRUSTED_PROXIES: z.string().default(""),
  /** How long to wait for a service's answer before 504. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
});
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
