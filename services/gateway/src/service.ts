import { Histogram } from "prom-client";
import type { Context, Next } from "koa";
import {
  API_ROUTES,
  QUEUES,
  bodyLimitForPath,
  isWebhookPath,
  buildOpenApiDocument,
  createServiceMatcher,
  serviceForPath,
  type ServiceName,
} from "@lease/contracts";
import {
  HttpError,
  clientIp,
  contractRouter,
  createKit,
  createQueueClient,
  createWorker,
  queueMetrics,
  parseTrustedProxies,
  loadConfig,
  requireAdmin,
  scheduleDaily,
  startService,
  startServiceOutbox,
  type Logger,
  type RunningService,
} from "@lease/platform";
import { gatewayConfigSchema, type GatewayConfig } from "./config";
import { createUpstream, proxyTo, type Upstream } from "./routes/proxy";
import { createTrackBatcher } from "./domain/track-batcher";
import { createStaticSite } from "./routes/static";
import { createWsProxy } from "./routes/ws-proxy";
import { csrfGuard, securityHeaders } from "./domain/security";
import { adminsRepository } from "./repositories/admins";
import { authRoutes, type AuthDeps } from "./routes/auth";
import { accountRoutes } from "./routes/account";
import { userRoutes } from "./routes/users";
import { auditRoutes } from "./routes/audit";
import { beaconPath } from "./routes/beacon-path";
import { auditRepository } from "./repositories/audit";
import { privacyRoutes } from "./routes/privacy";
import { privacyDomain } from "./domain/privacy";
import { privacyRepository } from "./repositories/privacy";
import { codeBrake, loginThrottle } from "./domain/login-throttle";
import { passwordGate } from "./domain/password-gate";
import { loginEvents } from "./domain/login-events";
import { loginTickets } from "./domain/login-tickets";
import { secretBox } from "./domain/secret-box";

export const GATEWAY_MIGRATIONS = new URL("../migrations", import.meta.url);

export async function startGateway(
  env: NodeJS.ProcessEnv = process.env,
  opts: { logger?: Logger } = {},
): Promise<RunningService> {
  const config: GatewayConfig = loadConfig(gatewayConfigSchema, env);
  const kit = await createKit("gateway", config, {
    logger: opts.logger,
    migrationsFolder: GATEWAY_MIGRATIONS,
  });
  const trusted = parseTrustedProxies(config.TRUSTED_PROXIES);
  const httpsSite = config.PUBLIC_ORIGIN?.startsWith("https:") ?? false;
  // The conversions service answers one admin route (a platform's test event); without
  // CONVERSIONS_URL that route is a 503 and everything else works.
  const upstreams: Record<Exclude<ServiceName, "gateway" | "conversions">, Upstream> & {
    conversions?: Upstream;
  } = {
    leads: createUpstream("leads", config.LEADS_URL),
    settings: createUpstream("settings", config.SETTINGS_URL),
    tracking: createUpstream("tracking", config.TRACKING_URL),
    mailer: createUpstream("mailer", config.MAILER_URL),
    ...(config.CONVERSIONS_URL ? { conversions: createUpstream("conversions", config.CONVERSIONS_URL) } : {}),
  };
  const batchSizes = new Histogram({
    name: "gateway_beacon_batch_hits",
    help: "Visit beacons per call to the tracking service (coalesced per event-loop turn)",
    buckets: [1, 2, 4, 8, 16, 32, 64, 128],
    registers: [],
  });
  const batcher = createTrackBatcher(upstreams.tracking, {
    internalToken: config.INTERNAL_TOKEN,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    logger: kit.logger,
    onBatch: (hits) => batchSizes.observe(hits),
  });
  const beacons = beaconPath({
    batcher,
    trusted,
    publicOrigin: config.PUBLIC_ORIGIN,
    httpsOnly: httpsSite,
    logger: kit.logger,
  });
  const site = createStaticSite(config.WEB_DIST_DIR, { publicOrigin: config.PUBLIC_ORIGIN });
  const adminGate = requireAdmin(kit.session);
  const ownAdminRoute = createServiceMatcher(
    API_ROUTES.filter((r) => r.service === "gateway" && r.auth === "admin"),
  );
  let openApi: string | undefined;

  const own = contractRouter("gateway");
  own.get("/api/openapi.json", (ctx) => {
    openApi ??= JSON.stringify(buildOpenApiDocument());
    ctx.type = "application/json";
    ctx.body = openApi;
  });

  const audit = auditRepository(kit.db);
  const authDeps: AuthDeps = {
    admins: adminsRepository(kit.db),
    session: kit.session,
    throttle: loginThrottle(kit.redis, kit.keys, {
      maxFailures: config.LOGIN_MAX_FAILURES,
      maxAddressFailures: config.LOGIN_MAX_ADDRESS_FAILURES,
      windowMs: config.LOGIN_WINDOW_MINUTES * 60_000,
      baseLockMs: config.LOGIN_LOCK_MINUTES * 60_000,
      maxLockMs: config.LOGIN_MAX_LOCK_MINUTES * 60_000,
    }),
    passwords: passwordGate({
      concurrency: config.LOGIN_HASH_CONCURRENCY,
      queue: config.LOGIN_HASH_QUEUE,
      maxWaitMs: config.LOGIN_HASH_WAIT_MS,
    }),
    codes: codeBrake(kit.redis, kit.keys, {
      maxFailures: config.LOGIN_MAX_CODE_FAILURES,
      windowMs: config.LOGIN_CODE_WINDOW_MINUTES * 60_000,
    }),
    events: loginEvents({ redis: kit.redis, keys: kit.keys, audit, logger: kit.logger }),
    tickets: loginTickets(kit.redis, kit.keys),
    secrets: secretBox(config.JWT_SECRET, "admin-totp-secret"),
    audit,
    secureCookies: (ctx) => httpsSite || ctx.protocol === "https",
    clientIp: (ctx) => clientIp(ctx.req, trusted),
  };
  // The name the authenticator app shows above the code: configured, never a request's Host header.
  const issuer =
    config.TOTP_ISSUER ??
    (config.PUBLIC_ORIGIN ? `Beheer ${new URL(config.PUBLIC_ORIGIN).hostname}` : "Leasebeheer");

  /**
   * Everything that is not the gateway's own: proxy /api to the service that API_ROUTES names for
   * the path's route (a path of no route is refused here), serve the web app.
   */
  async function routeRequest(ctx: Context, next: Next) {
    const path = ctx.path;
    // Any spelling of /api is the API's: a path of no route (e.g. "/API/ADMIN/LOGOUT") is a JSON 404.
    const lower = path.toLowerCase();
    if (lower === "/api" || lower.startsWith("/api/")) {
      const service = serviceForPath(path);
      if (service === "gateway") {
        // The session before the body: an admin route's body is read only for a signed-in admin.
        if (ownAdminRoute(path)) await adminGate(ctx, async () => undefined);
        return next();
      }
      if (service === "conversions" && !upstreams.conversions)
        throw new HttpError(
          503,
          "service_unavailable",
          "De conversiedienst is niet ingesteld (CONVERSIONS_URL).",
        );
      const upstream = service ? upstreams[service] : undefined;
      if (!upstream) throw new HttpError(404, "not_found", `Onbekende route: ${ctx.method} ${path}`);
      // The gateway checks the session first; the service checks it again.
      if (path.startsWith("/api/admin/")) await adminGate(ctx, async () => undefined);
      // Refuse an oversized body here, before a byte of it is read or forwarded (a route may take more).
      const bodyLimitBytes = bodyLimitForPath(path) ?? config.BODY_LIMIT_BYTES;
      if (Number(ctx.get("content-length") || 0) > bodyLimitBytes) {
        ctx.set("Connection", "close");
        throw new HttpError(
          413,
          "payload_too_large",
          `Het verzoek is te groot (maximaal ${bodyLimitBytes} bytes)`,
        );
      }
      return proxyTo(ctx, upstream, {
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        trustedProxies: trusted,
        bodyLimitBytes,
        // A webhook's body (up to 32 MB of e-mail) is streamed: the service refuses a wrong secret
        // before reading it, and the gateway holds none of it in memory.
        stream: isWebhookPath(path),
      });
    }
    if (site.serve(ctx)) return;
    if (!site.available()) {
      throw new HttpError(
        503,
        "site_not_built",
        "De website is nog niet gebouwd (npm run build).",
        undefined,
        { "Retry-After": "30" },
      );
    }
    return next();
  }

  // The audit log keeps two years: pruned at start and daily (any replica may; it is idempotent).
  const stopPruning = scheduleDaily("audit log prune", () => authDeps.audit.prune(), kit.logger, {
    firstRunMs: 0,
    describe: (removed) => (removed > 0 ? { removed } : undefined),
  });

  // What admins did in the other services (status changes, deletions, settings, e-mails sent)
  // arrives as audit.record jobs; each is recorded once under its event id.
  const auditQueue = createQueueClient(kit.bullConnection(), config.REDIS_PREFIX);
  const auditJobs = queueMetrics(auditQueue, [QUEUES.audit]);
  const auditWorker = createWorker({
    connection: kit.bullConnection(),
    redisPrefix: config.REDIS_PREFIX,
    queue: QUEUES.audit,
    handlers: {
      "audit.record": async (event) => {
        await authDeps.audit.recordEvent(event);
      },
    },
    logger: kit.logger.child({ component: "audit-worker" }),
    concurrency: 4,
    metrics: auditJobs,
  });
  // Leads hears of each admin's state (who may own leads) from the gateway's outbox.
  const outbox = await startServiceOutbox(kit, auditQueue);

  const running = await startService(kit, {
    fastPath: beacons.fastPath,
    routes: [
      own,
      authRoutes(authDeps),
      accountRoutes(authDeps, { issuer }),
      userRoutes(authDeps),
      auditRoutes(authDeps),
      privacyRoutes({
        session: kit.session,
        audit: authDeps.audit,
        auditQueue,
        privacy: privacyDomain({
          services: upstreams,
          isStaffAddress: privacyRepository(kit.db).isStaffAddress,
          internalToken: config.INTERNAL_TOKEN,
          timeoutMs: config.UPSTREAM_TIMEOUT_MS,
          logger: kit.logger,
        }),
      }),
      beacons.routes,
    ],
    traceFromHeaders: false,
    outer: [securityHeaders(httpsSite)],
    before: [csrfGuard(config.PUBLIC_ORIGIN), routeRequest],
    onUpgrade: createWsProxy({
      upstream: upstreams.tracking,
      session: kit.session,
      logger: kit.logger,
      publicOrigin: config.PUBLIC_ORIGIN,
      trustedProxies: trusted,
    }),
    onStop: [
      async () => {
        stopPruning();
        await Promise.all(Object.values(upstreams).map((u) => u.close()));
        await outbox.relay.stop();
        await auditWorker.close();
        await auditQueue.close();
      },
    ],
  });
  outbox.registerMetrics(running.app.metrics.registry);
  running.app.metrics.registry.registerMetric(batchSizes);
  running.app.metrics.registry.registerMetric(authDeps.events.attempts);
  for (const metric of authDeps.passwords.metrics) running.app.metrics.registry.registerMetric(metric);
  // The attempts only: the queue's job counts come from the mailer, which reads every queue's.
  running.app.metrics.registry.registerMetric(auditJobs.attempts);
  return running;
}
