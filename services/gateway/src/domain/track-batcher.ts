import {
  InternalTrackBatchResult,
  TRACK_BATCH_MAX_HITS,
  TRACK_BATCH_PATH,
  type InternalTrackHit,
  type InternalTrackResult,
} from "@lease/contracts";
import {
  INTERNAL_TOKEN_HEADER,
  SpanKind,
  contextFrom,
  contextOfLink,
  inSpan,
  injectTraceHeaders,
  tracingEnabled,
  HttpError,
  type Link,
  type Logger,
} from "@lease/platform";
import {
  UPSTREAM_INVALID_MESSAGE,
  UPSTREAM_UNAVAILABLE_MESSAGE,
  asUpstreamError,
  markIfRefused,
  orderTargets,
  upstreamError,
  type Upstream,
} from "../routes/proxy";

/** A batch is sent at the latest when it holds this much (the service accepts up to 2 MB). */
const BATCH_MAX_BYTES = 256 * 1024;
/** While the service refuses batches (a token mismatch, an incompatible replica), warn this rarely. */
const WARN_EVERY_MS = 60_000;

interface Pending {
  hit: InternalTrackHit;
  /** The beacon's span, when tracing is on: the batch's span links to every beacon it carries. */
  link?: Link;
  resolve: (result: InternalTrackResult) => void;
  reject: (err: HttpError) => void;
}

export interface TrackBatcher {
  /** Resolves with the answer the visitor gets; rejects with the gateway's error. */
  submit(hit: InternalTrackHit, link?: Link): Promise<InternalTrackResult>;
}

/**
 * Coalesces visit beacons on their way to the tracking service. Every beacon that arrives in one
 * turn of the event loop goes out in one call (at most 128 or 256 KB a call), so a campaign burst
 * costs the gateway and the service one round trip per batch instead of one per visit. A lone
 * beacon waits for nothing but the end of the current turn. Each visitor still gets the answer
 * the service gave for their own hit (204, 400 with the field messages, 503 ...).
 */
export function createTrackBatcher(
  upstream: Upstream,
  opts: {
    internalToken: string;
    timeoutMs: number;
    logger: Logger;
    /** Called with the size of every batch sent (a metric). */
    onBatch?: (hits: number) => void;
  },
): TrackBatcher {
  let queue: Pending[] = [];
  let bytes = 0;
  let scheduled = false;
  let lastWarn = 0;

  const flush = () => {
    scheduled = false;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    bytes = 0;
    void send(batch);
  };

  function send(batch: Pending[]): Promise<void> {
    if (!tracingEnabled()) return post(batch);
    // A batch carries many visitors' beacons, linked to the span of each beacon whose trace is
    // sampled (only those carry a link). It continues the first of those traces, so a sampled
    // beacon's trace always reaches tracking; a batch without one is a root the sampler decides on.
    const links = batch.flatMap((p) => (p.link ? [p.link] : []));
    const parent = links[0] ? contextOfLink(links[0]) : contextFrom(undefined);
    return inSpan(`POST ${TRACK_BATCH_PATH}`, { kind: SpanKind.CLIENT, parent, links }, () => post(batch));
  }

  async function post(batch: Pending[]): Promise<void> {
    opts.onBatch?.(batch.length);
    const body = JSON.stringify({ hits: batch.map((p) => p.hit) });
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      [INTERNAL_TOKEN_HEADER]: opts.internalToken,
    };
    injectTraceHeaders(headers);
    let lastError: NodeJS.ErrnoException | undefined;
    for (const target of orderTargets(upstream)) {
      try {
        const res = await target.pool.request({
          method: "POST",
          path: TRACK_BATCH_PATH,
          headers,
          body,
          headersTimeout: opts.timeoutMs,
          bodyTimeout: opts.timeoutMs,
        });
        const text = await res.body.text();
        if (res.statusCode !== 200) return refused(batch, res.statusCode, text);
        const parsed = InternalTrackBatchResult.safeParse(JSON.parse(text));
        if (!parsed.success || parsed.data.results.length !== batch.length)
          return refused(batch, res.statusCode, "results do not match the batch");
        batch.forEach((p, i) => p.resolve(parsed.data.results[i]!));
        return;
      } catch (err) {
        const e = asUpstreamError(err);
        lastError = e;
        if (!markIfRefused(target, e)) break;
      }
    }
    opts.logger.warn(
      { upstream: upstream.name, err: lastError?.message, code: lastError?.code, hits: batch.length },
      "beacon batch failed",
    );
    const error = upstreamError(lastError);
    for (const p of batch) p.reject(error);
  }

  function refused(batch: Pending[], status: number, detail: string) {
    if (Date.now() - lastWarn > WARN_EVERY_MS) {
      lastWarn = Date.now();
      opts.logger.warn(
        { upstream: upstream.name, status, detail: detail.slice(0, 200) },
        "beacon batch refused",
      );
    }
    // Not the visitor's fault and nothing they can fix: the page ignores either answer.
    const error =
      status === 503
        ? new HttpError(503, "service_unavailable", UPSTREAM_UNAVAILABLE_MESSAGE, undefined, {
            "Retry-After": "5",
          })
        : new HttpError(502, "bad_gateway", UPSTREAM_INVALID_MESSAGE);
    for (const p of batch) p.reject(error);
  }

  return {
    submit(hit, link) {
      return new Promise<InternalTrackResult>((resolve, reject) => {
        queue.push({ hit, link, resolve, reject });
        bytes += hit.body.length + (hit.userAgent?.length ?? 0) + (hit.cookie?.length ?? 0) + 128;
        if (queue.length >= TRACK_BATCH_MAX_HITS || bytes >= BATCH_MAX_BYTES) flush();
        else if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}
