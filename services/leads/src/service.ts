import type { Context } from "koa";
import {
  CHANNELS,
  LeadAttributedEvent,
  LeadCreatedEvent,
  LeadEmailEvent,
  LeadOverdueEvent,
  QUEUES,
  WEEKLY_SUMMARY_LEADS_MAX,
} from "@lease/contracts";
import {
  createKit,
  createQueueClient,
  createWorker,
  queueMetrics,
  loadConfig,
  startService,
  type Logger,
  type RunningService,
  clientIp,
  parseTrustedProxies,
  publishEvent,
  privacyRoutes,
  requireInternal,
  startServiceOutbox,
  redisRateLimiter,
  scheduleDaily,
} from "@lease/platform";
import { leadsConfigSchema } from "./config";
import { CLIENT_IP_RETENTION_DAYS, leaseRequestsDomain } from "./domain/lease-requests";
import { leadHistoryDomain } from "./domain/lead-history";
import { leadEvents, overdueEvents } from "./jobs/relay";
import { overdueMetric, scheduleOverdueScan } from "./jobs/overdue";
import { overdueRepository } from "./repositories/overdue";
import { leadHistoryRepository } from "./repositories/lead-history";
import { leaseRequestsRepository } from "./repositories/lease-requests";
import { conversionsRepository } from "./repositories/conversions";
import { googleAdsDomain } from "./domain/google-ads";
import { googleAdsRepository } from "./repositories/google-ads";
import { googleAdsAdminRoutes, googleAdsFeedRoutes } from "./routes/google-ads";
import { internalRoutes } from "./routes/internal";
import { leadHistoryRoutes } from "./routes/lead-history";
import { leaseRequestStatusRoutes } from "./routes/lease-request-status";
import { leaseRequestRoutes } from "./routes/lease-requests";
import { leadEmailsRepository } from "./repositories/lead-emails";
import { formRoutes } from "./routes/forms";
import { privacyRepository } from "./repositories/privacy";
import { scheduleClientIpRetention, scheduleLeadRetention } from "./jobs/retention";
import { responseSettingsDomain } from "./domain/response-settings";
import { responseSettingsRepository } from "./repositories/response-settings";
import { responseRoutes } from "./routes/response";
import { responseReportDomain } from "./domain/response-report";
import { responseReportRepository } from "./repositories/response-report";
import { answerContactMessage } from "./repositories/responses";
import { ownersRepository } from "./repositories/owners";
import { callsRepository } from "./repositories/calls";
import { weeklySummaryDomain } from "./domain/weekly-summary";
import { weeklySummaryRepository } from "./repositories/weekly-summary";
import { startWeeklySummarySchedule, weeklySummaryPlanHandler } from "./jobs/weekly-summary";

export const LEADS_MIGRATIONS = new URL("../migrations", import.meta.url);

export async function startLeads(
  env: NodeJS.ProcessEnv = process.env,
  opts: {
    logger?: Logger;
    /** The time the weekly summary reads (its week, what is late); tests move it instead of waiting. */
    clock?: () => Date;
  } = {},
): Promise<RunningService> {
  const clock = opts.clock ?? (() => new Date());
  const config = loadConfig(leadsConfigSchema, env);
  const trusted = parseTrustedProxies(config.TRUSTED_PROXIES);
  const kit = await createKit("leads", config, { logger: opts.logger, migrationsFolder: LEADS_MIGRATIONS });
  const bull = kit.bullConnection();
  const queue = createQueueClient(bull, config.REDIS_PREFIX);
  const outbox = await startServiceOutbox(kit, queue, {
    pollMs: config.OUTBOX_POLL_MS,
    // Open admin panels hear of each new lead (tracking relays these on the admin WebSocket). A
    // hint only: publishEvent logs a Redis failure instead of holding the jobs back. Each lead
    // writes exactly one lead.received row; a failed mark announces it again (the same lead).
    // Late leads likewise, each once (the scan claims it; only a failed mark repeats it).
    published: async (rows) => {
      await Promise.all([
        ...leadEvents(rows).map((event) =>
          publishEvent(kit.redis, kit.keys, CHANNELS.leadCreated, LeadCreatedEvent, event, kit.logger),
        ),
        ...overdueEvents(rows).map((event) =>
          publishEvent(kit.redis, kit.keys, CHANNELS.leadOverdue, LeadOverdueEvent, event, kit.logger),
        ),
      ]);
    },
  });
  const relay = outbox.relay;
  const responseSettings = responseSettingsDomain(responseSettingsRepository(kit.db), {
    nudge: () => relay.nudge(),
  });
  const repo = leaseRequestsRepository(kit.db, kit.pool);
  const owners = ownersRepository(kit.db);
  const leads = leaseRequestsDomain(repo, () => relay.nudge(), { owners, settings: responseSettings });
  const conversions = conversionsRepository(kit.db);
  const googleAds = googleAdsDomain(googleAdsRepository(kit.db, kit.pool), { nudge: () => relay.nudge() });
  const leadEmails = leadEmailsRepository(kit.db);
  const calls = callsRepository(kit.db);
  const history = leadHistoryDomain(
    leadHistoryRepository(kit.db),
    repo,
    () => relay.nudge(),
    leadEmails,
    calls,
  );
  const reportRepo = responseReportRepository(kit.pool);
  const report = responseReportDomain(reportRepo, { now: clock });
  const weeklyRepo = weeklySummaryRepository(kit.db);
  const weekly = weeklySummaryDomain({
    repo: weeklyRepo,
    report,
    settings: responseSettings,
    now: clock,
    listed: WEEKLY_SUMMARY_LEADS_MAX,
  });
  // Tracking's answer to a conversion: the attribution of the visit that sent the lead.
  const attributionJobs = queueMetrics(queue, [QUEUES.leads]);
  const worker = createWorker({
    connection: bull,
    redisPrefix: config.REDIS_PREFIX,
    queue: QUEUES.leads,
    handlers: {
      // Open admin panels showing "Herkomst wordt bepaald…" reload the lead (a hint, like above).
      "leads.attribution": async (data) => {
        if (!(await leads.setAttribution(data))) return;
        const event = {
          source: data.source,
          id: data.sourceId,
          found: data.attribution !== null,
          at: new Date().toISOString(),
        };
        await publishEvent(
          kit.redis,
          kit.keys,
          CHANNELS.leadAttributed,
          LeadAttributedEvent,
          event,
          kit.logger,
        );
      },
      // How a lead's event went at an ad platform (the conversions service): its detail shows it.
      "leads.conversion-outcome": (data) => conversions.record(data),
      // An admin changed in the gateway: who may own leads; a leaving admin's open leads go to others.
      "leads.staff": async (data, { log }) => {
        const { handedOn } = await owners.apply(data);
        if (handedOn > 0) log.info({ adminId: data.adminId, handedOn }, "open leads handed on");
      },
      // Monday 08:00 (the job scheduler): each opted-in admin's summary e-mail queued once a week.
      "leads.weekly-summary": weeklySummaryPlanHandler({
        repo: weeklyRepo,
        now: clock,
        nudge: () => relay.nudge(),
      }),
    },
    logger: kit.logger.child({ component: "attribution-worker" }),
    concurrency: 4,
    metrics: attributionJobs,
  });
  const privacy = privacyRepository(kit.pool);
  const stopRetention = scheduleLeadRetention(
    privacy,
    config.LEAD_RETENTION_DAYS,
    kit.logger.child({ component: "retention" }),
  );
  const stopIpRetention = scheduleClientIpRetention(
    conversions,
    CLIENT_IP_RETENTION_DAYS,
    kit.logger.child({ component: "retention" }),
  );
  const stopWeeklySchedule = startWeeklySummarySchedule(
    queue,
    kit.logger.child({ component: "weekly-summary" }),
  );
  const overdueCount = overdueMetric();
  const stopOverdueScan = scheduleOverdueScan(overdueRepository(kit.db), {
    everyMs: config.OVERDUE_SCAN_MS,
    counter: overdueCount,
    nudge: () => relay.nudge(),
    logger: kit.logger.child({ component: "overdue" }),
  });
  // Weeks a migration or a bulk change (retention, erasure) left stale, packed again in the
  // background: a report packs the stale weeks of its own period itself, the others wait here.
  const stopReportRebuild = scheduleDaily(
    "response report rebuild",
    () => reportRepo.rebuild(),
    kit.logger.child({ component: "response-report" }),
    { firstRunMs: 60_000, everyMs: 15 * 60_000, describe: (weeks) => (weeks > 0 ? { weeks } : undefined) },
  );
  // The public routes' limit per client address (the forms, the Google Ads file's secret URL).
  const limiter = redisRateLimiter(
    kit.redis,
    kit.keys,
    config.LEAD_RATE_LIMIT,
    config.LEAD_RATE_WINDOW_SECONDS,
  );
  const clientAddress = (ctx: Context) => clientIp(ctx.req, trusted);
  const running = await startService(kit, {
    routes: [
      formRoutes({ leads, limiter, clientIp: clientAddress }),
      googleAdsFeedRoutes({ googleAds, limiter, clientIp: clientAddress }),
      leaseRequestRoutes({ leads, conversions, session: kit.session }),
      leaseRequestStatusRoutes({ leads, session: kit.session }),
      googleAdsAdminRoutes({ googleAds, session: kit.session }),
      leadHistoryRoutes({ history, session: kit.session }),
      responseRoutes({
        settings: responseSettings,
        leads,
        calls,
        report,
        session: kit.session,
        nudge: () => relay.nudge(),
      }),
      internalRoutes({
        leads,
        owners,
        answerContact: (id, at, calendar) => answerContactMessage(kit.db, id, at, calendar),
        leadEmails,
        settings: responseSettings,
        weekly,
        internalToken: config.INTERNAL_TOKEN,
        // Open panels reload the lead (a hint: a Redis failure is logged, the e-mail is kept).
        emailStored: (leaseRequestId, emailId) =>
          publishEvent(
            kit.redis,
            kit.keys,
            CHANNELS.leadEmail,
            LeadEmailEvent,
            { leaseRequestId, emailId, at: new Date().toISOString() },
            kit.logger,
          ),
      }),
      privacyRoutes("leads", {
        store: privacy,
        queue,
        queueName: QUEUES.leads,
        guard: requireInternal(config.INTERNAL_TOKEN),
      }),
    ],
    onStop: [
      async () => stopOverdueScan(),
      async () => stopWeeklySchedule(),
      async () => stopReportRebuild(),
      async () => stopRetention(),
      async () => stopIpRetention(),
      () => relay.stop(),
      () => worker.close(),
      () => queue.close(),
    ],
  });
  outbox.registerMetrics(running.app.metrics.registry);
  // The attempts only: the queue's job counts come from the mailer, which reads every queue's.
  running.app.metrics.registry.registerMetric(attributionJobs.attempts);
  running.app.metrics.registry.registerMetric(overdueCount);
  return running;
}
