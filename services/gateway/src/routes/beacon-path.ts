import type { IncomingMessage, ServerResponse } from "node:http";
import { TRACK_BEACON_MAX_BYTES, type InternalTrackResult } from "@lease/contracts";
import {
  HttpError,
  SpanKind,
  clientIp,
  contextFrom,
  contractRouter,
  endServerSpan,
  requestIdFrom,
  routeLabel,
  socketScheme,
  startSpan,
  tracingEnabled,
  type FastPath,
  type Logger,
  type ServiceApp,
  type TrustedProxies,
} from "@lease/platform";
import { UPSTREAM_INVALID_MESSAGE } from "./proxy";
import { crossSiteRefusal, securityHeaderList } from "../domain/security";
import type { TrackBatcher } from "../domain/track-batcher";

const BEACON_PATHS: Record<"/api/track/visit" | "/api/track/heartbeat", "visit" | "heartbeat"> &
  Record<string, "visit" | "heartbeat" | undefined> = {
  "/api/track/visit": "visit",
  "/api/track/heartbeat": "heartbeat",
};
const JSON_TYPE = /^application\/json\s*(;|$)/i;
const TOO_LARGE = new HttpError(
  413,
  "payload_too_large",
  `Het verzoek is te groot (maximaal ${TRACK_BEACON_MAX_BYTES} bytes)`,
);
const NOT_JSON = new HttpError(415, "unsupported_media_type", "Stuur de gegevens als application/json");

/**
 * The site's visit beacons, POST /api/track/visit and /heartbeat: the gateway's own routes, and the
 * one way a beacon reaches tracking. A campaign burst is mostly these, so they are answered in front
 * of Koa (Koa's per-request machinery doubled the gateway's CPU per beacon: loadtests/REPORT.md,
 * "Visit beacon path"), with what Koa would add: the security headers, request id, CSRF rules,
 * request metrics and trace. The body (JSON, at most 16 KB, not parsed here) goes with the
 * visitor's address, user agent and cookie into the next batch to tracking's one ingest route
 * (`createTrackBatcher`); each visitor gets the answer tracking gave for its own hit.
 *
 * `fastPath` takes every POST to the two paths (a query string is ignored); `routes` mounts the
 * same handler as the contract's routes, so the route table names them and a request that reaches
 * Koa anyway (none does while the fast path is installed) is answered the same.
 */
export function beaconPath(deps: {
  batcher: TrackBatcher;
  trusted: TrustedProxies;
  publicOrigin?: string;
  httpsOnly: boolean;
  logger: Logger;
}) {
  let app: ServiceApp | undefined;

  function handle(
    req: IncomingMessage,
    res: ServerResponse,
    kind: "visit" | "heartbeat",
    viaKoa: { requestId: string } | undefined,
  ) {
    const h = req.headers;
    const header = (name: string) => {
      const v = h[name];
      return Array.isArray(v) ? v.join(", ") : (v ?? "");
    };
    // Koa counts and traces what it handles itself.
    const done = viaKoa ? () => undefined : app!.begin();
    const started = process.hrtime.bigint();
    // A beacon's span is kept only when the sampler keeps its trace: an unsampled one would only
    // add a dead link to its batch's span (and its export) for every beacon.
    const sampled =
      !viaKoa && tracingEnabled()
        ? startSpan("POST", { kind: SpanKind.SERVER, parent: contextFrom(undefined) })
        : undefined;
    const span = sampled?.isRecording() ? sampled : undefined;
    const requestId = viaKoa?.requestId ?? requestIdFrom(h["x-request-id"]);

    const refusal =
      crossSiteRefusal("POST", "/api/track/", header, deps.publicOrigin, socketScheme(req)) ??
      (JSON_TYPE.test(h["content-type"] ?? "") ? undefined : NOT_JSON);
    if (refusal) {
      answerError(refusal);
      return void req.resume(); // the unread body is discarded
    }
    if (Number(h["content-length"]) > TRACK_BEACON_MAX_BYTES) return tooLarge();

    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > TRACK_BEACON_MAX_BYTES) {
        if (!over) tooLarge();
        over = true;
      } else chunks.push(c);
    });
    req.once("error", () => {
      done();
      span?.end();
      res.destroy();
    });
    req.once("end", () => {
      if (over) return;
      deps.batcher
        .submit(
          {
            kind,
            body: Buffer.concat(chunks).toString("utf8"),
            ip: clientIp(req, deps.trusted),
            userAgent: h["user-agent"],
            cookie: h.cookie,
            requestId,
          },
          span && { context: span.spanContext() },
        )
        .then(answer, (err: unknown) =>
          answerError(
            err instanceof HttpError ? err : new HttpError(502, "bad_gateway", UPSTREAM_INVALID_MESSAGE),
          ),
        );
    });

    function tooLarge() {
      // The rest of an oversized body is not read: the connection closes after the answer.
      res.setHeader("Connection", "close");
      answerError(TOO_LARGE);
      req.resume();
    }

    function answerError(e: HttpError) {
      answer({ status: e.status, error: e.toBody(), headers: e.headers });
    }

    function answer(result: InternalTrackResult) {
      if (res.headersSent) return;
      res.statusCode = result.status;
      const https = deps.httpsOnly || Boolean((req.socket as { encrypted?: boolean }).encrypted);
      for (const [name, value] of securityHeaderList(https)) res.setHeader(name, value);
      res.setHeader("X-Request-Id", requestId);
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      if (result.status === 204) res.end();
      else {
        const json = JSON.stringify(
          result.error ?? { code: "bad_gateway", message: UPSTREAM_INVALID_MESSAGE },
        );
        res.setHeader("Content-Type", "application/json; charset=utf-8");
        res.setHeader("Content-Length", Buffer.byteLength(json));
        res.end(json);
      }
      done();
      if (viaKoa) return;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = {
        method: "POST",
        route: routeLabel(`/api/track/${kind}`),
        status: String(result.status),
      };
      app!.metrics.requests.inc(labels);
      app!.metrics.duration.observe(labels, seconds);
      if (span) endServerSpan(span, labels.method, labels.route, result.status);
      if (result.status >= 500)
        deps.logger
          .child({ reqId: requestId })
          .warn(
            { method: "POST", path: req.url, status: result.status, ms: seconds * 1000 },
            "request failed",
          );
    }
  }

  const fastPath =
    (serviceApp: ServiceApp): FastPath =>
    (req, res, next) => {
      app = serviceApp;
      const url = req.url ?? "";
      const q = url.indexOf("?");
      const kind = req.method === "POST" ? BEACON_PATHS[q < 0 ? url : url.slice(0, q)] : undefined;
      if (!kind) return next();
      handle(req, res, kind, undefined);
    };

  const routes = contractRouter("gateway", undefined, { rawBody: true });
  for (const path of ["/api/track/visit", "/api/track/heartbeat"] as const) {
    const kind = BEACON_PATHS[path];
    routes.post(path, async function trackBeacon(ctx) {
      ctx.respond = false;
      await new Promise<void>((resolve) => {
        ctx.res.once("finish", resolve);
        ctx.res.once("close", resolve);
        handle(ctx.req, ctx.res, kind, { requestId: ctx.state.requestId });
      });
    });
  }

  return { fastPath, routes };
}
