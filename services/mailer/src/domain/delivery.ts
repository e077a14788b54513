import type { Logger } from "@lease/platform";
import type { OutgoingRepository } from "../repositories/outgoing";
import { companyName } from "./templates";
import { isConfigured, type MailSettingsSource } from "./mail-settings";
import { TransportError, type MailTransport } from "./transport";

export const NOT_CONFIGURED_ERROR = "mail_not_configured";
export const UNKNOWN_OUTCOME_ERROR =
  "unknown_outcome: the worker stopped while the provider call was in flight";

/** Thrown to make BullMQ retry later (temporary provider failure, or another worker holds the claim). */
export class RetryLater extends Error {
  override name = "RetryLater";
}

export interface Delivery {
  /** Sends one stored outgoing e-mail at most once. Throws RetryLater for a temporary failure. */
  deliver(outgoingId: string, log: Logger): Promise<void>;
  /** After the last attempt: make the failure visible to the admin. */
  giveUp(outgoingId: string, reason: string): Promise<void>;
}

/** How a send attempt ended; every one but "sent" and "retry" leaves the e-mail failed for the admin. */
export const SEND_OUTCOMES = [
  "sent",
  "retry",
  "refused",
  "not_configured",
  "unknown_outcome",
  "gave_up",
] as const;
export type SendOutcome = (typeof SEND_OUTCOMES)[number];

export function delivery(deps: {
  outgoing: OutgoingRepository;
  settings: MailSettingsSource;
  transport: MailTransport;
  /** A "sending" claim older than this belongs to a worker that died mid-call. */
  staleClaimMs: number;
  /** Told how each send attempt ended (a metric). */
  onOutcome?: (outcome: SendOutcome) => void;
}): Delivery {
  const { outgoing } = deps;
  const counted = (outcome: SendOutcome) => deps.onOutcome?.(outcome);
  return {
    async deliver(outgoingId, log) {
      const current = await outgoing.get(outgoingId);
      if (!current || current.status === "sent" || current.status === "failed") return;
      const settings = await deps.settings.get();
      if (!isConfigured(settings)) {
        await outgoing.markFailed(outgoingId, NOT_CONFIGURED_ERROR, ["queued", "failed_retryable"]);
        log.warn({ outgoingId }, "e-mail not sent: no provider key or sender configured");
        counted("not_configured");
        return;
      }
      const claimed = await outgoing.claim(outgoingId);
      if (!claimed) {
        // Someone else is sending, or a worker died during the call. Resending could send twice,
        // so a stale claim is marked failed (visible to the admin) instead of retried.
        if (await outgoing.failStaleClaim(outgoingId, deps.staleClaimMs, UNKNOWN_OUTCOME_ERROR)) {
          log.error({ outgoingId }, "send outcome unknown after a worker stopped; marked failed, not resent");
          counted("unknown_outcome");
          return;
        }
        const again = await outgoing.get(outgoingId);
        if (again?.status === "sending") throw new RetryLater("another worker holds the send claim");
        return;
      }
      try {
        const { messageId } = await deps.transport.send(settings.sendgridApiKey, {
          to: claimed.toEmail,
          from: { email: settings.fromEmailAddress, name: companyName(settings.company) },
          subject: claimed.subject,
          text: claimed.textBody,
          html: claimed.htmlBody,
          outgoingEmailId: claimed.id,
        });
        await outgoing.markSent(claimed.id, messageId);
        log.info({ outgoingId, kind: claimed.kind }, "e-mail sent");
        counted("sent");
      } catch (err) {
        if (err instanceof TransportError && err.permanent) {
          await outgoing.markFailed(claimed.id, err.message, ["sending"]);
          log.warn({ outgoingId, err: err.message }, "e-mail refused by the provider; not retried");
          counted("refused");
          return;
        }
        await outgoing.markRetryable(claimed.id, (err as Error).message);
        counted("retry");
        throw new RetryLater(`send failed, will retry: ${(err as Error).message}`);
      }
    },

    async giveUp(outgoingId, reason) {
      await outgoing.markFailed(outgoingId, reason, ["queued", "failed_retryable"]);
      counted("gave_up");
    },
  };
}
