import { Counter, Gauge } from "prom-client";
import { CHANNELS, MailOutcomeEvent, VisitorChangedEvent, type MailOutcomeMessage } from "@lease/contracts";
import {
  createKit,
  createRedis,
  closeRedis,
  loadConfig,
  parseTrustedProxies,
  publishEvent,
  startService,
  subscribeEvent,
  type Logger,
  type RunningService,
} from "@lease/platform";
import { trackingConfigSchema } from "./config";
import { systemClock, type Clock } from "./domain/clock";
import { GeoLookup } from "./domain/geo";
import { memoize } from "./domain/memo";
import { scheduleRetention } from "./domain/retention";
import { throttle } from "./domain/throttle";
import { createAdminSockets } from "./live/admin-sockets";
import { StreamWriter } from "./live/stream-writer";
import { VisitorFeed } from "./live/visitor-feed";
import { LiveVisitors } from "./repositories/live-visitors";
import { adminRoutes } from "./routes/admin";
import { trackBatchRoute, trackRoutes } from "./routes/track";
import type { HitOutcome } from "./domain/ingest";

export interface RunningTracking extends RunningService {
  /** Admin sockets open on this replica. */
  sockets(): number;
}

export async function startTracking(
  env: NodeJS.ProcessEnv = process.env,
  opts: { logger?: Logger; clock?: Clock } = {},
): Promise<RunningTracking> {
  const config = loadConfig(trackingConfigSchema, env);
  const clock = opts.clock ?? systemClock;
  const kit = await createKit("tracking", config, {
    logger: opts.logger,
    migrationsFolder: new URL("../migrations", import.meta.url),
  });
  const { logger } = kit;
  const geo = await GeoLookup.open(config.GEOIP_DIR, logger);
  const live = new LiveVisitors(
    kit.redis,
    kit.keys,
    config.ACTIVE_WINDOW_SECONDS * 1000,
    config.STREAM_BACKLOG_MAX,
  );

  const hits = new Counter({
    name: "tracking_hits_total",
    help: "Visits and heartbeats by outcome (recorded, bot, admin, dropped = Redis unavailable or stream backlog full)",
    labelNames: ["kind", "outcome"] as const,
    registers: [],
  });
  const statements = new Counter({
    name: "tracking_db_insert_statements_total",
    help: "Multi-row INSERT statements written by the page view writer",
    labelNames: ["table"] as const,
    registers: [],
  });
  const persisted = new Counter({
    name: "tracking_page_views_persisted_total",
    help: "Page views written to Postgres",
    registers: [],
  });

  // For alerting on a Postgres outage before hits are refused: backlog / max.
  const backlog = new Gauge({
    name: "tracking_stream_backlog",
    help: "Page-view events in the Redis stream waiting for Postgres",
    registers: [],
    async collect() {
      try {
        this.set(await kit.redis.xlen(live.streamKey));
      } catch {
        // Redis away: keep the last value; /metrics itself must still answer.
      }
    },
  });
  const backlogMax = new Gauge({
    name: "tracking_stream_backlog_max",
    help: "STREAM_BACKLOG_MAX: at this backlog new hits are refused with 503",
    registers: [],
  });
  backlogMax.set(config.STREAM_BACKLOG_MAX);

  const publish = throttle(
    () =>
      publishEvent(
        kit.redis,
        kit.keys,
        CHANNELS.visitorUpdate,
        VisitorChangedEvent,
        { at: new Date(clock.now()).toISOString() },
        logger,
      ),
    config.PUBLISH_MIN_INTERVAL_MS,
  );
  const feed = new VisitorFeed(
    async () => {
      const now = clock.now();
      const [stats, activeVisitors] = await Promise.all([live.stats(now), live.active(now)]);
      return { stats, activeVisitors };
    },
    config.PUSH_MIN_INTERVAL_MS,
    logger,
  );
  await subscribeEvent(
    kit.subscriber(),
    kit.keys,
    CHANNELS.visitorUpdate,
    VisitorChangedEvent,
    () => feed.changed(),
    logger,
  );
  const refresh = setInterval(() => {
    if (feed.size > 0) feed.changed();
  }, config.FEED_REFRESH_MS);
  const sockets = createAdminSockets({
    session: kit.session,
    feed,
    logger,
    publicOrigin: config.PUBLIC_ORIGIN,
    recheckMs: config.WS_SESSION_RECHECK_MS,
    pingMs: config.WS_PING_INTERVAL_MS,
  });
  // The mailer's outcomes reach the admin over this same socket (compose, sent mail).
  await subscribeEvent(
    kit.subscriber(),
    kit.keys,
    CHANNELS.mailOutcome,
    MailOutcomeEvent,
    (data) => sockets.broadcast(JSON.stringify({ type: "mail-outcome", data } satisfies MailOutcomeMessage)),
    logger,
  );

  // Blocking stream reads need a connection of their own, apart from the fail-fast request one.
  const writerRedis = createRedis(config.REDIS_URL, "bullmq", logger);
  const writer = new StreamWriter({
    redis: writerRedis,
    pool: kit.pool,
    streamKey: live.streamKey,
    logger,
    batchSize: config.FLUSH_BATCH_SIZE,
    intervalMs: config.FLUSH_INTERVAL_MS,
    claimIdleMs: config.STREAM_CLAIM_IDLE_MS,
    statements,
    onFlushed: (rows) => persisted.inc(rows),
  });
  await writer.start();
  const stopRetention = scheduleRetention(kit.pool, clock, config.RETENTION_MONTHS, logger);

  const ingestDeps = {
    live,
    geo,
    clock,
    session: kit.session,
    changed: () => publish.trigger(),
  };
  const counted = (kind: string, outcome: HitOutcome) => hits.inc({ kind, outcome });
  const svc = await startService(kit, {
    before: [trackBatchRoute(ingestDeps, config.INTERNAL_TOKEN, counted)],
    routes: [
      trackRoutes(ingestDeps, memoize(parseTrustedProxies(config.TRUSTED_PROXIES)), counted),
      adminRoutes({ session: kit.session, live, pool: kit.pool, clock }),
    ],
    onUpgrade: sockets.onUpgrade,
    onStop: [
      async () => {
        stopRetention();
        publish.stop();
        await writer.stop();
        await closeRedis(writerRedis);
      },
    ],
  });
  svc.app.metrics.registry.registerMetric(hits);
  svc.app.metrics.registry.registerMetric(statements);
  svc.app.metrics.registry.registerMetric(persisted);
  svc.app.metrics.registry.registerMetric(backlog);
  svc.app.metrics.registry.registerMetric(backlogMax);

  let stopping: Promise<void> | undefined;
  return {
    ...svc,
    sockets: () => sockets.count,
    stop() {
      // Upgraded sockets would keep the HTTP server from closing: end them first.
      stopping ??= (async () => {
        clearInterval(refresh);
        feed.stop();
        await sockets.close();
        await svc.stop();
      })();
      return stopping;
    },
  };
}
