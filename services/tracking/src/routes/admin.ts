import {
  ACTIVE_VISITORS_TOTAL_HEADER,
  isFiltered,
  type Analytics,
  type VisitorSeries,
} from "@lease/contracts";
import { contractRouter, requireAdmin, type SessionDeps } from "@lease/platform";
import type { Clock } from "../domain/clock";
import { checkPeriod, today } from "../domain/periods";
import type { AnalyticsReader } from "../repositories/analytics";
import type { FilteredAnalyticsReader } from "../repositories/analytics-filtered";
import type { LiveVisitors } from "../repositories/live-visitors";

export interface AdminDeps {
  session: SessionDeps;
  live: LiveVisitors;
  reader: AnalyticsReader;
  /** Reads narrowed by a filter (channel, campaign, landing page). */
  filtered: FilteredAnalyticsReader;
  clock: Clock;
  retentionMonths: number;
}

export function adminRoutes(deps: AdminDeps) {
  const router = contractRouter("tracking", requireAdmin(deps.session));
  router.get("/api/admin/visitor-stats", async (ctx) => {
    ctx.body = await visitorStats(deps);
  });
  router.get("/api/admin/active-visitors", async (ctx) => {
    const { offset, limit } = ctx.input.query;
    const now = deps.clock.now();
    const [visitors, total] = await Promise.all([
      deps.live.active(now, offset, limit),
      deps.live.currentActive(now),
    ]);
    ctx.set(ACTIVE_VISITORS_TOTAL_HEADER, String(total));
    ctx.body = visitors;
  });
  router.get("/api/admin/visitor-series", async (ctx) => {
    const { range } = ctx.input.query;
    const series: VisitorSeries = { range, buckets: await deps.reader.series(range, deps.clock.now()) };
    ctx.body = series;
  });
  router.get("/api/admin/analytics", async (ctx) => {
    const query = ctx.input.query;
    const now = deps.clock.now();
    const period = { from: query.from, to: query.to };
    checkPeriod(period, today(now), deps.retentionMonths);
    const body: Analytics = isFiltered(query)
      ? await deps.filtered.read(period, query, now)
      : await deps.reader.read(period, now);
    ctx.body = body;
  });
  return router;
}

/** The live counters: who is active from Redis, the day's and week's figures from the rollups. */
export async function visitorStats(deps: Pick<AdminDeps, "live" | "reader" | "clock">) {
  const now = deps.clock.now();
  const [currentActive, rollups] = await Promise.all([deps.live.currentActive(now), deps.reader.stats(now)]);
  return { currentActive, ...rollups };
}
