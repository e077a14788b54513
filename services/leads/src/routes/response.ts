import { UpdateResponseSettingsBody } from "@lease/contracts";
import { contractRouter, parseOr400, requireAdmin, type SessionDeps } from "@lease/platform";
import type { ResponseSettingsDomain } from "../domain/response-settings";

/** Who answers a lead and how fast: the settings. */
export function responseRoutes(deps: { settings: ResponseSettingsDomain; session: SessionDeps }) {
  const router = contractRouter("leads", requireAdmin(deps.session));

  router.get("/api/admin/response-settings", async (ctx) => {
    ctx.body = await deps.settings.get();
  });

  router.put("/api/admin/response-settings", async (ctx) => {
    const settings = parseOr400(UpdateResponseSettingsBody, ctx.request.body);
    ctx.body = await deps.settings.update(settings, ctx.state.admin!.username);
  });

  return router;
}
