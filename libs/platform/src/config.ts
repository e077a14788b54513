import { z } from "zod";

/** Raised when the environment does not satisfy a service's config schema; names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

const secret = (name: string, minLength: number) =>
  z
    .string({ error: `${name} is required` })
    .min(minLength, { error: `${name} must be at least ${minLength} characters of random data` })
    .refine((v) => new Set(v).size >= 8, { error: `${name} is too weak (too few distinct characters)` });

const migrateOnStartSchema = z
  .stringbool({ error: "MIGRATE_ON_START must be 1/true/on or 0/false/off" })
  .default(true);

/** MIGRATE_ON_START of `env`, for a command that does not load a whole service config (the admin CLI). */
export function migrateOnStart(env: NodeJS.ProcessEnv = process.env): boolean {
  return loadConfig(z.object({ MIGRATE_ON_START: migrateOnStartSchema }), env).MIGRATE_ON_START;
}

/** Variables every service reads. Services extend this with their own. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535),
  /** Prometheus scrapes GET /metrics on this port, a listener apart from PORT (0: any free port). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535),
  /** The metrics listener's address: loopback locally, 0.0.0.0 in a container Prometheus scrapes. */
  METRICS_HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z.url({ error: "DATABASE_URL must be a postgres:// URL" }),
  /**
   * Connections the service's pool may open at once. Every replica of every service has its own
   * pool: their sum must stay under PostgreSQL's max_connections (100 by default).
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  REDIS_URL: z.url({ error: "REDIS_URL must be a redis:// URL" }),
  /** Namespaces every Redis key, queue and channel, so test runs (and tenants) never collide. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/i)
    .default("lease"),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  JWT_SECRET: secret("JWT_SECRET", 32),
  INTERNAL_TOKEN: secret("INTERNAL_TOKEN", 32),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(16 * 1024),
  /** A client must send its request headers within this time (slow-header attacks). */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
  /**
   * Apply the service's migrations when it starts (local runs). Off in production: the migration
   * Job applies them with a role of its own, and the service only checks that none is pending.
   */
  MIGRATE_ON_START: migrateOnStartSchema,
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

export const secretSchema = secret;

/**
 * The site's own origin (PUBLIC_ORIGIN), against which the CSRF and WebSocket Origin checks are
 * made. Without it they compare with the request's Host header, which a client writes itself:
 * acceptable on a developer's machine, refused in production (the start stops instead).
 */
export const publicOriginSchema = z
  .url({ error: "PUBLIC_ORIGIN must be the site's origin, e.g. https://lease.example.nl" })
  .optional();

export const PUBLIC_ORIGIN_REQUIRED =
  "PUBLIC_ORIGIN is required with NODE_ENV=production (the site's origin, e.g. https://lease.example.nl): without it the CSRF and WebSocket origin checks would trust the request's Host header";

/** Refinement for a service config with PUBLIC_ORIGIN: set it, or do not run in production. */
export const publicOriginInProduction: [
  (c: { NODE_ENV: string; PUBLIC_ORIGIN?: string }) => boolean,
  { error: string; path: string[] },
] = [
  (c) => c.NODE_ENV !== "production" || Boolean(c.PUBLIC_ORIGIN),
  { error: PUBLIC_ORIGIN_REQUIRED, path: ["PUBLIC_ORIGIN"] },
];

/** Parses `env` with `schema`; a missing or weak value throws a ConfigError naming the variable. */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path.join(".");
    return issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`;
  });
  throw new ConfigError(problems);
}
