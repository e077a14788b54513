import type { Context } from "koa";
import {
  InternalTrackBatch,
  TRACK_BATCH_PATH,
  TrackHeartbeatBody,
  TrackVisitBody,
  type InternalTrackResult,
} from "@lease/contracts";
import {
  clientIp,
  contractRouter,
  notJson,
  parseJsonText,
  parseOr400,
  readRawBody,
  requireInternal,
  serviceUnavailable,
  toHttpError,
  type TrustedProxies,
} from "@lease/platform";
import { recordHit, type HitOutcome, type IngestDeps } from "../domain/ingest";

export type HitKind = "visit" | "heartbeat";
type Counted = (kind: string, outcome: HitOutcome) => void;

/** What a hit needs from its request, whether it came alone or in a gateway batch. */
interface HitMeta {
  userAgent: string | undefined;
  cookie: string | undefined;
  ip: string;
}

const DROPPED_MESSAGE = "Het bezoek kon nu niet worden vastgelegd. Probeer het zo opnieuw.";

/**
 * One visit or heartbeat: validated (400 with the field messages), then counted. A hit that could
 * not be recorded (Redis away) is a 503 rather than a 204: a 204 promises the visit is counted,
 * and the page ignores either.
 */
async function trackHit(
  deps: IngestDeps,
  counted: Counted,
  kind: HitKind,
  body: unknown,
  meta: HitMeta,
): Promise<void> {
  let outcome: HitOutcome;
  if (kind === "visit") {
    const visit = parseOr400(TrackVisitBody, body);
    outcome = await recordHit(deps, {
      ...meta,
      sessionId: visit.sessionId,
      page: visit.page,
      referrer: visit.referrer || undefined,
    });
  } else {
    const beat = parseOr400(TrackHeartbeatBody, body);
    outcome = await recordHit(deps, { ...meta, sessionId: beat.sessionId });
  }
  counted(kind, outcome);
  if (outcome === "dropped") throw serviceUnavailable(DROPPED_MESSAGE);
}

/** Public ingest: validated, 204 with no cookie. */
export function trackRoutes(deps: IngestDeps, trusted: TrustedProxies, counted: Counted) {
  const router = contractRouter("tracking");
  const handle = (kind: HitKind) => async (ctx: Context) => {
    await trackHit(deps, counted, kind, ctx.request.body, {
      userAgent: ctx.req.headers["user-agent"],
      cookie: ctx.req.headers.cookie,
      ip: clientIp(ctx.req, trusted),
    });
    ctx.status = 204;
  };
  router.post("/api/track/visit", handle("visit"));
  router.post("/api/track/heartbeat", handle("heartbeat"));
  return router;
}

/** A full batch of the largest valid beacons stays far below this. */
const BATCH_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * POST /internal/track/batch: the gateway's coalesced beacons (one call for the many visits that
 * arrived together, so a burst costs one round trip per batch instead of one per visit). Mounted
 * ahead of the service's 16 KB body parser (rawBody): the internal token is checked before a byte
 * is read.
 * Every hit gets the answer its own POST /api/track/* would have had.
 */
export function trackBatchRoute(deps: IngestDeps, internalToken: string, counted: Counted) {
  const router = contractRouter("tracking", requireInternal(internalToken), { rawBody: true });
  return router.post(TRACK_BATCH_PATH, async function trackBatch(ctx: Context) {
    if (!ctx.is("application/json")) throw notJson();
    const batch = parseOr400(InternalTrackBatch, parseJsonText(await readRawBody(ctx, BATCH_LIMIT_BYTES)));
    const results = await Promise.all(
      batch.hits.map(async (hit): Promise<InternalTrackResult> => {
        try {
          await trackHit(deps, counted, hit.kind, parseJsonText(hit.body), {
            userAgent: hit.userAgent,
            cookie: hit.cookie,
            ip: hit.ip,
          });
          return { status: 204 };
        } catch (err) {
          const e = toHttpError(err);
          if (e.status >= 500)
            ctx.state.log.warn({ reqId: hit.requestId, code: e.code }, "beacon not recorded");
          const headers = Object.keys(e.headers).length > 0 ? e.headers : undefined;
          return { status: e.status, error: e.toBody(), ...(headers ? { headers } : {}) };
        }
      }),
    );
    ctx.set("Cache-Control", "no-store");
    ctx.body = { results };
  });
}
