import {
  InternalContactMessage,
  InternalFollowUpsDue,
  InternalLeaseRequest,
  InternalLeadConversion,
  LeaseRequestIdParam,
} from "@lease/contracts";
import { contractRouter, parseOr400, requireInternal } from "@lease/platform";
import type { LeaseRequestsDomain } from "../domain/lease-requests";

/** Lookups for the mailer (job data holds ids only; the mailer reads the content here). */
export function internalRoutes(deps: { leads: LeaseRequestsDomain; internalToken: string }) {
  const router = contractRouter("leads", requireInternal(deps.internalToken));

  router.get("/internal/lease-requests/{id}", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    ctx.body = InternalLeaseRequest.parse(await deps.leads.get(id));
  });

  // The conversions service reads what a lead's events are sent with (job data holds ids only).
  router.get("/internal/lease-requests/{id}/conversion", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    ctx.set("Cache-Control", "no-store");
    ctx.body = InternalLeadConversion.parse(await deps.leads.conversionData(id));
  });

  router.get("/internal/contact-messages/{id}", async (ctx) => {
    const { id } = parseOr400(LeaseRequestIdParam, ctx.params);
    ctx.body = InternalContactMessage.parse(await deps.leads.getContact(id));
  });

  // The company's new-lead e-mail says how many requests are to be followed up.
  router.get("/internal/follow-ups/due", async (ctx) => {
    ctx.body = InternalFollowUpsDue.parse({ due: await deps.leads.followUpsDue() });
  });

  return router;
}
