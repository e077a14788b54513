import { scheduleDaily, type Logger } from "@lease/platform";
import type { ConversionsRepository } from "../repositories/conversions";
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

/**
 * The visitors' addresses kept for the ad platforms go after CLIENT_IP_RETENTION_DAYS even when
 * their arrival never reached every platform: checked hourly, so none stays much past the limit
 * (and the internal route never hands out an older one).
 */
export function scheduleClientIpRetention(
  conversions: Pick<ConversionsRepository, "pruneClientIps">,
  days: number,
  logger: Logger,
  firstRunMs = 60_000,
): () => void {
  return scheduleDaily("client address retention", () => conversions.pruneClientIps(days), logger, {
    firstRunMs,
    everyMs: 60 * 60_000,
    describe: (removed) => (removed > 0 ? { removed, days } : undefined),
  });
}
