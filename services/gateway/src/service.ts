import Router from "@koa/router";
import { Histogram } from "prom-client";
import type { Context, Next } from "koa";
import { buildOpenApiDocument, serviceForPath } from "@lease/contracts";
import {
  HttpError,
  clientIp,
  createKit,
  parseTrustedProxies,
  loadConfig,
  requireAdmin,
  startService,
  type Logger,
  type RunningService,
} from "@lease/platform";
import { gatewayConfigSchema, type GatewayConfig } from "./config";
import { createUpstream, proxyTo, readBody, type Upstream } from "./proxy";
import { BatchRefused, createTrackBatcher } from "./track-batcher";
import { createStaticSite } from "./static";
import { createWsProxy } from "./ws-proxy";
import { csrfGuard, securityHeaders } from "./security";
import { adminsRepository } from "./repositories/admins";
import { authRoutes } from "./routes/auth";
import { loginThrottle } from "./domain/login-throttle";

export const GATEWAY_MIGRATIONS = new URL("../migrations", import.meta.url);

/** Beacons small enough to travel in a batch; anything larger takes the ordinary proxy path. */
const BEACON_MAX_BYTES = 16 * 1024;

function beaconKind(ctx: Context): "visit" | "heartbeat" | undefined {
  if (ctx.method !== "POST") return undefined;
  const kind =
    ctx.path === "/api/track/visit" ? "visit" : ctx.path === "/api/track/heartbeat" ? "heartbeat" : undefined;
  if (!kind) return undefined;
  const length = Number(ctx.get("content-length"));
  if (!(length > 0 && length <= BEACON_MAX_BYTES) || !ctx.is("application/json")) return undefined;
  return kind;
}

/** Routes that the gateway answers itself; every other /api path is proxied by the route table. */
const OWN_PREFIXES = ["/api/admin/login", "/api/admin/logout", "/api/admin/me", "/api/openapi.json"];

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
  const upstreams: Record<string, Upstream> = {
    leads: createUpstream("leads", config.LEADS_URL),
    settings: createUpstream("settings", config.SETTINGS_URL),
    tracking: createUpstream("tracking", config.TRACKING_URL, { pipelining: 8 }),
    mailer: createUpstream("mailer", config.MAILER_URL),
  };
  const batchSizes = new Histogram({
    name: "gateway_beacon_batch_hits",
    help: "Visit beacons per call to the tracking service (coalesced per event-loop turn)",
    buckets: [1, 2, 4, 8, 16, 32, 64, 128],
    registers: [],
  });
  const beacons = createTrackBatcher(upstreams.tracking!, {
    internalToken: config.INTERNAL_TOKEN,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    logger: kit.logger,
    onBatch: (hits) => batchSizes.observe(hits),
  });
  const site = createStaticSite(config.WEB_DIST_DIR);
  const adminGate = requireAdmin(kit.session);
  let openApi: string | undefined;

  const own = new Router();
  own.get("/api/openapi.json", (ctx) => {
    openApi ??= JSON.stringify(buildOpenApiDocument());
    ctx.type = "application/json";
    ctx.body = openApi;
  });

  const router = authRoutes({
    admins: adminsRepository(kit.db),
    session: kit.session,
    throttle: loginThrottle(kit.redis, kit.keys),
    secureCookies: (ctx) => httpsSite || ctx.protocol === "https",
    clientIp: (ctx) => clientIp(ctx.req, trusted),
  });

  /** Everything that is not the gateway's own: proxy /api to its service, serve the web app. */
  async function routeRequest(ctx: Context, next: Next) {
    const path = ctx.path;
    if (OWN_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return next();
    if (path === "/api" || path.startsWith("/api/")) {
      const service = serviceForPath(path);
      const upstream = service ? upstreams[service] : undefined;
      if (!upstream) throw new HttpError(404, "not_found", `Onbekende route: ${ctx.method} ${path}`);
      // The gateway checks the session first; the service checks it again.
      if (path.startsWith("/api/admin/")) await adminGate(ctx, async () => undefined);
      // Refuse an oversized body here, before a byte of it is read or forwarded.
      if (Number(ctx.get("content-length") || 0) > config.BODY_LIMIT_BYTES) {
        ctx.set("Connection", "close");
        throw new HttpError(
          413,
          "payload_too_large",
          `Het verzoek is te groot (maximaal ${config.BODY_LIMIT_BYTES} bytes)`,
        );
      }
      const proxyOptions = {
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        trustedProxies: trusted,
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
        pipelined: path.startsWith("/api/track/"),
      };
      const beacon = beaconKind(ctx);
      if (beacon) return forwardBeacon(ctx, beacon, upstream, proxyOptions);
      return proxyTo(ctx, upstream, proxyOptions);
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

  /**
   * A visit or heartbeat goes to the tracking service in a batch with the others of this moment;
   * anything the batch cannot carry as is (not JSON, no length, the service refusing batches)
   * takes the ordinary proxy path, so every visitor gets the answer the service would give.
   */
  async function forwardBeacon(
    ctx: Context,
    kind: "visit" | "heartbeat",
    upstream: Upstream,
    proxyOptions: Parameters<typeof proxyTo>[2],
  ) {
    const body = await readBody(ctx, config.BODY_LIMIT_BYTES);
    let result;
    try {
      result = await beacons.submit({
        kind,
        body: body.toString("utf8"),
        ip: clientIp(ctx.req, trusted),
        userAgent: ctx.req.headers["user-agent"],
        cookie: ctx.req.headers.cookie,
        requestId: ctx.state.requestId,
      });
    } catch (err) {
      if (err instanceof BatchRefused) return proxyTo(ctx, upstream, { ...proxyOptions, body });
      throw err;
    }
    ctx.status = result.status;
    for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
    if (result.status !== 204)
      ctx.body = result.error ?? {
        code: "bad_gateway",
        message: "De dienst tracking gaf geen geldig antwoord.",
      };
  }

  const running = await startService(kit, {
    routes: [own, router],
    outer: [securityHeaders(httpsSite)],
    before: [csrfGuard(config.PUBLIC_ORIGIN), routeRequest],
    onUpgrade: createWsProxy({
      upstream: upstreams.tracking!,
      session: kit.session,
      logger: kit.logger,
      publicOrigin: config.PUBLIC_ORIGIN,
      trustedProxies: trusted,
    }),
    onStop: [
      async () => {
        await Promise.all(Object.values(upstreams).map((u) => u.close()));
      },
    ],
  });
  running.app.metrics.registry.registerMetric(batchSizes);
  return running;
}
