import type { InternalTrackResult } from "@lease/contracts";
import {
  HttpError,
  SpanKind,
  clientIp,
  contextFrom,
  endServerSpan,
  requestIdFrom,
  routeLabel,
  startSpan,
  tracingEnabled,
  type FastPath,
  type Logger,
  type ServiceApp,
  type TrustedProxies,
} from "@lease/platform";
import { keepPreReadBody } from "./pre-read";
import { UPSTREAM_INVALID_MESSAGE } from "./proxy";
import { crossSiteRefusal, securityHeaderList } from "./security";
import { BatchRefused, type TrackBatcher } from "./track-batcher";

/** Beacons small enough to travel in a batch; anything larger takes the ordinary (Koa) path. */
const BEACON_MAX_BYTES = 16 * 1024;
const BEACON_PATHS: Record<string, "visit" | "heartbeat"> = {
  "/api/track/visit": "visit",
  "/api/track/heartbeat": "heartbeat",
};
const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The visit beacon path, in front of Koa: a campaign burst is mostly these, and each needs only
 * its body read, a place in the next batch to tracking, and its answer written. It answers what
 * Koa would have answered (the same security headers, request id, metrics and CSRF rules) and
 * leaves everything else to Koa: another method or path, a query string, no length or more than
 * 16 KB, not JSON, a request the CSRF rules refuse (Koa gives the 403 / 415), or a tracking
 * service that refuses batches (Koa proxies the beacon alone, with the body read here).
 */
export function beaconPath(deps: {
  batcher: TrackBatcher;
  trusted: TrustedProxies;
  publicOrigin?: string;
  httpsOnly: boolean;
  logger: Logger;
}): (app: ServiceApp) => FastPath {
  return (app) => (req, res, next) => {
    const kind = req.method === "POST" ? BEACON_PATHS[req.url ?? ""] : undefined;
    if (!kind) return next();
    const h = req.headers;
    const length = Number(h["content-length"]);
    if (
      !(length > 0 && length <= BEACON_MAX_BYTES) ||
      h["transfer-encoding"] !== undefined ||
      !JSON_TYPE.test(h["content-type"] ?? "")
    )
      return next();
    const header = (name: string) => {
      const v = h[name];
      return Array.isArray(v) ? v.join(", ") : (v ?? "");
    };
    if (crossSiteRefusal("POST", req.url!, header, deps.publicOrigin)) return next();

    const done = app.begin();
    const started = process.hrtime.bigint();
    const span = tracingEnabled()
      ? startSpan("POST", { kind: SpanKind.SERVER, parent: contextFrom(undefined) })
      : undefined;
    const requestId = requestIdFrom(h["x-request-id"]);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.once("error", () => {
      done();
      res.destroy();
    });
    req.once("end", () => {
      const body = Buffer.concat(chunks);
      deps.batcher
        .submit(
          {
            kind,
            body: body.toString("utf8"),
            ip: clientIp(req, deps.trusted),
            userAgent: h["user-agent"],
            cookie: h.cookie,
            requestId,
          },
          span && { context: span.spanContext() },
        )
        .then(
          (result) => answer(result),
          (err: unknown) => {
            if (err instanceof BatchRefused) {
              // Koa takes it from here (and counts it): the proxy sends the body read above.
              done();
              span?.end();
              keepPreReadBody(req, body);
              return next();
            }
            const e =
              err instanceof HttpError ? err : new HttpError(502, "bad_gateway", UPSTREAM_INVALID_MESSAGE);
            answer({ status: e.status, error: e.toBody(), headers: e.headers });
          },
        );
    });

    function answer(result: InternalTrackResult) {
      res.statusCode = result.status;
      const https = deps.httpsOnly || Boolean((req.socket as { encrypted?: boolean }).encrypted);
      for (const [name, value] of securityHeaderList(https)) res.setHeader(name, value);
      res.setHeader("X-Request-Id", requestId);
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      if (result.status === 204) res.end();
      else {
        const json = JSON.stringify(result.error ?? { code: "bad_gateway", message: "Ongeldig antwoord" });
        res.setHeader("Content-Type", "application/json; charset=utf-8");
        res.setHeader("Content-Length", Buffer.byteLength(json));
        res.end(json);
      }
      done();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = { method: "POST", route: routeLabel(req.url!), status: String(result.status) };
      app.metrics.requests.inc(labels);
      app.metrics.duration.observe(labels, seconds);
      if (span) endServerSpan(span, labels.method, labels.route, result.status);
      if (result.status >= 500)
        deps.logger
          .child({ reqId: requestId })
          .warn(
            { method: "POST", path: req.url, status: result.status, ms: seconds * 1000 },
            "request failed",
          );
    }
  };
}
