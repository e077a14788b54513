import Router from "@koa/router";
import {
  LeaseRequestIdParam,
  LeaseRequestListQuery,
  SetFollowUpBody,
  UpdateLeaseStatusBody,
} from "@lease/contracts";
import { parseOr400, requireAdmin, type SessionDeps } from "@lease/platform";
import type { LeaseRequestsDomain } from "../domain/lease-requests";

const ExportQuery = LeaseRequestListQuery.pick({ q: true, status: true, followUp: true });

export function adminRoutes(deps: { leads: LeaseRequestsDomain; session: SessionDeps }) {
  const router = new Router({ prefix: "/api/admin/lease-requests" });
  router.use(requireAdmin(deps.session));

  router.get("/", async (ctx) => {
    ctx.body = await deps.leads.list(parseOr400(LeaseRequestListQuery, ctx.query));
  });

  router.get("/export.csv", async (ctx) => {
    const csv = await deps.leads.exportCsv(parseOr400(ExportQuery, ctx.query));
    ctx.type = "text/csv; charset=utf-8";
    ctx.set("Content-Disposition", `attachment; filename="lease-aanvragen.csv"`);
    ctx.body = csv;
  });

  router.get("/:id", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    ctx.body = await deps.leads.get(id);
  });

  router.patch("/:id/status", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    const body = parseOr400(UpdateLeaseStatusBody, ctx.request.body);
    ctx.body = await deps.leads.updateStatus(id, body, ctx.state.admin!.username);
  });

  router.put("/:id/follow-up", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    const { followUpOn } = parseOr400(SetFollowUpBody, ctx.request.body);
    ctx.body = await deps.leads.setFollowUp(id, followUpOn);
  });

  router.delete("/:id", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    await deps.leads.delete(id);
    ctx.status = 204;
  });

  return router;
}
