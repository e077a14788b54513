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
import type { TrackingPrivacyRepository } from "../repositories/privacy";

/** People's data (AVG), for the gateway: the conversions of a person's leads, found and unlinked. */
export function privacyRoutes(deps: {
  privacy: TrackingPrivacyRepository;
  queue: QueueClient;
  internalToken: string;
}) {
  const router = contractRouter("tracking", requireInternal(deps.internalToken));

  router.post("/internal/privacy/find", async (ctx) => {
    const { leadIds } = parseOr400(InternalPrivacyRequest, ctx.request.body);
    ctx.body = InternalPrivacyFound.parse(await deps.privacy.find(leadIds));
  });

  router.post("/internal/privacy/erase", async (ctx) => {
    const { email, leadIds } = parseOr400(InternalPrivacyRequest, ctx.request.body);
    const removed = await deps.privacy.erase(leadIds);
    const jobs = await removeJobsHolding(deps.queue, QUEUES.tracking, [email, ...leadIds]);
    ctx.body = InternalPrivacyErased.parse({ ...removed, jobs });
  });

  return router;
}
