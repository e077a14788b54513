import os from "node:os";
import type { Context } from "koa";
import { Counter, Gauge } from "prom-client";
import {
  createKit,
  createQueueClient,
  createWorker,
  loadConfig,
  queueMetrics,
  publishEvent,
  startService,
  type Logger,
  type RunningService,
  privacyRoutes,
  requireInternal,
  auditedTransactions,
  startServiceOutbox,
  clientIp,
  parseTrustedProxies,
  redisRateLimiter,
} from "@lease/platform";
import { CHANNELS, EmailReceivedEvent, MailOutcomeEvent, QUEUES } from "@lease/contracts";
import { mailerConfigSchema } from "./config";
import { outbox as outboxTable } from "./db/schema";
import { SEND_OUTCOMES, delivery } from "./domain/delivery";
import { emailsDomain } from "./domain/emails";
import { httpLeadsSource, type LeadsSource } from "./repositories/leads-source";
import { httpCampaignSource } from "./repositories/campaign-source";
import {
  httpMailSettingsSource,
  invalidateOnSettingsChange,
  type MailSettingsSource,
} from "./repositories/mail-settings";
import { redisPolicyCheck } from "./domain/redis-policy";
import { sendgridTransport } from "./domain/transport";
import { mailHandlers, onFinalFailure } from "./jobs/handlers";
import { startSweeper } from "./jobs/sweeper";
import { inboxRepository } from "./repositories/inbox";
import { outgoingRepository } from "./repositories/outgoing";
import { adminRoutes } from "./routes/admin";
import { privacyRepository } from "./repositories/privacy";
import { mailPrivacyStore } from "./domain/privacy";
import { scheduleMailRetention } from "./jobs/retention";
import { inboundDomain } from "./domain/inbound";
import { inboundRepository } from "./repositories/inbound";
import { conversationRepository } from "./repositories/conversation";
import { leadMailHeaders, replyMatcher, startSenderMatchRetry } from "./domain/conversation";
import { eventWebhookDomain } from "./domain/event-webhook";
import { deliveryEventsRepository } from "./repositories/delivery-events";
import { emailTemplatesRepository } from "./repositories/email-templates";
import { emailTemplateRoutes } from "./routes/email-templates";
import { inboundParseRoutes, webhookSettingsRoutes } from "./routes/inbound";

export const MAILER_MIGRATIONS = new URL("../migrations", import.meta.url);

export interface MailerOptions {
  logger?: Logger;
  /** Replaces the settings service (tests of other services may pass their own). */
  settings?: MailSettingsSource;
  leads?: LeadsSource;
  /** Lower this process's CPU priority to WORKER_NICE (the real process only, not a test's). */
  applyNice?: boolean;
}

export async function startMailer(
  env: NodeJS.ProcessEnv = process.env,
  opts: MailerOptions = {},
): Promise<RunningService> {
  const config = loadConfig(mailerConfigSchema, env);
  const kit = await createKit("mailer", config, { logger: opts.logger, migrationsFolder: MAILER_MIGRATIONS });
  const log = kit.logger;
  if (opts.applyNice && config.WORKER_NICE > 0) {
    try {
      os.setPriority(config.WORKER_NICE);
    } catch (err) {
      log.warn({ err: (err as Error).message }, "could not lower the process priority");
    }
  }
  const policyCheck = redisPolicyCheck(kit.redis, log);
  await policyCheck().catch(() => undefined); // logged; readiness keeps failing until fixed

  const settings =
    opts.settings ??
    httpMailSettingsSource({
      settingsUrl: config.SETTINGS_URL,
      internalToken: config.INTERNAL_TOKEN,
      ttlMs: config.MAIL_SETTINGS_CACHE_MS,
    });
  await invalidateOnSettingsChange(settings, kit.subscriber(), kit.keys, log).catch((err: Error) =>
    log.warn({ err: err.message }, "not subscribed to settings changes; relying on the cache expiry"),
  );
  const inbox = inboxRepository(kit.db);
  const leads = opts.leads ?? httpLeadsSource(config.LEADS_URL, config.INTERNAL_TOKEN);
  const conversation = conversationRepository(kit.db);
  const outgoing = outgoingRepository(kit.db);
  const queue = createQueueClient(kit.bullConnection(), config.REDIS_PREFIX);
  const queueFigures = queueMetrics(queue, Object.values(QUEUES));
  const sends = new Counter({
    name: "mailer_sends_total",
    help: "E-mail send attempts by outcome; all but sent and retry leave the e-mail failed in the inbox",
    labelNames: ["outcome"] as const,
    registers: [],
  });
  // Every outcome from the start at 0, so an alert's increase() sees the first failure too.
  for (const outcome of SEND_OUTCOMES) sends.inc({ outcome }, 0);
  const send = delivery({
    outgoing,
    settings,
    transport: sendgridTransport(config.SENDGRID_API_BASE_URL),
    staleClaimMs: config.SEND_STALE_CLAIM_MS,
    onOutcome: (outcome) => sends.inc({ outcome }),
    // The admin's socket (tracking relays the channel) shows it in compose and sent mail.
    outcome: (outcome) =>
      publishEvent(
        kit.redis,
        kit.keys,
        CHANNELS.mailOutcome,
        MailOutcomeEvent,
        { ...outcome, at: new Date().toISOString() },
        log,
      ),
  });
  const worker = createWorker({
    connection: kit.bullConnection(),
    redisPrefix: config.REDIS_PREFIX,
    queue: QUEUES.mail,
    handlers: mailHandlers({
      inbox,
      outgoing,
      settings,
      delivery: send,
      leads,
      conversation,
      publicOrigin: config.PUBLIC_ORIGIN,
      campaigns: config.TRACKING_URL
        ? httpCampaignSource(config.TRACKING_URL, config.INTERNAL_TOKEN)
        : undefined,
    }),
    logger: log.child({ component: "mail-worker" }),
    concurrency: config.WORKER_CONCURRENCY,
    lockDurationMs: config.WORKER_LOCK_MS,
    stalledIntervalMs: config.WORKER_STALLED_INTERVAL_MS,
    onFinalFailure: onFinalFailure({ delivery: send, outgoing }, log),
    metrics: queueFigures,
  });
  const sweeper = startSweeper({ outgoing, queue, intervalMs: config.SWEEP_INTERVAL_MS, logger: log });
  // The admins' actions here are recorded in the gateway's audit log: audit.record jobs written to
  // mailer.outbox in the change's transaction, relayed to the queue (a Redis outage loses none).
  const outbox = await startServiceOutbox(kit, queue);
  const webhookSettings = inboundRepository(kit.db);
  const emails = emailsDomain({
    mailHeaders: async ({ leaseRequestId, inReplyToEmailId, outgoingId, fromAddress }) => {
      const [token, hooks, parent] = await Promise.all([
        leaseRequestId ? conversation.tokenFor(leaseRequestId) : null,
        webhookSettings.settings(),
        inReplyToEmailId ? conversation.threadOf(inReplyToEmailId) : undefined,
      ]);
      const headers = leadMailHeaders(outgoingId, token, hooks.replyAddress, fromAddress, parent);
      return {
        replyTo: headers.replyTo,
        messageIdHeader: headers.messageId,
        referencesHeader: headers.references,
        inReplyToHeader: headers.inReplyTo,
      };
    },
    inbox,
    outgoing,
    settings,
    queue,
    delivery: send,
    transaction: auditedTransactions(kit.db, outboxTable, outbox, (tx) => ({
      inbox: inboxRepository(tx),
      outgoing: outgoingRepository(tx),
    })),
  });

  // Customers' replies through SendGrid's Inbound Parse (services/mailer/README.md).
  const trusted = parseTrustedProxies(config.TRUSTED_PROXIES);
  const inbound = inboundDomain({
    repo: webhookSettings,
    maxBytes: config.INBOUND_MAX_BYTES,
    attachmentsMaxBytes: config.MAIL_ATTACHMENTS_MAX_BYTES,
    maxConcurrent: config.INBOUND_MAX_CONCURRENT,
    match: replyMatcher({ conversation, leads, log }),
    // Open admin panels hear of it at once (a hint: a Redis failure is logged, the e-mail is stored).
    stored: ({ id, leaseRequestId, spam }) =>
      publishEvent(
        kit.redis,
        kit.keys,
        CHANNELS.emailReceived,
        EmailReceivedEvent,
        { emailId: id, leaseRequestId, spam, at: new Date().toISOString() },
        log,
      ),
    nudge: () => outbox.relay.nudge(),
  });
  // A reply whose sender leads could not look up when it came is matched once leads answers.
  const senderRetry = startSenderMatchRetry({
    inbound: webhookSettings,
    leads,
    intervalMs: config.SWEEP_INTERVAL_MS,
    log: log.child({ component: "sender-match" }),
    nudge: () => outbox.relay.nudge(),
  });
  const events = eventWebhookDomain({
    settings: webhookSettings,
    events: deliveryEventsRepository(kit.db),
    nudge: () => outbox.relay.nudge(),
  });
  const inboundLimiter = redisRateLimiter(
    kit.redis,
    kit.keys,
    config.INBOUND_RATE_LIMIT,
    config.INBOUND_RATE_WINDOW_SECONDS,
    { message: "Te veel berichten in korte tijd. Probeer het over een minuut opnieuw." },
  );
  // The URL staff copy into SendGrid: on the site's origin, else the one the gateway forwarded.
  const siteOrigin = (ctx: Context) => {
    if (config.PUBLIC_ORIGIN) return config.PUBLIC_ORIGIN;
    const proto = ctx.get("x-forwarded-proto");
    const host = ctx.get("x-forwarded-host");
    return trusted(ctx.req.socket.remoteAddress ?? "") && host ? `${proto || "http"}://${host}` : ctx.origin;
  };

  const templates = emailTemplatesRepository(kit.db, () => outbox.relay.nudge());
  await templates.ensureDefault();

  const privacy = privacyRepository(kit.pool);
  const stopRetention = scheduleMailRetention(
    privacy,
    config.MAIL_RETENTION_DAYS,
    log.child({ component: "retention" }),
  );

  const running = await startService(kit, {
    routes: [
      adminRoutes({ emails, session: kit.session }),
      webhookSettingsRoutes({ inbound, events, session: kit.session, origin: siteOrigin }),
      emailTemplateRoutes({ templates, session: kit.session }),
      inboundParseRoutes({
        inbound,
        events,
        limiter: inboundLimiter,
        clientIp: (ctx) => clientIp(ctx.req, trusted),
      }),
      privacyRoutes("mailer", {
        store: mailPrivacyStore(privacy, settings),
        queue,
        queueName: QUEUES.mail,
        guard: requireInternal(config.INTERNAL_TOKEN),
      }),
    ],
    readiness: { redisEvictionPolicy: policyCheck },
    onStop: [
      async () => stopRetention(),
      () => sweeper.stop(),
      () => senderRetry.stop(),
      () => outbox.relay.stop(),
      () => worker.close(),
      () => queue.close(),
    ],
  });
  queueFigures.register(running.app.metrics.registry);
  outbox.registerMetrics(running.app.metrics.registry);
  running.app.metrics.registry.registerMetric(sends);
  // Replies stored while leads could not say whose address their sender is (startSenderMatchRetry):
  // read from the database at each scrape, so every replica reports the same backlog.
  const backlog = () => webhookSettings.senderMatchBacklog();
  running.app.metrics.registry.registerMetric(
    new Gauge({
      name: "mailer_replies_awaiting_sender_match",
      help: "Customers' replies stored as Algemene E-mail whose sender is still to be matched to an open lead",
      registers: [],
      async collect() {
        this.set((await backlog()).count);
      },
    }),
  );
  running.app.metrics.registry.registerMetric(
    new Gauge({
      name: "mailer_replies_awaiting_sender_match_oldest_seconds",
      help: "How long the oldest reply has waited for its sender to be matched (0: none waits)",
      registers: [],
      async collect() {
        const { oldestSince } = await backlog();
        this.set(oldestSince ? Math.max(0, (Date.now() - oldestSince.getTime()) / 1000) : 0);
      },
    }),
  );
  return running;
}
