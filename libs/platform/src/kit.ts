import type Router from "@koa/router";
import type Koa from "koa";
import { createApp, withTimeout, type FastPath, type ReadinessCheck, type ServiceApp } from "./app";
import type { BaseConfig } from "./config";
import { createLogger, type Logger } from "./logger";
import { createDatabase, createPool, pingPostgres, prepareSchema, type Database, type Pool } from "./pg";
import {
  closeRedis,
  createRedis,
  keyspace,
  pingRedis,
  type Keyspace,
  type Redis,
  type RedisRole,
} from "./redis";
import { startMetricsServer } from "./metrics";
import { startHttpServer, type RunningServer, type UpgradeHandler } from "./server";
import type { SessionDeps } from "./session";
import { StartupError } from "./errors";
import { isServiceName, mountContractRoutes, type ContractRouter } from "./routes";

/** What every service has: config, logs, Postgres, Redis (by role), key namespace, session check. */
export interface Kit<C extends BaseConfig = BaseConfig> {
  name: string;
  config: C;
  logger: Logger;
  pool: Pool;
  db: Database;
  redis: Redis;
  keys: Keyspace;
  session: SessionDeps;
  /** A dedicated connection for SUBSCRIBE (created on first use). */
  subscriber(): Redis;
  /** A dedicated connection for BullMQ (created on first use). */
  bullConnection(): Redis;
  readiness: Record<string, ReadinessCheck>;
  close(): Promise<void>;
}

export interface KitOptions {
  logger?: Logger;
  migrationsFolder?: string | URL;
  poolSize?: number;
}

export async function createKit<C extends BaseConfig>(
  name: string,
  config: C,
  opts: KitOptions = {},
): Promise<Kit<C>> {
  const logger = opts.logger ?? createLogger(name, config.LOG_LEVEL);
  const pool = createPool(config.DATABASE_URL, logger, opts.poolSize ?? config.DATABASE_POOL_MAX);
  try {
    await withTimeout(pingPostgres(pool), 5000);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new StartupError(
      `cannot reach PostgreSQL at ${redactUrl(config.DATABASE_URL)}: ${(err as Error).message}`,
    );
  }
  if (opts.migrationsFolder) {
    try {
      await prepareSchema(pool, name, opts.migrationsFolder, config.MIGRATE_ON_START);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw new StartupError((err as Error).message);
    }
  }
  const redis = createRedis(config.REDIS_URL, "commands", logger);
  try {
    await waitForReady(redis, 5000);
  } catch (err) {
    redis.disconnect();
    await pool.end().catch(() => undefined);
    throw new StartupError(`cannot reach Redis at ${redactUrl(config.REDIS_URL)}: ${(err as Error).message}`);
  }
  const extra: Redis[] = [];
  let subscriber: Redis | undefined;
  let bull: Redis | undefined;
  const keys = keyspace(config.REDIS_PREFIX);
  return {
    name,
    config,
    logger,
    pool,
    db: createDatabase(pool),
    redis,
    keys,
    session: { redis, keys, jwtSecret: config.JWT_SECRET },
    subscriber() {
      if (!subscriber) extra.push((subscriber = createRedis(config.REDIS_URL, "subscriber", logger)));
      return subscriber;
    },
    bullConnection() {
      if (!bull) extra.push((bull = createRedis(config.REDIS_URL, "bullmq", logger)));
      return bull;
    },
    readiness: {
      postgres: () => pingPostgres(pool),
      redis: () => pingRedis(redis),
    },
    async close() {
      await Promise.all([redis, ...extra].map(closeRedis));
      await pool.end().catch(() => undefined);
    },
  };
}

export interface StartOptions {
  /**
   * The service's handlers, in groups made with contractRouter(); together they must answer every
   * contract route of the service (else a StartupError). A bare Koa router only for a kit that is
   * no service of the contract (the platform's own tests).
   */
  routes: readonly ContractRouter[] | Router;
  before?: Koa.Middleware[];
  outer?: Koa.Middleware[];
  onUpgrade?: UpgradeHandler;
  /** A handler in front of Koa for one hot request kind, given the app for metrics and in-flight counts. */
  fastPath?: (app: ServiceApp) => FastPath;
  /** Extra readiness checks beyond Postgres and Redis. */
  readiness?: Record<string, ReadinessCheck>;
  /** Run after the HTTP server has drained, before Redis and Postgres close (workers, relays...). */
  onStop?: Array<() => Promise<void>>;
  host?: string;
  port?: number;
  /** false at the public edge: a client's traceparent header does not continue a trace. */
  traceFromHeaders?: boolean;
}

export interface RunningService {
  url: string;
  port: number;
  /** GET /metrics on the metrics listener (METRICS_PORT), never on the public port. */
  metricsUrl: string;
  /** GET /readyz with each check's outcome, on the metrics listener (the readiness probe's). */
  readyUrl: string;
  http: RunningServer;
  app: ServiceApp;
  stop(): Promise<void>;
}

export async function startService(kit: Kit, opts: StartOptions): Promise<RunningService> {
  const port = opts.port ?? kit.config.PORT;
  if (port !== 0 && port === kit.config.METRICS_PORT)
    throw new StartupError(`METRICS_PORT (${port}) must differ from PORT: metrics are not served publicly`);
  let mounted: { parsed: Router; raw?: Router };
  try {
    mounted = Array.isArray(opts.routes)
      ? mountContractRoutes(kit.name, opts.routes as readonly ContractRouter[], {
          checkAnswers: kit.config.NODE_ENV === "test",
        })
      : bareRouter(kit.name, opts.routes as Router);
  } catch (err) {
    await kit.close();
    throw err;
  }
  const app = createApp({
    service: kit.name,
    logger: kit.logger,
    routes: mounted.parsed,
    rawRoutes: mounted.raw,
    before: opts.before,
    outer: opts.outer,
    readiness: { ...kit.readiness, ...opts.readiness },
    bodyLimitBytes: kit.config.BODY_LIMIT_BYTES,
    traceFromHeaders: opts.traceFromHeaders,
  });
  const http = await startHttpServer(app, {
    host: opts.host ?? kit.config.HOST,
    port,
    logger: kit.logger,
    onUpgrade: opts.onUpgrade,
    headersTimeoutMs: kit.config.HEADERS_TIMEOUT_MS,
    fastPath: opts.fastPath?.(app),
  });
  const metrics = await startMetricsServer(app.metrics.registry, {
    host: kit.config.METRICS_HOST,
    port: kit.config.METRICS_PORT,
    logger: kit.logger,
    service: kit.name,
    readiness: () => app.readiness(),
  }).catch(async (err: Error) => {
    await http.close(0);
    throw new StartupError(`cannot serve metrics on port ${kit.config.METRICS_PORT}: ${err.message}`);
  });
  kit.logger.info({ url: http.url, metrics: metrics.url }, `${kit.name} listening`);
  let stopping: Promise<void> | undefined;
  return {
    url: http.url,
    port: http.port,
    metricsUrl: metrics.url,
    readyUrl: metrics.url.replace(/\/metrics$/, "/readyz"),
    http,
    app,
    stop() {
      stopping ??= (async () => {
        const deadline = kit.config.SHUTDOWN_TIMEOUT_MS;
        await http.close(deadline);
        for (const hook of opts.onStop ?? []) {
          await withTimeout(hook(), deadline).catch((err: Error) =>
            kit.logger.warn({ err: err.message }, "stop hook failed"),
          );
        }
        await kit.close();
        await metrics.close();
        kit.logger.info(`${kit.name} stopped`);
      })();
      return stopping;
    },
  };
}

function bareRouter(name: string, router: Router): { parsed: Router } {
  if (isServiceName(name))
    throw new StartupError(
      `${name} must mount its handlers with contractRouter(), checked against the contract`,
    );
  return { parsed: router };
}

function waitForReady(redis: Redis, ms: number): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  return withTimeout(new Promise<void>((resolve) => redis.once("ready", () => resolve())), ms).catch(() => {
    throw new Error(`no answer within ${ms} ms`);
  });
}

/**
 * For a command (a service instead waits out a Redis that is away): a connection ready within `ms`,
 * or an error saying where Redis was looked for, the connection given up.
 */
export async function connectRedisOnce(
  url: string,
  role: RedisRole,
  logger: Logger,
  ms = 5000,
): Promise<Redis> {
  const redis = createRedis(url, role, logger);
  let onError: (err: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => redis.once("error", (onError = reject)));
  failed.catch(() => undefined); // an error after the race is the connection's own to report
  try {
    await Promise.race([waitForReady(redis, ms), failed]);
    return redis;
  } catch {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${redactUrl(url)}`);
  } finally {
    redis.off("error", onError);
  }
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable url)";
  }
}
