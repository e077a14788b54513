import type { Logger } from "@lease/platform";
import type { PrivacyRepository } from "../repositories/privacy";

const DAY_MS = 24 * 60 * 60_000;

/**
 * The privacy policy's retention (LEAD_RETENTION_DAYS): shortly after start and then daily, lease
 * requests and contact messages older than that are removed. Every replica runs it; the deletes
 * are idempotent, so replicas overlapping only find less to do.
 */
export function scheduleLeadRetention(
  privacy: PrivacyRepository,
  days: number,
  logger: Logger,
  firstRunMs = 60_000,
): () => void {
  const run = () =>
    privacy.removeOlderThan(days).then(
      (removed) =>
        (removed.leaseRequests > 0 || removed.contactMessages > 0) &&
        logger.info({ ...removed, days }, "leads retention removed old requests and messages"),
      (err: Error) => logger.warn({ err: err.message }, "leads retention failed; retried tomorrow"),
    );
  const first = setTimeout(run, firstRunMs);
  const daily = setInterval(run, DAY_MS);
  first.unref();
  daily.unref();
  return () => {
    clearTimeout(first);
    clearInterval(daily);
  };
}
