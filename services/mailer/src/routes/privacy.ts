import {
  InternalPrivacyErased,
  InternalPrivacyFound,
  InternalPrivacyRequest,
  QUEUES,
} from "@lease/contracts";
import {
  contractRouter,
  parseOr400,
  removeJobsHolding,
  requireInternal,
  type QueueClient,
} from "@lease/platform";
import type { MailPrivacyRepository } from "../repositories/privacy";

/**
 * People's data (AVG), for the gateway: the e-mails the mailer holds about an address and their
 * erasure (its tables, then the jobs of the mail queue naming the address, a lead or an e-mail).
 */
export function privacyRoutes(deps: {
  privacy: MailPrivacyRepository;
  queue: QueueClient;
  internalToken: string;
}) {
  const router = contractRouter("mailer", requireInternal(deps.internalToken));

  router.post("/internal/privacy/find", async (ctx) => {
    const { email, leadIds } = parseOr400(InternalPrivacyRequest, ctx.request.body);
    ctx.body = InternalPrivacyFound.parse(await deps.privacy.find(email, leadIds));
  });

  router.post("/internal/privacy/erase", async (ctx) => {
    const { email, leadIds } = parseOr400(InternalPrivacyRequest, ctx.request.body);
    const { ids, ...removed } = await deps.privacy.erase(email, leadIds);
    const jobs = await removeJobsHolding(deps.queue, QUEUES.mail, [email, ...leadIds, ...ids]);
    ctx.body = InternalPrivacyErased.parse({ ...removed, jobs });
  });

  return router;
}
