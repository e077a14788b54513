import { contractRouter, requireInternal, type ContractRouter } from "@lease/platform";
import type { SettingsDomain } from "../domain/settings";

/** Service-to-service: the mailer reads the decrypted provider key here. */
export function internalRoutes(domain: SettingsDomain, internalToken: string): ContractRouter {
  const router = contractRouter("settings", requireInternal(internalToken));
  router.get("/internal/mail-settings", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = await domain.mailSettings();
  });
  router.get("/internal/conversion-settings", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = await domain.internalConversionSettings();
  });
  return router;
}
