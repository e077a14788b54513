import { Counter } from "prom-client";
import { CONVERSION_PLATFORMS, QUEUES } from "@lease/contracts";
import {
  createKit,
  createQueueClient,
  createWorker,
  loadConfig,
  queueMetrics,
  redisRateLimiter,
  startService,
  type Logger,
  type RunningService,
} from "@lease/platform";
import { conversionsConfigSchema } from "./config";
import { SEND_OUTCOMES, conversionHandlers, onFinalFailure } from "./jobs/handlers";
import { scheduleDeliveryRetention } from "./jobs/retention";
import { deliveriesRepository } from "./repositories/deliveries";
import { httpSources, type ConversionSources } from "./repositories/sources";
import { googleTokens } from "./domain/google-token";
import { adminRoutes } from "./routes/admin";

export const CONVERSIONS_MIGRATIONS = new URL("../migrations", import.meta.url);

export interface ConversionsOptions {
  logger?: Logger;
  /** Replaces the settings and leads services (a test's stand-in). */
  sources?: ConversionSources;
}

/**
 * The conversions service: BullMQ consumer of `conversions.send` (queued by the leads outbox),
 * sending each lead's events to the ad platforms switched on, and reporting every outcome back to
 * leads (`leads.conversion-outcome`). No public route: only the probes and its metrics port.
 */
export async function startConversions(
  env: NodeJS.ProcessEnv = process.env,
  opts: ConversionsOptions = {},
): Promise<RunningService> {
  const config = loadConfig(conversionsConfigSchema, env);
  const kit = await createKit("conversions", config, {
    logger: opts.logger,
    migrationsFolder: CONVERSIONS_MIGRATIONS,
  });
  const log = kit.logger;
  const queue = createQueueClient(kit.bullConnection(), config.REDIS_PREFIX);
  const jobs = queueMetrics(queue, [QUEUES.conversions]);
  const sends = new Counter({
    name: "conversions_sends_total",
    help: "Conversion sends per ad platform by outcome; refused, not_configured and gave_up are failed conversions",
    labelNames: ["platform", "outcome"] as const,
    registers: [],
  });
  // Every series from the start at 0, so an alert's increase() sees the first failure too.
  for (const platform of CONVERSION_PLATFORMS)
    for (const outcome of SEND_OUTCOMES) sends.inc({ platform, outcome }, 0);
  const deliveries = deliveriesRepository(kit.db);
  const deps = {
    sources:
      opts.sources ??
      httpSources({
        settingsUrl: config.SETTINGS_URL,
        leadsUrl: config.LEADS_URL,
        internalToken: config.INTERNAL_TOKEN,
      }),
    deliveries,
    queue,
    baseUrls: {
      meta: config.META_API_BASE_URL,
      tiktok: config.TIKTOK_API_BASE_URL,
      snapchat: config.SNAPCHAT_API_BASE_URL,
      google: config.GOOGLE_CONVERSIONS_API_BASE_URL,
    },
    googleTokens: googleTokens({
      tokenUrl: config.GOOGLE_OAUTH_TOKEN_URL,
      timeoutMs: config.PLATFORM_TIMEOUT_MS,
    }),
    metaApiVersion: config.META_API_VERSION,
    publicOrigin: config.PUBLIC_ORIGIN,
    timeoutMs: config.PLATFORM_TIMEOUT_MS,
    onOutcome: (platform: string, outcome: string) => sends.inc({ platform, outcome }),
  };
  const worker = createWorker({
    connection: kit.bullConnection(),
    redisPrefix: config.REDIS_PREFIX,
    queue: QUEUES.conversions,
    handlers: conversionHandlers(deps),
    logger: log.child({ component: "conversions-worker" }),
    concurrency: config.WORKER_CONCURRENCY,
    lockDurationMs: config.WORKER_LOCK_MS,
    onFinalFailure: onFinalFailure(deps, log),
    metrics: jobs,
  });
  const stopRetention = scheduleDeliveryRetention(
    deliveries,
    config.CONVERSION_RETENTION_DAYS,
    log.child({ component: "retention" }),
  );
  const running = await startService(kit, {
    routes: [
      adminRoutes(
        {
          ...deps,
          testLimiter: redisRateLimiter(kit.redis, kit.keys, config.CONVERSION_TEST_RATE_LIMIT, 60, {
            message: "Te veel testgebeurtenissen in korte tijd. Probeer het over een minuut opnieuw.",
          }),
        },
        kit.session,
      ),
    ],
    onStop: [async () => stopRetention(), () => worker.close(), () => queue.close()],
  });
  // The attempts only: the queue's job counts come from the mailer, which reads every queue's.
  running.app.metrics.registry.registerMetric(jobs.attempts);
  running.app.metrics.registry.registerMetric(sends);
  return running;
}
