import { scheduleDaily, type Logger } from "@lease/platform";
import type { DeliveriesRepository } from "../repositories/deliveries";

/** Delivery records older than the leads' retention are removed, a minute after start and daily. */
export function scheduleDeliveryRetention(
  deliveries: DeliveriesRepository,
  days: number,
  logger: Logger,
): () => void {
  return scheduleDaily("conversion retention", () => deliveries.prune(days), logger, {
    firstRunMs: 60_000,
    describe: (removed) => (removed > 0 ? { removed, days } : undefined),
  });
}
