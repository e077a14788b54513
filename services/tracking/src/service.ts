import { Counter, Gauge, Histogram } from "prom-client";
import type { z } from "zod";
import {
  ACTIVE_VISITORS_PAGE,
  CHANNELS,
  LeadAttributedEvent,
  EmailReceivedEvent,
  LeadEmailEvent,
  type EmailReceivedMessage,
  type LeadEmailMessage,
  LeadOverdueEvent,
  type LeadOverdueMessage,
  LeadCreatedEvent,
  QUEUES,
  MailOutcomeEvent,
  SessionsEndedEvent,
  VisitorChangedEvent,
  type LeadAttributedMessage,
  type LeadCreatedMessage,
  type MailOutcomeMessage,
} from "@lease/contracts";
import {
  createKit,
  createQueueClient,
  createRedis,
  createWorker,
  queueMetrics,
  closeRedis,
  loadConfig,
  publishEvent,
  startService,
  subscribeEvent,
  type Logger,
  type RunningService,
  privacyRoutes,
  requireInternal,
  scheduleDaily,
  startServiceOutbox,
  createPool,
} from "@lease/platform";
import { trackingConfigSchema } from "./config";
import { outbox as outboxTable } from "./db/schema";
import { systemClock, type Clock } from "./domain/clock";
import { GeoLookup } from "./domain/geo";
import { addMonths, amsterdamDate, monthOf } from "./domain/calendar";
import { retentionStart } from "./domain/periods";
import { scheduleRetention } from "./domain/retention";
import { throttle } from "./domain/throttle";
import { workGate } from "./domain/work-gate";
import { createAdminSockets } from "./routes/admin-sockets";
import { conversionHandlers } from "./jobs/conversion-jobs";
import { ConversionRecorder } from "./repositories/conversions";
import { Reattribution } from "./repositories/reattribution";
import { leadStagesRepository } from "./repositories/lead-stages";
import { adSpendRepository } from "./repositories/ad-spend";
import { campaignReportInternalRoute, campaignRoutes } from "./routes/campaigns";
import { campaignReportReader } from "./repositories/campaign-report";
import { StreamWriter } from "./jobs/stream-writer";
import { VisitorFeed } from "./routes/visitor-feed";
import { DaySalts } from "./repositories/day-salt";
import { LiveVisitors } from "./repositories/live-visitors";
import { adminRoutes, visitorStats } from "./routes/admin";
import { AnalyticsReader } from "./repositories/analytics";
import { SketchCache } from "./repositories/sketch-cache";
import { FilteredAnalyticsReader } from "./repositories/analytics-filtered";
import { backfillLegacy } from "./repositories/backfill";
import { writerDeps } from "./repositories/page-views";
import { SharedValueGate } from "./repositories/value-admission";
import { FirstValuesGate } from "./domain/admission";
import { compactRunningTotals, compactSpendTotals } from "./repositories/running-totals";
import { buildPendingWeeks, compactSketches } from "./repositories/sketches";
import { trackBatchRoute } from "./routes/track";
import { privacyRepository } from "./repositories/privacy";
import type { HitOutcome } from "./domain/ingest";

export const TRACKING_MIGRATIONS = new URL("../migrations", import.meta.url);

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
    migrationsFolder: TRACKING_MIGRATIONS,
  });
  const { logger } = kit;
  const geo = await GeoLookup.open(config.GEOIP_DIR, logger);
  const live = new LiveVisitors(kit.redis, kit.keys, {
    activeWindowMs: config.ACTIVE_WINDOW_SECONDS * 1000,
    backlogMax: config.STREAM_BACKLOG_MAX,
    activeMax: config.ACTIVE_SESSIONS_MAX,
    budget: {
      newSessionsPerMinute: config.BUDGET_NEW_SESSIONS_PER_MINUTE,
      hitsPerMinute: config.BUDGET_HITS_PER_MINUTE,
      viewsPerMinute: config.BUDGET_VIEWS_PER_MINUTE,
      viewsPerSessionPerMinute: config.BUDGET_VIEWS_PER_SESSION_PER_MINUTE,
    },
  });

  const hits = new Counter({
    name: "tracking_hits_total",
    help: "Visits and heartbeats by outcome (recorded, bot, admin, over_budget = beyond the address block's budget, answered but not recorded, dropped = Redis unavailable or stream backlog full)",
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

  // One publish per PUBLISH_MIN_INTERVAL_MS for both kinds of change; it says "visitors" when a hit
  // is among those it covers (the feeds push that at once), else "counts" (a flush: pushed soon).
  let visitorsChanged = false;
  const publisher = throttle(() => {
    const what = visitorsChanged ? "visitors" : "counts";
    visitorsChanged = false;
    return publishEvent(
      kit.redis,
      kit.keys,
      CHANNELS.visitorUpdate,
      VisitorChangedEvent,
      { at: new Date(clock.now()).toISOString(), what },
      logger,
    );
  }, config.PUBLISH_MIN_INTERVAL_MS);
  const publish = {
    visitors: () => {
      visitorsChanged = true;
      publisher.trigger();
    },
    counts: () => publisher.trigger(),
    stop: () => publisher.stop(),
  };
  const fanout = new Histogram({
    name: "tracking_ws_fanout_seconds",
    help: "From a visitor change heard to the update pushed to this replica's admin sockets",
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [],
  });
  // Live traffic: new values admitted per address block and day, decided alike by every replica.
  const gate = new SharedValueGate(kit.redis, kit.keys);
  const writer = writerDeps(kit.pool, {
    statements,
    ownHost: config.PUBLIC_ORIGIN ? new URL(config.PUBLIC_ORIGIN).hostname : undefined,
    gate,
  });
  const { partitions } = writer;
  const reader = new AnalyticsReader(
    kit.pool,
    writer.pages,
    new SketchCache(config.ANALYTICS_SKETCH_CACHE_MB * 2 ** 20),
  );
  const filtered = new FilteredAnalyticsReader(kit.pool, writer.pages);
  // This month's and the next ones' partitions exist before the first batch needs them.
  const today = amsterdamDate(clock.now());
  await partitions.ensure([0, 1, 2].map((i) => addMonths(today, i)));
  const feed = new VisitorFeed(
    async () => {
      const [stats, activeVisitors] = await Promise.all([
        visitorStats({ live, reader, clock }),
        // The first page of the panel's list; later pages are read over HTTP.
        live.active(clock.now(), 0, ACTIVE_VISITORS_PAGE),
      ]);
      return { stats, activeVisitors };
    },
    config.PUSH_MIN_INTERVAL_MS,
    logger,
    (seconds) => fanout.observe(seconds),
  );
  await subscribeEvent(
    kit.subscriber(),
    kit.keys,
    CHANNELS.visitorUpdate,
    VisitorChangedEvent,
    (event) => feed.changed(event.what === "counts" ? "soon" : "now"),
    logger,
  );
  const refresh = setInterval(() => {
    if (feed.size > 0) feed.changed("soon");
  }, config.FEED_REFRESH_MS);
  const sockets = createAdminSockets({
    session: kit.session,
    feed,
    logger,
    publicOrigin: config.PUBLIC_ORIGIN,
    recheckMs: config.WS_SESSION_RECHECK_MS,
    pingMs: config.WS_PING_INTERVAL_MS,
  });
  await subscribeEvent(
    kit.subscriber(),
    kit.keys,
    CHANNELS.sessionsEnded,
    SessionsEndedEvent,
    (event) => sockets.recheck(event.username),
    logger,
  );
  // Events other services publish reach the admin over this same socket, each replica telling its
  // own sockets: the mailer's outcomes (compose, sent mail) and new leads (the leads outbox relay).
  const relay = <
    M extends
      | MailOutcomeMessage
      | LeadCreatedMessage
      | LeadAttributedMessage
      | EmailReceivedMessage
      | LeadEmailMessage
      | LeadOverdueMessage,
  >(
    channel: string,
    schema: z.ZodType<M["data"]>,
    type: M["type"],
  ) =>
    subscribeEvent(
      kit.subscriber(),
      kit.keys,
      channel,
      schema,
      (data) => sockets.broadcast(JSON.stringify({ type, data })),
      logger,
    );
  await relay<MailOutcomeMessage>(CHANNELS.mailOutcome, MailOutcomeEvent, "mail-outcome");
  await relay<LeadCreatedMessage>(CHANNELS.leadCreated, LeadCreatedEvent, "lead-created");
  await relay<LeadAttributedMessage>(CHANNELS.leadAttributed, LeadAttributedEvent, "lead-attributed");
  // Received e-mails (the mailer) and e-mails on a lead's timeline (leads).
  await relay<EmailReceivedMessage>(CHANNELS.emailReceived, EmailReceivedEvent, "email-received");
  await relay<LeadEmailMessage>(CHANNELS.leadEmail, LeadEmailEvent, "lead-email");
  // A lead past its deadline without a response (leads, once per lead).
  await relay<LeadOverdueMessage>(CHANNELS.leadOverdue, LeadOverdueEvent, "lead-overdue");

  // Blocking stream reads need a connection of their own, apart from the fail-fast request one.
  const writerRedis = createRedis(config.REDIS_URL, "bullmq", logger);
  const streamWriter = new StreamWriter({
    redis: writerRedis,
    writer,
    streamKey: live.streamKey,
    logger,
    batchSize: config.FLUSH_BATCH_SIZE,
    intervalMs: config.FLUSH_INTERVAL_MS,
    claimIdleMs: config.STREAM_CLAIM_IDLE_MS,
    onFlushed: (rows) => {
      persisted.inc(rows);
      // The day's counts and top pages live in the rollups: admin sockets get them with the next
      // push, or an interval later (routes/visitor-feed.ts).
      if (rows > 0) publish.counts();
    },
  });
  await streamWriter.start();
  // Conversions from the leads service (quote requests, contact messages), counted in the rollups;
  // the visit's attribution goes back on the leads queue.
  const queue = createQueueClient(kit.bullConnection(), config.REDIS_PREFIX);
  // Leads counted under "(overig)" move to their visit's values once those are stored by name.
  const reattribution = new Reattribution(kit.pool, writer.profiles, writer.profileDims, gate);
  const conversionJobs = queueMetrics(queue, [QUEUES.tracking]);
  // Spend imports, typed-in days and links are recorded in the gateway's audit log: audit.record
  // jobs written to tracking.outbox in the change's transaction, relayed to the queue.
  const outbox = await startServiceOutbox(kit, queue);
  const conversionWorker = createWorker({
    connection: kit.bullConnection(),
    redisPrefix: config.REDIS_PREFIX,
    queue: QUEUES.tracking,
    handlers: conversionHandlers({
      recorder: new ConversionRecorder(kit.pool, writer.profileDims),
      stages: leadStagesRepository(kit.pool, writer.profileDims),
      queue,
      visitStream: live,
      reattribution,
    }),
    logger: logger.child({ component: "conversion-worker" }),
    concurrency: 4,
    metrics: conversionJobs,
  });
  const stopRetention = scheduleRetention(kit.pool, partitions, clock, config.RETENTION_MONTHS, logger);
  // The last 30 days' values are established in Redis, whatever it lost (repositories/value-admission.ts).
  const stopSeeding = scheduleDaily(
    "tracking established values",
    async () => ({ values: await gate.seed(kit.pool, amsterdamDate(clock.now())) }),
    logger,
    { firstRunMs: 0, describe: (r) => r },
  );
  // The campaign report and the spend routes on a pool of their own, with a shorter statement
  // limit: however much spend is stored, they never hold the connections of the live view, the
  // visit writer or the conversion worker. A connection waits for the pool as long as a statement may run.
  const campaignPool = createPool(config.DATABASE_URL, logger, config.CAMPAIGN_POOL_MAX, {
    statementTimeoutMs: config.CAMPAIGN_STATEMENT_TIMEOUT_MS,
    connectionTimeoutMs: config.CAMPAIGN_STATEMENT_TIMEOUT_MS,
  });
  const compaction = setInterval(() => {
    compactSketches(kit.pool).catch((err: Error) =>
      logger.warn({ err: err.message }, "visitor sketches not compacted; retried"),
    );
    // The campaign report reads what is still pending too: this only keeps that part small.
    compactRunningTotals(kit.pool).catch((err: Error) =>
      logger.warn({ err: err.message }, "campaign report running totals not compacted; retried"),
    );
    reattribution
      .tick(amsterdamDate(clock.now()))
      .catch((err: Error) =>
        logger.warn({ err: err.message }, "leads waiting for a campaign value not moved; retried"),
      );
    // An import's spend on the campaign routes' own pool, off the live view's connections.
    compactSpendTotals(campaignPool).catch((err: Error) =>
      logger.warn({ err: err.message }, "ad spend running totals not compacted; retried"),
    );
  }, config.SKETCH_COMPACT_INTERVAL_MS);
  compaction.unref();
  // Week sketches of the months of before migration 0015, built once in the background (readers
  // take those weeks' day sketches meanwhile).
  const weeks = buildPendingWeeks(kit.pool).catch((err: Error) =>
    logger.warn({ err: err.message }, "week sketches of before not built; retried at the next start"),
  );
  // Rows of before the partitioned tables, moved in the background (see repositories/backfill.ts).
  let stopped = false;
  // Old rows carry no address block: the first values of a day are kept, as for an import.
  const backfill = backfillLegacy({
    ...writer,
    gate: new FirstValuesGate(),
    logger,
    stopping: () => stopped,
  }).catch((err: Error) =>
    logger.error({ err: err.message }, "moving the page views of before failed; retried at the next start"),
  );

  const ingestDeps = {
    live,
    geo,
    clock,
    session: kit.session,
    salts: new DaySalts(kit.redis, kit.keys),
    changed: () => publish.visitors(),
  };
  const counted = (kind: string, outcome: HitOutcome) => hits.inc({ kind, outcome });
  const trackingPrivacy = privacyRepository(kit.pool);
  const campaignReports = {
    report: campaignReportReader(campaignPool),
    // One report built at a time per replica, three more waiting; the same period built once.
    reportGate: workGate(1, 3),
    clock,
    retentionMonths: config.RETENTION_MONTHS,
  };
  const svc = await startService(kit, {
    routes: [
      trackBatchRoute(ingestDeps, config.INTERNAL_TOKEN, counted),
      // The conversions of the person's leads (tracking holds nothing keyed by the address).
      privacyRoutes("tracking", {
        store: {
          find: (_email, leadIds) => trackingPrivacy.find(leadIds),
          erase: (_email, leadIds) => trackingPrivacy.erase(leadIds),
        },
        queue,
        queueName: QUEUES.tracking,
        guard: requireInternal(config.INTERNAL_TOKEN),
      }),
      campaignRoutes({
        session: kit.session,
        spend: adSpendRepository(
          campaignPool,
          { table: outboxTable, committed: () => outbox.relay.nudge() },
          // Another import's lock is waited for half a statement's time, then refused (409).
          {
            campaignsMax: config.SPEND_CAMPAIGNS_MAX,
            lockWaitMs: config.CAMPAIGN_STATEMENT_TIMEOUT_MS / 2,
            keptFrom: () => monthOf(retentionStart(amsterdamDate(clock.now()), config.RETENTION_MONTHS)),
          },
        ),
        ...campaignReports,
      }),
      // The mailer's weekly summary reads the week's campaigns (the same builds and gate).
      campaignReportInternalRoute({ ...campaignReports, internalToken: config.INTERNAL_TOKEN }),
      adminRoutes({
        session: kit.session,
        live,
        reader,
        filtered,
        clock,
        retentionMonths: config.RETENTION_MONTHS,
      }),
    ],
    onUpgrade: sockets.onUpgrade,
    onStop: [
      async () => {
        stopped = true;
        stopRetention();
        stopSeeding();
        clearInterval(compaction);
        publish.stop();
        await backfill;
        await weeks;
        await streamWriter.stop();
        await conversionWorker.close();
        await outbox.relay.stop();
        await queue.close();
        await closeRedis(writerRedis);
        await campaignPool.end();
      },
    ],
  });
  svc.app.metrics.registry.registerMetric(hits);
  svc.app.metrics.registry.registerMetric(statements);
  svc.app.metrics.registry.registerMetric(persisted);
  svc.app.metrics.registry.registerMetric(backlog);
  svc.app.metrics.registry.registerMetric(backlogMax);
  svc.app.metrics.registry.registerMetric(fanout);
  // The attempts only: the queue's job counts come from the mailer, which reads every queue's, and
  // reading them here would hold /metrics up while Redis is away.
  svc.app.metrics.registry.registerMetric(conversionJobs.attempts);
  outbox.registerMetrics(svc.app.metrics.registry);
  // The analytics reader's sketch cache (repositories/sketch-cache.ts): what it holds, and where
  // the stored sketch rows its reads took came from.
  new Gauge({
    name: "tracking_analytics_sketch_cache_bytes",
    help: "Bytes the analytics reader's sketch cache holds on this replica (at most ANALYTICS_SKETCH_CACHE_MB)",
    registers: [svc.app.metrics.registry],
    collect() {
      this.set(reader.cache.bytes);
    },
  });
  const sketchRowsCounted = { hits: 0, misses: 0 };
  new Counter({
    name: "tracking_analytics_sketch_rows_total",
    help: "Stored sketch rows analytics reads took: from this replica's cache (cache) or with their bytes from PostgreSQL (database)",
    labelNames: ["source"] as const,
    registers: [svc.app.metrics.registry],
    collect() {
      const { hits, misses } = reader.cache;
      this.inc({ source: "cache" }, hits - sketchRowsCounted.hits);
      this.inc({ source: "database" }, misses - sketchRowsCounted.misses);
      Object.assign(sketchRowsCounted, { hits, misses });
    },
  });
  new Gauge({
    name: "tracking_admin_sockets",
    help: "Admin WebSocket connections open on this replica",
    registers: [svc.app.metrics.registry],
    collect() {
      this.set(sockets.count);
    },
  });

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
