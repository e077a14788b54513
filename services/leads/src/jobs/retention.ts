import { scheduleDaily, type Logger } from "@lease/platform";
import type { PrivacyRepository } from "../repositories/privacy";

/**
 * The privacy policy's retention (LEAD_RETENTION_DAYS): shortly after start and then daily, lease
 * requests and contact messages older than that are removed (scheduleDaily: every replica, idempotent).
 */
export function scheduleLeadRetention(
  privacy: PrivacyRepository,
  days: number,
  logger: Logger,
  firstRunMs = 60_000,
): () => void {
  return scheduleDaily("leads retention", () => privacy.removeOlderThan(days), logger, {
    firstRunMs,
    describe: (removed) =>
      removed.leaseRequests > 0 || removed.contactMessages > 0 ? { ...removed, days } : undefined,
  });
}
