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
  DATABASE_URL: z.url({ error: "DATABASE_URL must be a postgres:// URL" }),
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
