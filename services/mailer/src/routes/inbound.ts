import type { Context } from "koa";
import {
  EVENT_WEBHOOK_BODY_LIMIT_BYTES,
  EVENT_WEBHOOK_SIGNATURE_HEADER,
  EVENT_WEBHOOK_TIMESTAMP_HEADER,
} from "@lease/contracts";
import {
  contractRouter,
  readRawBytes,
  requireAdmin,
  type RateLimiter,
  type SessionDeps,
} from "@lease/platform";
import type { InboundDomain } from "../domain/inbound";
import type { EventWebhookDomain } from "../domain/event-webhook";

/** E-mail Instellingen' webhook part: the state, the secret Inbound Parse URL, the reply address. */
export function webhookSettingsRoutes(deps: {
  inbound: InboundDomain;
  events: EventWebhookDomain;
  session: SessionDeps;
  /** The site's origin the URL is shown with (PUBLIC_ORIGIN, else the one the gateway forwarded). */
  origin: (ctx: Context) => string;
}) {
  const router = contractRouter("mailer", requireAdmin(deps.session));

  router.get("/api/admin/email-settings", async (ctx) => {
    ctx.body = await deps.inbound.settings();
  });

  router.post("/api/admin/email-settings/inbound-url", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = await deps.inbound.rotateUrl(ctx.state.admin!.username, deps.origin(ctx));
  });

  router.put("/api/admin/email-settings/inbound", async (ctx) => {
    const { replyAddress } = ctx.input.body;
    ctx.body = await deps.inbound.setReplyAddress(replyAddress, ctx.state.admin!.username);
  });

  router.put("/api/admin/email-settings/event-webhook", async (ctx) => {
    const { verificationKey } = ctx.input.body;
    ctx.body = await deps.events.setKey(verificationKey, ctx.state.admin!.username);
  });

  return router;
}

/**
 * SendGrid's webhooks post here (no cookie): Inbound Parse (the path's secret is the proof) and the
 * Event Webhook (its signature is). The handlers read the body themselves, so the router is mounted
 * ahead of the JSON parser. Every post counts toward its address's rate limit first.
 */
export function inboundParseRoutes(deps: {
  inbound: InboundDomain;
  events: EventWebhookDomain;
  limiter: RateLimiter;
  clientIp: (ctx: Context) => string;
}) {
  const router = contractRouter("mailer", undefined, { rawBody: true });

  router.post("/api/inbound/sendgrid/{secret}", async (ctx) => {
    await deps.limiter.hit("inbound-parse", deps.clientIp(ctx), ctx.state.log);
    ctx.body = await deps.inbound.receive(String(ctx.params.secret ?? ""), ctx.req, ctx.state.log);
  });

  // SendGrid's Event Webhook: the signature covers the body's exact bytes, so it is read raw.
  router.post("/api/sendgrid/events", async (ctx) => {
    await deps.limiter.hit("sendgrid-events", deps.clientIp(ctx), ctx.state.log);
    const body = await readRawBytes(ctx, EVENT_WEBHOOK_BODY_LIMIT_BYTES);
    ctx.body = await deps.events.receive(
      body,
      ctx.get(EVENT_WEBHOOK_SIGNATURE_HEADER) || undefined,
      ctx.get(EVENT_WEBHOOK_TIMESTAMP_HEADER) || undefined,
      ctx.state.log,
    );
  });

  return router;
}
