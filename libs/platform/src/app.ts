import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import Koa, { type Context, type Next } from "koa";
import Router from "@koa/router";
import type { Logger } from "./logger";
import { bodyLimitForPath, loggedPath } from "@lease/contracts";
import { jsonBody } from "./body";
import { HttpError, isDatabaseUnavailable } from "./errors";
import { createMetrics, routeLabel, type HttpMetrics } from "./metrics";
import { isRedisUnavailable } from "./redis";
import {
  SpanKind,
  SpanStatusCode,
  contextFrom,
  startSpan,
  tracingEnabled,
  withActiveSpan,
  type Span,
} from "./tracing";

export type ReadinessCheck = () => Promise<void>;

/** Whether every readiness check passed, and each check's outcome (never its error). */
export interface Readiness {
  ready: boolean;
  checks: Record<string, "ok" | "failed">;
}

/**
 * How old a readiness result the public port may answer: whoever calls /readyz there, the
 * dependencies are pinged at most once a second (the probes on the metrics port check afresh).
 */
export const PUBLIC_READINESS_MAX_AGE_MS = 1000;

export interface AppOptions {
  service: string;
  logger: Logger;
  /** Routes of the service; mounted after health, metrics, request id, errors and body parsing. */
  routes: Router | Router[];
  /** Routes whose handlers read the body themselves: mounted after `before`, ahead of the body parser. */
  rawRoutes?: Router;
  readiness?: Record<string, ReadinessCheck>;
  bodyLimitBytes?: number;
  /** Extra middleware run before the body parser (the gateway's proxy). */
  before?: Koa.Middleware[];
  /** Middleware that wraps every answer, health and errors included (security headers). */
  outer?: Koa.Middleware[];
  /** Continue a trace named by the request's traceparent header (false at the public edge). */
  traceFromHeaders?: boolean;
}

export interface ServiceApp {
  app: Koa;
  metrics: HttpMetrics;
  /** Requests currently being handled; shutdown waits for this to reach 0. */
  inFlight: () => number;
  /** Counts a request handled outside Koa (a fast path) as in flight; call the result when done. */
  begin: () => () => void;
  /**
   * Runs the readiness checks (concurrent callers share one run), or answers a result no older
   * than maxAgeMs. The details are for the metrics port only (README, "Leaking internals").
   */
  readiness: (maxAgeMs?: number) => Promise<Readiness>;
}

/**
 * A handler that may answer a request before Koa sees it (the gateway's beacon path). It either
 * answers the request itself or calls `next` at once.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

declare module "koa" {
  interface DefaultState {
    log: Logger;
    requestId: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const INTERNAL_MESSAGE = "Er ging iets mis aan onze kant. Probeer het later opnieuw.";

export function createApp(opts: AppOptions): ServiceApp {
  const app = new Koa({ proxy: false });
  let inFlight = 0;
  const metrics = createMetrics(opts.service, () => inFlight);
  // Koa prints uncaught errors itself; ours are all logged by the error middleware below.
  app.silent = true;

  app.use(async function requestContext(ctx: Context, next: Next) {
    const requestId = requestIdFrom(ctx.get("x-request-id"));
    ctx.state.requestId = requestId;
    // The request's logger is made on first use: most requests log nothing, and a pino child
    // (bindings run through the redaction serialisers) is a large share of a small request's cost.
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, "log", {
      get: () => (log ??= opts.logger.child({ reqId: requestId })),
      configurable: true,
      enumerable: true,
    });
    ctx.set("x-request-id", requestId);
    if (!tracingEnabled()) return handle(ctx, next);
    // The gateway starts each trace itself: a client's traceparent is not believed at the edge.
    const parent = contextFrom(opts.traceFromHeaders === false ? undefined : ctx.req.headers);
    const span = startSpan(ctx.method, { kind: SpanKind.SERVER, parent });
    return withActiveSpan(span, () => handle(ctx, next, span), parent);
  });

  async function handle(ctx: Context, next: Next, span?: Span) {
    const started = process.hrtime.bigint();
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = { method: ctx.method, route: routeLabel(ctx.path), status: String(ctx.status) };
      metrics.requests.inc(labels);
      metrics.duration.observe(labels, seconds);
      if (span) endServerSpan(span, labels.method, labels.route, ctx.status);
      // A path that is itself a secret (a URL that works without a cookie) is logged as its template.
      if (ctx.status >= 500)
        ctx.state.log.warn(
          { method: ctx.method, path: loggedPath(ctx.path), status: ctx.status, ms: seconds * 1000 },
          "request failed",
        );
      else if (opts.logger.isLevelEnabled("debug"))
        ctx.state.log.debug(
          { method: ctx.method, path: loggedPath(ctx.path), status: ctx.status, ms: seconds * 1000 },
          "request",
        );
    }
  }

  for (const mw of opts.outer ?? []) app.use(mw);

  app.use(async function errorsAsJson(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new HttpError(404, "not_found", `Onbekende route: ${ctx.method} ${ctx.path}`);
      }
      if (ctx.status === 405 && (ctx.body === undefined || typeof ctx.body === "string")) {
        throw new HttpError(
          405,
          "method_not_allowed",
          `Methode ${ctx.method} is niet toegestaan op ${ctx.path}`,
          undefined,
          {
            Allow: ctx.response.get("Allow"),
          },
        );
      }
    } catch (err) {
      const httpError = toHttpError(err);
      if (httpError.status >= 500 && httpError.code === "internal") {
        ctx.state.log.error({ err }, "unhandled error");
      } else if (httpError.status >= 500) {
        ctx.state.log.warn(
          { err: { message: (err as Error).message, code: (err as { code?: string }).code } },
          httpError.code,
        );
      }
      ctx.status = httpError.status;
      for (const [name, value] of Object.entries(httpError.headers)) if (value) ctx.set(name, value);
      ctx.body = httpError.toBody();
    }
  });

  const health = new Router();
  health.get("/healthz", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: "ok", service: opts.service };
  });
  // Why a check fails (host names, ports, driver messages) goes to the log, never to an answer.
  // Logged when a check starts failing, not per probe.
  const failing = new Set<string>();
  async function checkReadiness(): Promise<Readiness> {
    const checks: Record<string, "ok" | "failed"> = {};
    let ready = true;
    await Promise.all(
      Object.entries(opts.readiness ?? {}).map(async ([name, check]) => {
        try {
          await withTimeout(check(), 2000);
          checks[name] = "ok";
          if (failing.delete(name)) opts.logger.info({ check: name }, "readiness check passes again");
        } catch (err) {
          ready = false;
          checks[name] = "failed";
          if (!failing.has(name)) {
            failing.add(name);
            opts.logger.warn({ check: name, reason: (err as Error).message }, "readiness check failed");
          }
        }
      }),
    );
    return { ready, checks };
  }
  let running: Promise<Readiness> | undefined;
  let last: { at: number; result: Readiness } | undefined;
  const readiness = (maxAgeMs = 0): Promise<Readiness> => {
    if (last && Date.now() - last.at <= maxAgeMs) return Promise.resolve(last.result);
    running ??= checkReadiness()
      .then((result) => {
        last = { at: Date.now(), result };
        return result;
      })
      .finally(() => (running = undefined));
    return running;
  };
  // The public port (the gateway's faces the internet) says up or down, nothing about what is
  // inside; which check failed is answered on the metrics port (startMetricsServer).
  health.get("/readyz", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    const { ready } = await readiness(PUBLIC_READINESS_MAX_AGE_MS);
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? "ready" : "not_ready" };
  });
  // Metrics live on their own listener (METRICS_PORT); here the path is refused like any unknown one.
  health.all("/metrics", (ctx) => {
    throw new HttpError(404, "not_found", `Onbekende route: ${ctx.method} ${ctx.path}`);
  });
  app.use(health.routes());

  for (const mw of opts.before ?? []) app.use(mw);
  if (opts.rawRoutes && opts.rawRoutes.stack.length > 0) {
    app.use(opts.rawRoutes.routes());
    app.use(opts.rawRoutes.allowedMethods());
  }
  // A route of API_ROUTES may take more (an uploaded export): its own limit then.
  app.use(jsonBody(opts.bodyLimitBytes ?? 16 * 1024, bodyLimitForPath));

  for (const router of Array.isArray(opts.routes) ? opts.routes : [opts.routes]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }

  return {
    app,
    metrics,
    inFlight: () => inFlight,
    readiness,
    begin: () => {
      inFlight++;
      let done = false;
      return () => {
        if (!done) inFlight--;
        done = true;
      };
    },
  };
}

/** Names a server span by its route template and records the answer's status. */
export function endServerSpan(span: Span, method: string, route: string, status: number): void {
  span.updateName(`${method} ${route}`);
  span.setAttributes({
    "http.request.method": method,
    "http.route": route,
    "http.response.status_code": status,
  });
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** The caller's X-Request-Id when it is a sane token, else a fresh one. */
export function requestIdFrom(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (isDatabaseUnavailable(err)) {
    return new HttpError(
      503,
      "service_unavailable",
      "De database is tijdelijk niet bereikbaar. Probeer het zo opnieuw.",
      undefined,
      {
        "Retry-After": "5",
      },
    );
  }
  if (isRedisUnavailable(err)) {
    return new HttpError(
      503,
      "service_unavailable",
      "Een onderdeel is tijdelijk niet bereikbaar. Probeer het zo opnieuw.",
      undefined,
      {
        "Retry-After": "5",
      },
    );
  }
  const status = (err as { status?: number; expose?: boolean }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new HttpError(
      status,
      "bad_request",
      (err as { expose?: boolean }).expose ? (err as Error).message : "Ongeldig verzoek",
    );
  }
  return new HttpError(500, "internal", INTERNAL_MESSAGE);
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
