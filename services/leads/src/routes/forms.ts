import type { Context } from "koa";
import { contractRouter, type RateLimiter } from "@lease/platform";
import type { LeaseRequestsDomain } from "../domain/lease-requests";

/** The website's two forms: a quote request and a contact message (rate limited per address). */
export function formRoutes(deps: {
  leads: LeaseRequestsDomain;
  limiter: RateLimiter;
  clientIp: (ctx: Context) => string;
}) {
  const router = contractRouter("leads");

  router.post("/api/lease-requests", async (ctx) => {
    const body = ctx.input.body;
    await deps.limiter.hit("lease-request", deps.clientIp(ctx), ctx.state.log);
    ctx.status = 201;
    ctx.body = await deps.leads.create(
      body,
      ctx.state.requestId,
      ctx.get("user-agent") || undefined,
      deps.clientIp(ctx),
    );
  });

  router.post("/api/contact", async (ctx) => {
    const body = ctx.input.body;
    await deps.limiter.hit("contact", deps.clientIp(ctx), ctx.state.log);
    ctx.status = 201;
    ctx.body = await deps.leads.createContact(body, ctx.state.requestId);
  });

  return router;
}
