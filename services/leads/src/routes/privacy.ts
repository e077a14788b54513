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
import type { PrivacyRepository } from "../repositories/privacy";

/**
 * People's data (AVG), for the gateway: what leads holds about an address, and its erasure (its
 * tables, then the jobs of the queue it consumes that name the address or one of the leads).
 */
export function privacyRoutes(deps: {
  privacy: PrivacyRepository;
  queue: QueueClient;
  internalToken: string;
}) {
  const router = contractRouter("leads", requireInternal(deps.internalToken));

  router.post("/internal/privacy/find", async (ctx) => {
    const { email } = parseOr400(InternalPrivacyRequest, ctx.request.body);
    ctx.body = InternalPrivacyFound.parse(await deps.privacy.find(email));
  });

  router.post("/internal/privacy/erase", async (ctx) => {
    const { email, leadIds } = parseOr400(InternalPrivacyRequest, ctx.request.body);
    const { ids, ...removed } = await deps.privacy.erase(email);
    const jobs = await removeJobsHolding(deps.queue, QUEUES.leads, [email, ...ids, ...leadIds]);
    ctx.body = InternalPrivacyErased.parse({ ...removed, jobs });
  });

  return router;
}
