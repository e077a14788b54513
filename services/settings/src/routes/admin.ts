import Router from "@koa/router";
import { UpdateCompanySettingsBody, UpdateThemeSettingsBody } from "@lease/contracts";
import { parseOr400, requireAdmin, type SessionDeps } from "@lease/platform";
import type { SettingsDomain } from "../domain/settings";

/** Admin settings routes; every one needs a valid session (the gateway checked it too). */
export function adminRoutes(domain: SettingsDomain, session: SessionDeps): Router {
  const router = new Router({ prefix: "/api/admin" });
  router.use(requireAdmin(session));

  router.get("/company-settings", async (ctx) => {
    ctx.body = await domain.adminCompany();
  });
  router.put("/company-settings", async (ctx) => {
    const body = parseOr400(UpdateCompanySettingsBody, ctx.request.body ?? {});
    ctx.body = await domain.updateCompany(body);
    ctx.state.log.info(
      { admin: ctx.state.admin?.username, fields: Object.keys(body) },
      "company settings saved",
    );
  });
  router.put("/theme-settings", async (ctx) => {
    const body = parseOr400(UpdateThemeSettingsBody, ctx.request.body ?? {});
    ctx.body = await domain.updateTheme(body);
  });
  router.post("/theme-settings/reset", async (ctx) => {
    ctx.body = await domain.resetTheme();
  });
  router.post("/email-settings/test", async (ctx) => {
    ctx.body = await domain.sendTestEmail(ctx.state.requestId);
  });
  return router;
}
