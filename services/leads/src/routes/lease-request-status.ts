import { contractRouter, requireAdmin, type SessionDeps } from "@lease/platform";
import type { LeaseRequestsDomain } from "../domain/lease-requests";

/**
 * A lease request's status from the panel: a status button (nieuw, bekeken, gereageerd, with the
 * read flag), a stage with its amounts (offerte, getekend, verloren) or "Fase terugzetten", which
 * names the stage it confirmed to leave (services/leads/README.md).
 */
export function leaseRequestStatusRoutes(deps: { leads: LeaseRequestsDomain; session: SessionDeps }) {
  const router = contractRouter("leads", requireAdmin(deps.session));

  router.patch("/api/admin/lease-requests/{id}/status", async (ctx) => {
    const { id } = ctx.input.params;
    const body = ctx.input.body;
    ctx.body = await deps.leads.updateStatus(id, body, ctx.state.admin!.username);
  });

  return router;
}
