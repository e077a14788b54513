import type { Middleware } from "koa";
import {
  InternalPrivacyErased,
  InternalPrivacyFound,
  type QueueName,
  type ServiceName,
} from "@lease/contracts";
import { removeJobsHolding, type QueueClient } from "./queue";
import { contractRouter, type ContractRouter } from "./routes";

/** What one service holds about a person, given the address and the lead ids leads found. */
export interface PrivacyStore {
  /** Rows per kind (checked against InternalPrivacyFound). */
  find(email: string, leadIds: readonly string[]): Promise<object>;
  /**
   * Counts removed per kind (checked against InternalPrivacyErased); `ids`: further ids of this
   * service's rows that its jobs may name.
   */
  erase(email: string, leadIds: readonly string[]): Promise<object>;
}

/**
 * A service's part of people's data (AVG), for the gateway: POST /internal/privacy/find and
 * /erase. The erasure removes the service's rows (`store.erase`), then the jobs of the queue it
 * consumes that name the address, one of the person's leads or one of the removed rows.
 */
export function privacyRoutes(
  service: ServiceName,
  deps: { store: PrivacyStore; queue: QueueClient; queueName: QueueName; guard: Middleware },
): ContractRouter {
  const router = contractRouter(service, deps.guard);
  router.post("/internal/privacy/find", async (ctx) => {
    const { email, leadIds } = ctx.input.body;
    ctx.body = InternalPrivacyFound.parse(await deps.store.find(email, leadIds));
  });
  router.post("/internal/privacy/erase", async (ctx) => {
    const { email, leadIds } = ctx.input.body;
    const { ids, ...removed } = (await deps.store.erase(email, leadIds)) as { ids?: string[] };
    const jobs = await removeJobsHolding(deps.queue, deps.queueName, [email, ...leadIds, ...(ids ?? [])]);
    ctx.body = InternalPrivacyErased.parse({ ...removed, jobs });
  });
  return router;
}
