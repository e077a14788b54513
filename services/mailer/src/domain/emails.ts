import { randomUUID } from "node:crypto";
import {
  TEST_EMAIL_TIMEOUT_MS,
  type EmailDetail,
  type EmailFolder,
  type EmailMessage,
  type EmailSettingsTestResponse,
  type InboxCursor,
  type SendEmailBody,
  type AuditRecordJobData,
} from "@lease/contracts";
import {
  HttpError,
  InternalCallError,
  auditEvent,
  notFound,
  serviceUnavailable,
  withTimeout,
  type AuditedTransaction,
  type Logger,
  type QueueClient,
} from "@lease/platform";
import type { InboxRepository } from "../repositories/inbox";
import type { NewOutgoingEmail, OutgoingRepository } from "../repositories/outgoing";
import type { Delivery } from "./delivery";
import {
  CANCELLED_ERROR,
  CANCELLED_MESSAGE,
  MAIL_KEY_UNREADABLE_MESSAGE,
  MAIL_NOT_CONFIGURED_MESSAGE,
  MISSING_MAIL_SETTINGS_MESSAGE,
  SETTINGS_UNAVAILABLE_MESSAGE,
  TEST_EMAIL_FAILED_MESSAGE,
} from "./failure-reason";
import { isConfigured, type MailSettingsSource } from "../repositories/mail-settings";
import { companyName, renderCompose, renderTestEmail, type RenderedMail } from "./templates";

export { MAIL_NOT_CONFIGURED_MESSAGE } from "./failure-reason";
const NOT_FOUND_MESSAGE = "E-mail niet gevonden";
/** A key is stored that cannot be decrypted: entering it again in E-mail Instellingen fixes it. */
const keyUnreadable = () => new HttpError(409, "mail_key_unreadable", MAIL_KEY_UNREADABLE_MESSAGE);
const NOT_CANCELLABLE_MESSAGE =
  "Deze e-mail wordt op dit moment verzonden of is al verzonden of mislukt; annuleren kan niet meer.";
const NOT_RETRYABLE_MESSAGE = "Alleen een mislukte verzonden e-mail kan opnieuw worden verstuurd.";

/** The mail tables as one transaction sees them, and the audit entries to store with its change. */
export type MailTransaction = AuditedTransaction<{ inbox: InboxRepository; outgoing: OutgoingRepository }>;

export function emailsDomain(deps: {
  inbox: InboxRepository;
  outgoing: OutgoingRepository;
  settings: MailSettingsSource;
  queue: QueueClient;
  delivery: Pick<Delivery, "sendNow">;
  /**
   * A lead's e-mail, or an answer to a received one: the headers that bring its replies back to the
   * lead (Reply-To, Message-ID, References) and thread it under the e-mail it answers (In-Reply-To).
   */
  mailHeaders?: (e: {
    leaseRequestId: string | null;
    inReplyToEmailId: string | null;
    outgoingId: string;
    fromAddress: string;
  }) => Promise<
    Pick<NewOutgoingEmail, "replyTo" | "messageIdHeader" | "referencesHeader" | "inReplyToHeader">
  >;
  /** Runs a change in one transaction: the change and its audit entries are stored together. */
  transaction<T>(work: (tx: MailTransaction) => Promise<T>): Promise<T>;
}) {
  /** Puts a stored outgoing e-mail on the queue; a Redis outage leaves it to the sweeper. */
  async function enqueue(outgoingId: string, jobId: string, requestId: string, log: Logger) {
    try {
      // The queue connection waits for Redis instead of failing; the answer must not wait with it.
      await withTimeout(
        deps.queue.enqueue("mail.send", { outgoingEmailId: outgoingId }, { jobId, requestId }),
        2000,
      );
    } catch (err) {
      // Recorded as queued: the sweeper enqueues it once Redis is back.
      log.warn({ outgoingId, err: (err as Error).message }, "send not queued yet; the sweeper will retry");
    }
  }

  /** The mail settings for a request: 503 (not 500) while the settings service cannot answer. */
  async function currentSettings(requestId: string) {
    try {
      return await deps.settings.get(requestId);
    } catch (err) {
      if (err instanceof InternalCallError) throw serviceUnavailable(SETTINGS_UNAVAILABLE_MESSAGE);
      throw err;
    }
  }

  /** Checks the provider at request time and records the e-mail with its sent-mail entry. */
  async function record(
    build: (settings: Awaited<ReturnType<MailSettingsSource["get"]>>) => {
      to: string;
      mail: RenderedMail;
      kind: string;
      leaseRequestId?: string | null;
      inReplyToEmailId?: string | null;
    },
    requestId: string,
    /** The audit entries of the e-mail by its sent-mail entry's id, stored with it. */
    audit: (inboxId: string) => AuditRecordJobData[] = () => [],
  ): Promise<{ id: string; outgoingId: string; to: string }> {
    const settings = await currentSettings(requestId);
    if (settings.sendgridApiKeyUnreadable) throw keyUnreadable();
    if (!isConfigured(settings)) throw new HttpError(409, "mail_not_configured", MAIL_NOT_CONFIGURED_MESSAGE);
    const { to, mail, kind, leaseRequestId, inReplyToEmailId } = build(settings);
    const id = randomUUID();
    // "Beantwoorden" on a contact message's entry, to its sender: once sent, its first response.
    const answered = inReplyToEmailId ? await deps.inbox.contactMessageOf(inReplyToEmailId) : undefined;
    const contactMessageId =
      answered && answered.senderEmail.trim().toLowerCase() === to.trim().toLowerCase()
        ? answered.contactMessageId
        : null;
    const headers =
      (leaseRequestId || inReplyToEmailId) && deps.mailHeaders
        ? await deps.mailHeaders({
            leaseRequestId: leaseRequestId ?? null,
            inReplyToEmailId: inReplyToEmailId ?? null,
            outgoingId: id,
            fromAddress: settings.fromEmailAddress,
          })
        : {};
    const email: NewOutgoingEmail = {
      id,
      ...headers,
      dedupeKey: `${kind}:${randomUUID()}`,
      kind,
      toEmail: to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      leaseRequestId: leaseRequestId ?? null,
      contactMessageId,
    };
    const { outgoingId, inboxId } = await deps.transaction(async (tx) => {
      const recorded = await tx.outgoing.recordWithInboxEntry(email, {
        subject: mail.subject,
        senderName: companyName(settings.company),
        senderEmail: settings.fromEmailAddress,
        recipientEmail: to,
        messageBody: mail.text,
        messageType: "other",
        sentAt: null,
      });
      await tx.audit(audit(recorded.inboxId));
      return recorded;
    });
    return { id: inboxId, outgoingId, to };
  }

  // What the admin did, for the gateway's audit log: ids only (never an address or a body), stored
  // in the outbox with the change it is about.

  return {
    /**
     * The newest `limit` e-mails of a folder and the counts over the whole folder; with a lease
     * request, only the e-mails sent for it.
     */
    async list(
      folder: EmailFolder,
      limit: number,
      before?: InboxCursor,
      leaseRequestId?: string,
    ): Promise<{ items: EmailMessage[]; next: string | null; total: number; unread: number }> {
      const [page, counts] = await Promise.all([
        deps.inbox.list(folder, limit, before, leaseRequestId),
        deps.inbox.counts(folder, leaseRequestId),
      ]);
      return { ...page, ...counts };
    },

    async get(id: string): Promise<EmailDetail> {
      const row = await deps.inbox.get(id);
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      return row;
    },

    /** A received e-mail's attachment, for a signed-in admin's download. */
    async attachment(id: string, attachmentId: string) {
      const found = await deps.inbox.attachment(id, attachmentId);
      if (!found) throw notFound("Bijlage niet gevonden");
      if (!found.content)
        throw new HttpError(
          410,
          "attachment_not_kept",
          "Deze bijlage is niet bewaard: de opslag voor bijlagen was vol toen de e-mail binnenkwam.",
        );
      return { ...found, content: found.content };
    },

    /** Sends a failed e-mail again (the admin's "Opnieuw versturen"). */
    async retry(id: string, requestId: string, log: Logger, actor: string) {
      const row = await deps.transaction(async (tx) => {
        const requeued = await tx.outgoing.requeueFailed(id);
        if (requeued) await tx.audit([auditEvent(actor, "email.resent", id)]);
        return requeued;
      });
      if (!row) {
        if (!(await deps.inbox.get(id))) throw notFound(NOT_FOUND_MESSAGE);
        throw new HttpError(409, "not_retryable", NOT_RETRYABLE_MESSAGE);
      }
      // A job id of its own: the first attempt's job may still be kept (and a kept id is not queued again).
      await enqueue(row.id, `${row.id}-retry-${row.attempts}`, requestId, log);
      return { id, status: "queued" as const };
    },

    /** Stops an e-mail that is queued or waiting for a new attempt (the admin's "Verzenden annuleren"). */
    async cancel(id: string, log: Logger, actor: string) {
      const row = await deps.transaction(async (tx) => {
        const cancelled = await tx.outgoing.cancelPending(id, CANCELLED_ERROR);
        if (cancelled) await tx.audit([auditEvent(actor, "email.cancelled", id)]);
        return cancelled;
      });
      if (!row) {
        if (!(await deps.inbox.get(id))) throw notFound(NOT_FOUND_MESSAGE);
        throw new HttpError(409, "not_cancellable", NOT_CANCELLABLE_MESSAGE);
      }
      log.info({ outgoingId: row.id }, "e-mail cancelled before it was sent");
      return { id, status: "failed" as const, reason: CANCELLED_MESSAGE };
    },

    async markRead(id: string): Promise<EmailMessage> {
      if (!(await deps.inbox.markRead(id))) throw notFound(NOT_FOUND_MESSAGE);
      const row = await deps.inbox.get(id);
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      // The inbox entry as the list shows it: a received e-mail's HTML is the detail's (GET …/{id}).
      const { html: _html, ...message } = row;
      return message;
    },

    async delete(id: string, log: Logger, actor: string): Promise<void> {
      const deleted = await deps.transaction(async (tx) => {
        const gone = await tx.inbox.delete(id);
        if (gone) await tx.audit([auditEvent(actor, "email.deleted", id)]);
        return gone;
      });
      if (!deleted) throw notFound(NOT_FOUND_MESSAGE);
    },

    /**
     * A follow-up or other e-mail from the panel. Audited with the lease request as target when it
     * is for one (the sent-mail entry in the detail), else the sent-mail entry itself.
     */
    async send(body: SendEmailBody, requestId: string, log: Logger, actor: string) {
      const { id, outgoingId } = await record(
        (s) => ({
          to: body.to,
          mail: renderCompose(body.subject, body.message, s.company),
          kind: "compose",
          leaseRequestId: body.leaseRequestId,
          inReplyToEmailId: body.inReplyToEmailId,
        }),
        requestId,
        (inboxId) => [
          body.leaseRequestId
            ? auditEvent(actor, "email.sent", body.leaseRequestId, `e-mail ${inboxId}`)
            : auditEvent(actor, "email.sent", inboxId),
        ],
      );
      await enqueue(outgoingId, outgoingId, requestId, log);
      return { id, status: "queued" as const };
    },

    /**
     * The e-mail settings' test button: a test e-mail to the configured sender address, sent at
     * once; the provider's answer (or its silence) is the result: 200, or 502 with its reason.
     */
    async sendTest(requestId: string, log: Logger, actor: string): Promise<EmailSettingsTestResponse> {
      const settings = await currentSettings(requestId);
      const to = settings.fromEmailAddress?.trim();
      if (settings.sendgridApiKeyUnreadable)
        throw new HttpError(
          409,
          "mail_key_unreadable",
          `${TEST_EMAIL_FAILED_MESSAGE} ${MAIL_KEY_UNREADABLE_MESSAGE}`,
        );
      if (!isConfigured(settings) || !to) throw new HttpError(409, "conflict", MISSING_MAIL_SETTINGS_MESSAGE);
      const { id, outgoingId } = await record(
        (s) => ({ to, mail: renderTestEmail(s.company), kind: "test" }),
        requestId,
      );
      const { sent, reason } = await deps.delivery.sendNow(outgoingId, TEST_EMAIL_TIMEOUT_MS, log);
      // Its outcome is known only after the provider answered: an entry of its own.
      await deps.transaction((tx) =>
        tx.audit([auditEvent(actor, "email.test_sent", id, sent ? "verzonden" : "mislukt")]),
      );
      if (!sent)
        throw new HttpError(502, "test_email_failed", `${TEST_EMAIL_FAILED_MESSAGE} ${reason ?? ""}`.trim());
      return { id, status: "sent", to };
    },
  };
}
export type EmailsDomain = ReturnType<typeof emailsDomain>;
