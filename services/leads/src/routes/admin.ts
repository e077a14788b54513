import {
  LeaseRequestExportQuery,
  LeaseRequestIdParam,
  LeaseRequestListQuery,
  RetryConversionsBody,
  SetFollowUpBody,
  UpdateLeaseStatusBody,
} from "@lease/contracts";
import { HttpError, contractRouter, parseOr400, requireAdmin, type SessionDeps } from "@lease/platform";
import type { LeaseRequestsDomain } from "../domain/lease-requests";
import type { ConversionsRepository } from "../repositories/conversions";

export function adminRoutes(deps: {
  leads: LeaseRequestsDomain;
  conversions: ConversionsRepository;
  session: SessionDeps;
}) {
  const router = contractRouter("leads", requireAdmin(deps.session));

  router.get("/api/admin/lease-requests", async (ctx) => {
    ctx.body = await deps.leads.list(parseOr400(LeaseRequestListQuery, ctx.query), ctx.state.admin!.id);
  });

  router.get("/api/admin/lease-requests/export.csv", async (ctx) => {
    const filter = parseOr400(LeaseRequestExportQuery, ctx.query);
    const csv = await deps.leads.exportCsv(filter, ctx.state.admin!.username, ctx.state.admin!.id);
    ctx.type = "text/csv; charset=utf-8";
    ctx.set("Content-Disposition", `attachment; filename="lease-aanvragen.csv"`);
    ctx.body = csv;
  });

  router.get("/api/admin/lease-requests/{id}", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    const [lead, conversions] = await Promise.all([deps.leads.get(id), deps.conversions.forLead(id)]);
    ctx.body = { ...lead, conversions };
  });

  // The panel's "Opnieuw versturen" beside a conversion that failed.
  router.post("/api/admin/lease-requests/{id}/conversions/retry", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    const { platform } = parseOr400(RetryConversionsBody, ctx.request.body ?? {});
    const lead = await deps.leads.get(id);
    if ((await deps.conversions.retryFailed(id, platform)) === 0)
      throw new HttpError(409, "nothing_to_retry", "Er is geen mislukte conversie om opnieuw te versturen.");
    deps.leads.nudge();
    ctx.body = { ...lead, conversions: await deps.conversions.forLead(id) };
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
