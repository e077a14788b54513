import { HttpError, contractRouter, requireAdmin, type SessionDeps } from "@lease/platform";
import type { LeaseRequestsDomain } from "../domain/lease-requests";
import type { ConversionsRepository } from "../repositories/conversions";

/**
 * The panel's lease requests: the list and its CSV, one request, its follow-up day, a failed
 * conversion sent again and deletion. Its status (and stage) is lease-request-status.ts's; its
 * history and notes lead-history.ts's; its owner and calls response.ts's.
 */
export function leaseRequestRoutes(deps: {
  leads: LeaseRequestsDomain;
  conversions: ConversionsRepository;
  session: SessionDeps;
}) {
  const router = contractRouter("leads", requireAdmin(deps.session));

  router.get("/api/admin/lease-requests", async (ctx) => {
    ctx.body = await deps.leads.list(ctx.input.query, ctx.state.admin!.id);
  });

  router.get("/api/admin/lease-requests/export.csv", async (ctx) => {
    const filter = ctx.input.query;
    const csv = await deps.leads.exportCsv(filter, ctx.state.admin!.username, ctx.state.admin!.id);
    ctx.type = "text/csv; charset=utf-8";
    ctx.set("Content-Disposition", `attachment; filename="lease-aanvragen.csv"`);
    ctx.body = csv;
  });

  router.get("/api/admin/lease-requests/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    const [lead, conversions] = await Promise.all([deps.leads.get(id), deps.conversions.forLead(id)]);
    ctx.body = { ...lead, conversions };
  });

  // The panel's "Opnieuw versturen" beside a conversion that failed.
  router.post("/api/admin/lease-requests/{id}/conversions/retry", async (ctx) => {
    const { id } = ctx.input.params;
    const { platform } = ctx.input.body;
    const lead = await deps.leads.get(id);
    if ((await deps.conversions.retryFailed(id, platform)) === 0)
      throw new HttpError(409, "nothing_to_retry", "Er is geen mislukte conversie om opnieuw te versturen.");
    deps.leads.nudge();
    ctx.body = { ...lead, conversions: await deps.conversions.forLead(id) };
  });

  router.put("/api/admin/lease-requests/{id}/follow-up", async (ctx) => {
    const { id } = ctx.input.params;
    const { followUpOn } = ctx.input.body;
    ctx.body = await deps.leads.setFollowUp(id, followUpOn, ctx.state.admin!.username);
  });

  router.delete("/api/admin/lease-requests/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    await deps.leads.delete(id, ctx.state.admin!.username);
    ctx.status = 204;
  });

  return router;
}
