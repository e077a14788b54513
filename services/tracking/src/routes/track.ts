import { TRACK_BATCH_PATH, apiRoute, type InternalTrackResult } from "@lease/contracts";
import {
  HttpError,
  contractRouter,
  notJson,
  parseJsonText,
  parseRouteBody,
  readRawBody,
  requireInternal,
  serviceUnavailable,
  toHttpError,
} from "@lease/platform";
import { recordHit, type HitOutcome, type IngestDeps } from "../domain/ingest";

export type HitKind = "visit" | "heartbeat";
type Counted = (kind: string, outcome: HitOutcome) => void;

/** What a hit needs from the visitor's request (the gateway sends it along). */
interface HitMeta {
  userAgent: string | undefined;
  cookie: string | undefined;
  ip: string;
}

// The beacons' own routes: the gateway answers them and forwards their bodies unparsed.
const VISIT = apiRoute("POST", "/api/track/visit");
const HEARTBEAT = apiRoute("POST", "/api/track/heartbeat");

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
    const visit = parseRouteBody(VISIT, body);
    outcome = await recordHit(deps, {
      ...meta,
      sessionId: visit.sessionId,
      page: visit.page,
      referrer: visit.referrer || undefined,
      consented: visit.consented,
    });
  } else {
    const beat = parseRouteBody(HEARTBEAT, body);
    outcome = await recordHit(deps, { ...meta, sessionId: beat.sessionId });
  }
  counted(kind, outcome);
  if (outcome === "dropped") throw serviceUnavailable(DROPPED_MESSAGE);
}

function parseBatchText(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new HttpError(400, "invalid_json", "De gegevens zijn geen geldige JSON");
  }
}

/** A full batch of the largest valid beacons stays far below this. */
const BATCH_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * POST /internal/track/batch, the service's one ingest route: the visit beacons the gateway
 * answers (POST /api/track/visit and /heartbeat), coalesced (one call for the many visits that
 * arrived together, so a burst costs one round trip per batch instead of one per visit). Mounted
 * ahead of the service's 16 KB body parser (rawBody): the internal token is checked before a byte
 * is read. Every hit gets its own answer: 204, or the error the visitor gets.
 */
export function trackBatchRoute(deps: IngestDeps, internalToken: string, counted: Counted) {
  const router = contractRouter("tracking", requireInternal(internalToken), { rawBody: true });
  return router.post(TRACK_BATCH_PATH, async function trackBatch(ctx) {
    if (!ctx.is("application/json")) throw notJson();
    // Parsed without parseJsonText's NUL and depth checks: the batch's shape is fixed, and a
    // visitor's body (a string in it) is checked hit by hit below, so one hostile beacon gets its
    // own 400 instead of failing the batch of everyone who arrived with it.
    const batch = ctx.input.parseBody(parseBatchText(await readRawBody(ctx, BATCH_LIMIT_BYTES)));
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
