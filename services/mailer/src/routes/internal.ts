import { InternalTestEmailBody } from "@lease/contracts";
import { contractRouter, parseOr400, requireInternal } from "@lease/platform";
import type { EmailsDomain } from "../domain/emails";

/** Called by settings' "test e-mail" button; answers once the provider did (or timed out). */
export function internalRoutes(deps: { emails: EmailsDomain; internalToken: string }) {
  const router = contractRouter("mailer", requireInternal(deps.internalToken));

  router.post("/internal/test-email", async (ctx) => {
    const { to } = parseOr400(InternalTestEmailBody, ctx.request.body);
    ctx.body = await deps.emails.sendTest(to, ctx.state.requestId, ctx.state.log);
  });

  return router;
}
