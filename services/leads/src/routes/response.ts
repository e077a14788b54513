import {
  LeaseRequestIdParam,
  LogCallBody,
  SetLeadOwnerBody,
  UpdateResponseSettingsBody,
} from "@lease/contracts";
import { contractRouter, notFound, parseOr400, requireAdmin, type SessionDeps } from "@lease/platform";
import type { CallsRepository } from "../repositories/calls";
import type { ResponseSettingsDomain } from "../domain/response-settings";
import type { LeaseRequestsDomain } from "../domain/lease-requests";

/** Who answers a lead and how fast: the settings. */
export function responseRoutes(deps: {
  settings: ResponseSettingsDomain;
  leads: LeaseRequestsDomain;
  calls: CallsRepository;
  session: SessionDeps;
  nudge: () => void;
}) {
  const router = contractRouter("leads", requireAdmin(deps.session));

  router.get("/api/admin/response-settings", async (ctx) => {
    ctx.body = await deps.settings.get();
  });

  router.put("/api/admin/response-settings", async (ctx) => {
    const settings = parseOr400(UpdateResponseSettingsBody, ctx.request.body);
    ctx.body = await deps.settings.update(settings, ctx.state.admin!.username);
  });

  // Staff reassign a lead from its detail (audited, "Toegewezen aan …" on its timeline).
  router.patch("/api/admin/lease-requests/{id}/owner", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    const { ownerId } = parseOr400(SetLeadOwnerBody, ctx.request.body);
    ctx.body = await deps.leads.reassign(id, ownerId, ctx.state.admin!.username);
  });

  // "Bellen": the call staff made, logged when they come back to the panel.
  router.post("/api/admin/lease-requests/{id}/calls", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    const call = parseOr400(LogCallBody, ctx.request.body);
    const { calendar } = await deps.settings.active();
    const logged = await deps.calls.log(id, ctx.state.admin!, call, calendar);
    if (!logged) throw notFound("Lease aanvraag niet gevonden");
    deps.nudge();
    ctx.status = 201;
    ctx.body = logged;
  });

  return router;
}
