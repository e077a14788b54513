import type { MailOutcomeStatus } from "@lease/contracts";
import { withTimeout, type Logger } from "@lease/platform";
import type { Changed, OutgoingEmail, OutgoingRepository } from "../repositories/outgoing";
import { companyName } from "./templates";
import { NOT_CONFIGURED_ERROR, UNKNOWN_OUTCOME_ERROR, failureReason } from "./failure-reason";
import {
  isConfigured,
  unusableReason,
  type ConfiguredMailSettings,
  type MailSettingsSource,
} from "../repositories/mail-settings";
import { TransportError, type MailTransport } from "./transport";

export { NOT_CONFIGURED_ERROR, UNKNOWN_OUTCOME_ERROR } from "./failure-reason";

/** Thrown to make BullMQ retry later (temporary provider failure, or another worker holds the claim). */
export class RetryLater extends Error {
  override name = "RetryLater";
}

/** The provider's answer for an e-mail in the admin's sent mail, told to whoever listens (the admin's socket). */
export interface MailOutcome {
  emailId: string;
  status: MailOutcomeStatus;
  reason: string | null;
}

export interface Delivery {
  /** Sends one stored outgoing e-mail at most once. Throws RetryLater for a temporary failure. */
  deliver(outgoingId: string, log: Logger): Promise<void>;
  /**
   * Sends it now, once, waiting at most `timeoutMs` for the provider (the test e-mail): any failure
   * is final. Answers the Dutch reason when it was not sent.
   */
  sendNow(
    outgoingId: string,
    timeoutMs: number,
    log: Logger,
  ): Promise<{ sent: boolean; reason: string | null }>;
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
  /** Hears every outcome of an e-mail that has a sent-mail entry; must not throw. */
  outcome?: (outcome: MailOutcome) => Promise<void>;
}): Delivery {
  const { outgoing } = deps;
  const counted = (outcome: SendOutcome) => deps.onOutcome?.(outcome);
  const tell = async (changed: Changed, status: MailOutcomeStatus, error: string | null) => {
    if (changed?.inboxId && deps.outcome)
      await deps.outcome({ emailId: changed.inboxId, status, reason: failureReason(error) });
  };
  const fail = async (id: string, error: string, from: string[]) =>
    tell(await outgoing.markFailed(id, error, from), "failed", error);

  const send = (settings: ConfiguredMailSettings, claimed: OutgoingEmail) =>
    deps.transport.send(settings.sendgridApiKey, {
      to: claimed.toEmail,
      from: { email: settings.fromEmailAddress, name: companyName(settings.company) },
      subject: claimed.subject,
      text: claimed.textBody,
      html: claimed.htmlBody,
      outgoingEmailId: claimed.id,
      replyTo: claimed.replyTo,
      headers: claimed.messageIdHeader
        ? {
            "Message-ID": claimed.messageIdHeader,
            // Names the lead (`<lead.<token>@…>`): a reply's References carry it back.
            ...(claimed.referencesHeader ? { References: claimed.referencesHeader } : {}),
            ...(claimed.inReplyToHeader ? { "In-Reply-To": claimed.inReplyToHeader } : {}),
          }
        : undefined,
    });

  return {
    async deliver(outgoingId, log) {
      const current = await outgoing.get(outgoingId);
      if (!current || current.status === "sent" || current.status === "failed") return;
      const settings = await deps.settings.get();
      const unusable = unusableReason(settings);
      if (unusable || !isConfigured(settings)) {
        await fail(outgoingId, unusable ?? NOT_CONFIGURED_ERROR, ["queued", "failed_retryable"]);
        log.warn(
          { outgoingId, reason: unusable },
          "e-mail not sent: the provider key or sender is missing or unreadable",
        );
        counted("not_configured");
        return;
      }
      const claimed = await outgoing.claim(outgoingId);
      if (!claimed) {
        // Someone else is sending, or a worker died during the call. Resending could send twice,
        // so a stale claim is marked failed (visible to the admin) instead of retried.
        const stale = await outgoing.failStaleClaim(outgoingId, deps.staleClaimMs, UNKNOWN_OUTCOME_ERROR);
        if (stale) {
          await tell(stale, "failed", UNKNOWN_OUTCOME_ERROR);
          log.error({ outgoingId }, "send outcome unknown after a worker stopped; marked failed, not resent");
          counted("unknown_outcome");
          return;
        }
        const again = await outgoing.get(outgoingId);
        if (again?.status === "sending") throw new RetryLater("another worker holds the send claim");
        return;
      }
      try {
        const { messageId } = await send(settings, claimed);
        await tell(await outgoing.markSent(claimed.id, messageId), "sent", null);
        log.info({ outgoingId, kind: claimed.kind }, "e-mail sent");
        counted("sent");
      } catch (err) {
        const message = (err as Error).message;
        if (err instanceof TransportError && err.permanent) {
          await fail(claimed.id, message, ["sending"]);
          log.warn({ outgoingId, err: message }, "e-mail refused by the provider; not retried");
          counted("refused");
          return;
        }
        await tell(await outgoing.markRetryable(claimed.id, message), "retrying", message);
        counted("retry");
        throw new RetryLater(`send failed, will retry: ${message}`);
      }
    },

    async sendNow(outgoingId, timeoutMs, log) {
      const settings = await deps.settings.get();
      let error: string = unusableReason(settings) ?? NOT_CONFIGURED_ERROR;
      const usable = !unusableReason(settings) && isConfigured(settings);
      const claimed = usable ? await outgoing.claim(outgoingId) : undefined;
      if (claimed && usable && isConfigured(settings)) {
        try {
          const { messageId } = await withTimeout(send(settings, claimed), timeoutMs);
          await tell(await outgoing.markSent(claimed.id, messageId), "sent", null);
          log.info({ outgoingId, kind: claimed.kind }, "e-mail sent");
          counted("sent");
          return { sent: true, reason: null };
        } catch (err) {
          error = (err as Error).message;
        }
      }
      await fail(outgoingId, error, ["queued", "sending"]);
      log.warn({ outgoingId, err: error }, "e-mail not sent; not retried");
      counted(usable ? "refused" : "not_configured");
      return { sent: false, reason: failureReason(error) };
    },

    async giveUp(outgoingId, reason) {
      await fail(outgoingId, reason, ["queued", "failed_retryable"]);
      counted("gave_up");
    },
  };
}
