import {
  LeaseRequestExportQuery,
  LeaseRequestIdParam,
  LeaseRequestListQuery,
  SetFollowUpBody,
  UpdateLeaseStatusBody,
} from "@lease/contracts";
import { contractRouter, parseOr400, requireAdmin, type SessionDeps } from "@lease/platform";
import type { LeaseRequestsDomain } from "../domain/lease-requests";

export function adminRoutes(deps: { leads: LeaseRequestsDomain; session: SessionDeps }) {
  const router = contractRouter("leads", requireAdmin(deps.session));

  router.get("/api/admin/lease-requests", async (ctx) => {
    ctx.body = await deps.leads.list(parseOr400(LeaseRequestListQuery, ctx.query));
  });

  router.get("/api/admin/lease-requests/export.csv", async (ctx) => {
    const filter = parseOr400(LeaseRequestExportQuery, ctx.query);
    const csv = await deps.leads.exportCsv(filter, ctx.state.admin!.username);
    ctx.type = "text/csv; charset=utf-8";
    ctx.set("Content-Disposition", `attachment; filename="lease-aanvragen.csv"`);
    ctx.body = csv;
  });

  router.get("/api/admin/lease-requests/{id}", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    ctx.body = await deps.leads.get(id);
  });

  router.patch("/api/admin/lease-requests/{id}/status", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    const body = parseOr400(UpdateLeaseStatusBody, ctx.request.body);
    ctx.body = await deps.leads.updateStatus(id, body, ctx.state.admin!.username);
  });

  router.put("/api/admin/lease-requests/{id}/follow-up", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    const { followUpOn } = parseOr400(SetFollowUpBody, ctx.request.body);
    ctx.body = await deps.leads.setFollowUp(id, followUpOn, ctx.state.admin!.username);
  });

  router.delete("/api/admin/lease-requests/{id}", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    await deps.leads.delete(id, ctx.state.admin!.username);
    ctx.status = 204;
  });

  return router;
}
