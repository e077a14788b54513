import type { Logger } from "@lease/platform";
import type { MailPrivacyRepository } from "../repositories/privacy";

const DAY_MS = 24 * 60 * 60_000;

/**
 * The privacy policy's retention (MAIL_RETENTION_DAYS): shortly after start and then daily, e-mails
 * older than that are removed. Every replica runs it; the deletes are idempotent, so replicas
 * overlapping only find less to do.
 */
export function scheduleMailRetention(
  privacy: MailPrivacyRepository,
  days: number,
  logger: Logger,
  firstRunMs = 60_000,
): () => void {
  const run = () =>
    privacy.removeOlderThan(days).then(
      (removed) =>
        (removed.inboxEmails > 0 || removed.sentEmails > 0) &&
        logger.info({ ...removed, days }, "mail retention removed old e-mails"),
      (err: Error) => logger.warn({ err: err.message }, "mail retention failed; retried tomorrow"),
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
