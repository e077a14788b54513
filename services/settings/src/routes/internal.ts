import Router from "@koa/router";
import { requireInternal } from "@lease/platform";
import type { SettingsDomain } from "../domain/settings";

/** Service-to-service: the mailer reads the decrypted provider key here. */
export function internalRoutes(domain: SettingsDomain, internalToken: string): Router {
  const router = new Router({ prefix: "/internal" });
  router.use(requireInternal(internalToken));
  router.get("/mail-settings", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = await domain.mailSettings();
  });
  return router;
}
