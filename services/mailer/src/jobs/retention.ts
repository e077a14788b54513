import { scheduleDaily, type Logger } from "@lease/platform";
import type { MailPrivacyRepository } from "../repositories/privacy";

/**
 * The privacy policy's retention (MAIL_RETENTION_DAYS): shortly after start and then daily, e-mails
 * older than that are removed (scheduleDaily: every replica, idempotent).
 */
export function scheduleMailRetention(
  privacy: MailPrivacyRepository,
  days: number,
  logger: Logger,
  firstRunMs = 60_000,
): () => void {
  return scheduleDaily("mail retention", () => privacy.removeOlderThan(days), logger, {
    firstRunMs,
    describe: (removed) =>
      removed.inboxEmails > 0 || removed.sentEmails > 0 ? { ...removed, days } : undefined,
  });
}
