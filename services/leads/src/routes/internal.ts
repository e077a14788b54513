import Router from "@koa/router";
import {
  InternalContactMessage,
  InternalFollowUpsDue,
  InternalLeaseRequest,
  LeaseRequestIdParam,
} from "@lease/contracts";
import { parseOr400, requireInternal } from "@lease/platform";
import type { LeaseRequestsDomain } from "../domain/lease-requests";

/** Lookups for the mailer (job data holds ids only; the mailer reads the content here). */
export function internalRoutes(deps: { leads: LeaseRequestsDomain; internalToken: string }) {
  const router = new Router({ prefix: "/internal" });
  router.use(requireInternal(deps.internalToken));

  router.get("/lease-requests/:id", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    ctx.body = InternalLeaseRequest.parse(await deps.leads.get(id));
  });

  router.get("/contact-messages/:id", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    ctx.body = InternalContactMessage.parse(await deps.leads.getContact(id));
  });

  // The company's new-lead e-mail says how many requests are to be followed up.
  router.get("/follow-ups/due", async (ctx) => {
    ctx.body = InternalFollowUpsDue.parse({ due: await deps.leads.followUpsDue() });
  });

  return router;
}
