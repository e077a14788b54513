import { z } from "zod";
import { baseConfigSchema, publicOriginInProduction, publicOriginSchema } from "@lease/platform";

/** One URL, or several comma-separated (replicas; the gateway balances and skips dead ones). */
const serviceUrl = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .refine((v) => v.split(",").every((u) => /^https?:\/\/[^\s,]+$/.test(u.trim())), {
      error: `${name} must be the http:// URL of the service (several comma-separated for replicas)`,
    });

const wholeNumber = (name: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int({ error: `${name} must be a whole number` })
    .min(min, { error: `${name} must be at least ${min}` })
    .max(max, { error: `${name} must be at most ${max}` })
    .default(fallback);
const minutesOrCount = (name: string, fallback: number) => wholeNumber(name, 1, 10_080, fallback);

export const gatewayConfigSchema = baseConfigSchema
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9080),
    LEADS_URL: serviceUrl("LEADS_URL"),
    SETTINGS_URL: serviceUrl("SETTINGS_URL"),
    TRACKING_URL: serviceUrl("TRACKING_URL"),
    MAILER_URL: serviceUrl("MAILER_URL"),
    /** The conversions service (its one admin route: a platform's test event); unset, that route is a 503. */
    CONVERSIONS_URL: serviceUrl("CONVERSIONS_URL").optional(),
    /** The built web app (web/dist). Missing folder: the API still works, pages answer 503. */
    WEB_DIST_DIR: z.string().default("web/dist"),
    /** The site's own origin, e.g. https://lease.example.nl; required in production (else Host is used). */
    PUBLIC_ORIGIN: publicOriginSchema,
    /** The name authenticator apps show above the code (default "Beheer <host of PUBLIC_ORIGIN>"). */
    TOTP_ISSUER: z.string().trim().min(1).max(100).optional(),
    /** Comma-separated proxy addresses whose X-Forwarded-For is believed (a load balancer in front). */
    TRUSTED_PROXIES: z.string().default(""),
    /** How long to wait for a service's answer before 504. */
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
    /** Admin sign-in brake: failed attempts per username from one address within the window. */
    LOGIN_MAX_FAILURES: minutesOrCount("LOGIN_MAX_FAILURES", 5),
    /** Failed attempts per address within the window, whatever the usernames. */
    LOGIN_MAX_ADDRESS_FAILURES: minutesOrCount("LOGIN_MAX_ADDRESS_FAILURES", 20),
    LOGIN_WINDOW_MINUTES: minutesOrCount("LOGIN_WINDOW_MINUTES", 15),
    /** A first lockout; each further one of the same address doubles, up to LOGIN_MAX_LOCK_MINUTES. */
    LOGIN_LOCK_MINUTES: minutesOrCount("LOGIN_LOCK_MINUTES", 15),
    LOGIN_MAX_LOCK_MINUTES: minutesOrCount("LOGIN_MAX_LOCK_MINUTES", 60),
    /** Wrong second-factor codes per account (all addresses together) before app codes rest. */
    LOGIN_MAX_CODE_FAILURES: minutesOrCount("LOGIN_MAX_CODE_FAILURES", 10),
    /** The window of that bound; the cool-down lasts until it ends (only recovery codes then). */
    LOGIN_CODE_WINDOW_MINUTES: minutesOrCount("LOGIN_CODE_WINDOW_MINUTES", 60),
    /** Password checks (argon2id) at once in this process; the rest waits its turn. */
    LOGIN_HASH_CONCURRENCY: wholeNumber("LOGIN_HASH_CONCURRENCY", 1, 64, 1),
    /** Anonymous sign-ins that may wait for a turn; beyond that a 503 (priority ones always wait). */
    LOGIN_HASH_QUEUE: wholeNumber("LOGIN_HASH_QUEUE", 0, 1000, 8),
    /** How long a sign-in may wait for its turn before it is answered 503. */
    LOGIN_HASH_WAIT_MS: wholeNumber("LOGIN_HASH_WAIT_MS", 100, 30_000, 2000),
  })
  .refine((c) => c.LOGIN_MAX_LOCK_MINUTES >= c.LOGIN_LOCK_MINUTES, {
    error: "LOGIN_MAX_LOCK_MINUTES must be at least LOGIN_LOCK_MINUTES",
    path: ["LOGIN_MAX_LOCK_MINUTES"],
  })
  .refine(...publicOriginInProduction);
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
