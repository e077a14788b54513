import { contractRouter, requireAdmin, type ContractRouter, type SessionDeps } from "@lease/platform";
import type { SettingsDomain } from "../domain/settings";

/** Admin settings routes; every one needs a valid session (the gateway checked it too). */
export function adminRoutes(domain: SettingsDomain, session: SessionDeps): ContractRouter {
  const router = contractRouter("settings", requireAdmin(session));

  router.get("/api/admin/company-settings", async (ctx) => {
    ctx.body = await domain.adminCompany();
  });
  router.put("/api/admin/company-settings", async (ctx) => {
    const body = ctx.input.body;
    ctx.body = await domain.updateCompany(body, ctx.state.admin!.username);
    ctx.state.log.info(
      { admin: ctx.state.admin?.username, fields: Object.keys(body) },
      "company settings saved",
    );
  });
  router.get("/api/admin/conversion-settings", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = await domain.conversionSettings();
  });
  router.put("/api/admin/conversion-settings", async (ctx) => {
    const body = ctx.input.body;
    ctx.body = await domain.updateConversionSettings(body, ctx.state.admin!.username);
  });
  router.put("/api/admin/theme-settings", async (ctx) => {
    const body = ctx.input.body;
    ctx.body = await domain.updateTheme(body, ctx.state.admin!.username);
  });
  router.post("/api/admin/theme-settings/reset", async (ctx) => {
    ctx.body = await domain.resetTheme(ctx.state.admin!.username);
  });
  return router;
}
