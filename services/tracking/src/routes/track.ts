import Router from "@koa/router";
import type { Context } from "koa";
import { TrackHeartbeatBody, TrackVisitBody } from "@lease/contracts";
import { clientIp, parseOr400, serviceUnavailable, type TrustedProxies } from "@lease/platform";
import { recordHit, type HitOutcome, type HitRequest, type IngestDeps } from "../domain/ingest";

/**
 * Public ingest: validated, 204 with no cookie. A hit that could not be recorded (Redis away) is
 * answered 503 rather than 204: a 204 promises the visit is counted, and the page ignores either.
 */
export function trackRoutes(
  deps: IngestDeps,
  trusted: TrustedProxies,
  counted: (kind: string, outcome: HitOutcome) => void,
) {
  const router = new Router();
  const answer = (ctx: Context, kind: string, outcome: HitOutcome) => {
    counted(kind, outcome);
    if (outcome === "dropped")
      throw serviceUnavailable("Het bezoek kon nu niet worden vastgelegd. Probeer het zo opnieuw.");
    ctx.status = 204;
  };
  router.post("/api/track/visit", async (ctx) => {
    const body = parseOr400(TrackVisitBody, ctx.request.body);
    const page = { page: body.page, referrer: body.referrer || undefined };
    answer(ctx, "visit", await recordHit(deps, { ...fromRequest(ctx, body.sessionId, trusted), ...page }));
  });
  router.post("/api/track/heartbeat", async (ctx) => {
    const body = parseOr400(TrackHeartbeatBody, ctx.request.body);
    answer(ctx, "heartbeat", await recordHit(deps, fromRequest(ctx, body.sessionId, trusted)));
  });
  return router;
}

function fromRequest(ctx: Context, sessionId: string, trusted: TrustedProxies): HitRequest {
  return {
    sessionId,
    userAgent: ctx.req.headers["user-agent"],
    cookie: ctx.req.headers.cookie,
    ip: clientIp(ctx.req, trusted),
  };
}
