import Router from "@koa/router";
import { VisitorSeriesQuery, type VisitorSeries } from "@lease/contracts";
import { parseOr400, requireAdmin, type Pool, type SessionDeps } from "@lease/platform";
import type { Clock } from "../domain/clock";
import type { LiveVisitors } from "../repositories/live-visitors";
import { visitorSeries } from "../repositories/page-views";

export function adminRoutes(deps: { session: SessionDeps; live: LiveVisitors; pool: Pool; clock: Clock }) {
  const router = new Router();
  router.use("/api/admin", requireAdmin(deps.session));
  router.get("/api/admin/visitor-stats", async (ctx) => {
    ctx.body = await deps.live.stats(deps.clock.now());
  });
  router.get("/api/admin/active-visitors", async (ctx) => {
    ctx.body = await deps.live.active(deps.clock.now());
  });
  router.get("/api/admin/visitor-series", async (ctx) => {
    const { range } = parseOr400(VisitorSeriesQuery, ctx.query);
    const series: VisitorSeries = {
      range,
      buckets: await visitorSeries(deps.pool, range, new Date(deps.clock.now())),
    };
    ctx.body = series;
  });
  return router;
}
