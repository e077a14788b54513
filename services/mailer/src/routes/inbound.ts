import type { Context } from "koa";
import { RotateInboundUrlBody, UpdateInboundBody } from "@lease/contracts";
import {
  contractRouter,
  parseOr400,
  requireAdmin,
  type RateLimiter,
  type SessionDeps,
} from "@lease/platform";
import type { InboundDomain } from "../domain/inbound";

/** E-mail Instellingen' webhook part: the state, the secret Inbound Parse URL, the reply address. */
export function webhookSettingsRoutes(deps: {
  inbound: InboundDomain;
  session: SessionDeps;
  /** The site's origin the URL is shown with (PUBLIC_ORIGIN, else the one the gateway forwarded). */
  origin: (ctx: Context) => string;
}) {
  const router = contractRouter("mailer", requireAdmin(deps.session));

  router.get("/api/admin/email-settings", async (ctx) => {
    ctx.body = await deps.inbound.settings();
  });

  router.post("/api/admin/email-settings/inbound-url", async (ctx) => {
    parseOr400(RotateInboundUrlBody, ctx.request.body ?? {});
    ctx.set("Cache-Control", "no-store");
    ctx.body = await deps.inbound.rotateUrl(ctx.state.admin!.username, deps.origin(ctx));
  });

  router.put("/api/admin/email-settings/inbound", async (ctx) => {
    const { replyAddress } = parseOr400(UpdateInboundBody, ctx.request.body);
    ctx.body = await deps.inbound.setReplyAddress(replyAddress, ctx.state.admin!.username);
  });

  return router;
}

/**
 * SendGrid's Inbound Parse posts here (no cookie; the path's secret is the proof). The handler
 * reads the multipart body itself, so the router is mounted ahead of the JSON parser. Every post
 * counts toward its address's rate limit before the secret is looked at.
 */
export function inboundParseRoutes(deps: {
  inbound: InboundDomain;
  limiter: RateLimiter;
  clientIp: (ctx: Context) => string;
}) {
  const router = contractRouter("mailer", undefined, { rawBody: true });

  router.post("/api/inbound/sendgrid/{secret}", async (ctx) => {
    await deps.limiter.hit("inbound-parse", deps.clientIp(ctx), ctx.state.log);
    ctx.body = await deps.inbound.receive(String(ctx.params.secret ?? ""), ctx.req, ctx.state.log);
  });

  return router;
}
