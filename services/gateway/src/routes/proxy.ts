import { Transform } from "node:stream";
import { Pool, type Dispatcher } from "undici";
import type { Context } from "koa";
import {
  HttpError,
  INTERNAL_HEADERS,
  clientIp,
  injectTraceHeaders,
  type TrustedProxies,
} from "@lease/platform";

// Hop-by-hop headers are about one connection and must not be forwarded (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  // A client's "Expect: 100-continue" is answered by the gateway's own server (Node sends the 100)
  // and the gateway forwards the body itself (read whole, or streamed for a webhook): the service
  // has nothing to continue, and undici refuses the header (the request failed as a 502).
  "expect",
]);

const DOWN_FOR_MS = 1000;

export interface Target {
  url: URL;
  pool: Pool;
  downUntil: number;
}

/** One service: one or more replicas (comma-separated URLs), each behind a keep-alive pool. */
export interface Upstream {
  name: string;
  targets: Target[];
  next: number;
  close(): Promise<void>;
}

export function createUpstream(name: string, urls: string): Upstream {
  // A keep-alive pool per replica: a burst reuses connections instead of opening thousands.
  const targets = urls
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean)
    .map((u) => ({
      url: new URL(u),
      pool: new Pool(new URL(u).origin, {
        connections: 128,
        keepAliveTimeout: 30_000,
      }),
      downUntil: 0,
    }));
  return {
    name,
    targets,
    next: 0,
    close: async () => {
      await Promise.all(targets.map((t) => t.pool.close()));
    },
  };
}

/** Round-robin over the replicas, those recently refusing connections last. */
export function orderTargets(upstream: Upstream): Target[] {
  const start = upstream.next++ % upstream.targets.length;
  const rotated = [...upstream.targets.slice(start), ...upstream.targets.slice(0, start)];
  const now = Date.now();
  return [...rotated.filter((t) => t.downUntil <= now), ...rotated.filter((t) => t.downUntil > now)];
}

function readBody(ctx: Context, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        ctx.req.off("data", onData);
        ctx.req.resume();
        ctx.set("Connection", "close");
        reject(new HttpError(413, "payload_too_large", `Het verzoek is te groot (maximaal ${limit} bytes)`));
        return;
      }
      chunks.push(chunk);
    };
    ctx.req.on("data", onData);
    ctx.req.once("end", () => resolve(Buffer.concat(chunks)));
    ctx.req.once("error", (err) =>
      reject(new HttpError(400, "bad_request", `Het verzoek kon niet worden gelezen: ${err.message}`)),
    );
  });
}

/**
 * The request body as it arrives, cut off (the upstream request fails) once it passes `limit`
 * bytes: a webhook's large body is passed on without the gateway holding it.
 */
function limitedStream(ctx: Context, limit: number): Transform {
  let size = 0;
  const limited = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) return done(new Error(`request body over ${limit} bytes`));
      done(null, chunk);
    },
  });
  ctx.req.once("error", (err) => limited.destroy(err));
  return ctx.req.pipe(limited);
}

/**
 * Forwards the request to one replica of the service and streams the answer back. The body (at
 * most the body limit) is read first, so a replica that refuses the connection can be skipped and
 * the next one tried; a dead service gives 503, a slow one 504. With `stream` the body is passed
 * on as it arrives instead (one replica is tried: the body cannot be sent twice).
 */
export async function proxyTo(
  ctx: Context,
  upstream: Upstream,
  opts: {
    timeoutMs: number;
    trustedProxies: TrustedProxies;
    bodyLimitBytes: number;
    stream?: boolean;
  },
): Promise<void> {
  const hasBody = ctx.method !== "GET" && ctx.method !== "HEAD";
  const streamed = opts.stream && hasBody ? limitedStream(ctx, opts.bodyLimitBytes) : undefined;
  const body = !hasBody || streamed ? Buffer.alloc(0) : await readBody(ctx, opts.bodyLimitBytes);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (!HOP_BY_HOP.has(name) && !INTERNAL_HEADERS.has(name) && value !== undefined) headers[name] = value;
  }
  // Set by the gateway alone (a client's own values were dropped above).
  headers["x-forwarded-for"] = clientIp(ctx.req, opts.trustedProxies);
  headers["x-forwarded-proto"] = ctx.protocol;
  headers["x-forwarded-host"] = ctx.get("host");
  headers["x-request-id"] = ctx.state.requestId;
  // The gateway starts each trace: a client's trace context goes no further, the request's own does.
  delete headers.traceparent;
  delete headers.tracestate;
  injectTraceHeaders(headers);
  if (streamed) {
    // The client's own length (checked against the limit before) or, without one, chunked.
    const declared = ctx.get("content-length");
    if (declared) headers["content-length"] = declared;
  } else if (body.length > 0 || ctx.method !== "GET") headers["content-length"] = String(body.length);

  let lastError: NodeJS.ErrnoException | undefined;
  for (const target of orderTargets(upstream)) {
    try {
      await attempt(ctx, target, headers, streamed ?? body, opts.timeoutMs);
      return;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      lastError = e;
      if (streamed) markIfRefused(target, e);
      if (streamed || !markIfRefused(target, e)) break;
    }
  }
  ctx.state.log.warn(
    { upstream: upstream.name, err: lastError?.message, code: lastError?.code },
    "upstream failed",
  );
  throw upstreamError(lastError);
}

const REFUSED = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENOTFOUND"]);

/** An undici failure with its timeouts named UPSTREAM_TIMEOUT (answered 504 by upstreamError). */
export function asUpstreamError(err: unknown): NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException;
  if (e.code === "UND_ERR_HEADERS_TIMEOUT" || e.code === "UND_ERR_BODY_TIMEOUT") e.code = "UPSTREAM_TIMEOUT";
  return e;
}

/**
 * Only a refused connection is safe to retry elsewhere: the request never reached a replica. Such
 * a replica is tried last for a moment. Returns whether the next replica may be tried.
 */
export function markIfRefused(target: Target, err: NodeJS.ErrnoException): boolean {
  if (!REFUSED.has(err.code ?? "")) return false;
  target.downUntil = Date.now() + DOWN_FOR_MS;
  return true;
}

// What visitors and staff read: no internal service names (the log and metrics name the service).
export const UPSTREAM_TIMEOUT_MESSAGE =
  "Er kwam niet op tijd antwoord; mogelijk is uw verzoek toch verwerkt. Probeer het zo opnieuw.";
export const UPSTREAM_UNAVAILABLE_MESSAGE =
  "Dit onderdeel is tijdelijk niet bereikbaar. Probeer het over een paar seconden opnieuw.";
export const UPSTREAM_INVALID_MESSAGE = "Er ging iets mis bij het verwerken. Probeer het zo opnieuw.";

/** The answer for a request no replica of the service took: 503, 504 or 502. */
export function upstreamError(lastError: NodeJS.ErrnoException | undefined): HttpError {
  if (lastError?.code === "UPSTREAM_TIMEOUT") {
    return new HttpError(504, "gateway_timeout", UPSTREAM_TIMEOUT_MESSAGE);
  }
  if (REFUSED.has(lastError?.code ?? "")) {
    return new HttpError(503, "service_unavailable", UPSTREAM_UNAVAILABLE_MESSAGE, undefined, {
      "Retry-After": "5",
    });
  }
  return new HttpError(502, "bad_gateway", UPSTREAM_INVALID_MESSAGE);
}

async function attempt(
  ctx: Context,
  target: Target,
  headers: Record<string, string | string[]>,
  body: Buffer | Transform,
  timeoutMs: number,
): Promise<void> {
  let res: Dispatcher.ResponseData;
  try {
    res = await target.pool.request({
      method: ctx.method as Dispatcher.HttpMethod,
      path: ctx.originalUrl,
      headers,
      body: body instanceof Transform || body.length > 0 ? body : undefined,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (err) {
    throw asUpstreamError(err);
  }
  ctx.status = res.statusCode;
  for (const [name, value] of Object.entries(res.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) ctx.set(name, value);
  }
  // Answers are small JSON (or a CSV export): reading them whole keeps a client that hangs up
  // mid-answer from leaving a half-read upstream stream behind.
  const payload = Buffer.from(await res.body.arrayBuffer());
  ctx.body = ctx.method === "HEAD" || res.statusCode === 204 || res.statusCode === 304 ? null : payload;
  if (ctx.body === null) ctx.status = res.statusCode;
}
