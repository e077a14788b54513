import { randomUUID } from "node:crypto";
import type { EmailMessage, InboxCursor, SendEmailBody } from "@lease/contracts";
import { HttpError, notFound, withTimeout, type Logger, type QueueClient } from "@lease/platform";
import type { InboxRepository } from "../repositories/inbox";
import type { NewOutgoingEmail, OutgoingRepository } from "../repositories/outgoing";
import { isConfigured, type MailSettingsSource } from "./mail-settings";
import { companyName, renderCompose, renderTestEmail, type RenderedMail } from "./templates";

export const MAIL_NOT_CONFIGURED_MESSAGE =
  "Er is geen e-mailprovider ingesteld. Vul de SendGrid API key en het afzenderadres in bij E-mail Instellingen.";
const NOT_FOUND_MESSAGE = "E-mail niet gevonden";

export function emailsDomain(deps: {
  inbox: InboxRepository;
  outgoing: OutgoingRepository;
  settings: MailSettingsSource;
  queue: QueueClient;
}) {
  /** Checks the provider at request time, records the e-mail (+ inbox entry), then queues it. */
  async function recordAndQueue(
    build: (settings: Awaited<ReturnType<MailSettingsSource["get"]>>) => {
      to: string;
      mail: RenderedMail;
      kind: string;
      leaseRequestId?: string | null;
    },
    requestId: string,
    log: Logger,
  ): Promise<{ id: string; to: string }> {
    const settings = await deps.settings.get(requestId);
    if (!isConfigured(settings)) throw new HttpError(409, "mail_not_configured", MAIL_NOT_CONFIGURED_MESSAGE);
    const { to, mail, kind, leaseRequestId } = build(settings);
    const email: NewOutgoingEmail = {
      dedupeKey: `${kind}:${randomUUID()}`,
      kind,
      toEmail: to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      leaseRequestId: leaseRequestId ?? null,
    };
    const { outgoingId, inboxId } = await deps.outgoing.recordWithInboxEntry(email, {
      subject: mail.subject,
      senderName: companyName(settings.company),
      senderEmail: settings.fromEmailAddress,
      recipientEmail: to,
      messageBody: mail.text,
      messageType: "other",
      sentAt: null,
    });
    try {
      // The queue connection waits for Redis instead of failing; the answer must not wait with it.
      await withTimeout(
        deps.queue.enqueue("mail.send", { outgoingEmailId: outgoingId }, { jobId: outgoingId, requestId }),
        2000,
      );
    } catch (err) {
      // Recorded as queued: the sweeper enqueues it once Redis is back.
      log.warn({ outgoingId, err: (err as Error).message }, "send not queued yet; the sweeper will retry");
    }
    return { id: inboxId, to };
  }

  return {
    /** The newest `limit` e-mails and the counts over the whole inbox. */
    async list(
      limit: number,
      before?: InboxCursor,
    ): Promise<{ items: EmailMessage[]; next: string | null; total: number; unread: number }> {
      const [page, counts] = await Promise.all([deps.inbox.list(limit, before), deps.inbox.counts()]);
      return { ...page, ...counts };
    },

    async markRead(id: string): Promise<EmailMessage> {
      if (!(await deps.inbox.markRead(id))) throw notFound(NOT_FOUND_MESSAGE);
      const row = await deps.inbox.get(id);
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      return row;
    },

    async delete(id: string): Promise<void> {
      if (!(await deps.inbox.delete(id))) throw notFound(NOT_FOUND_MESSAGE);
    },

    async send(body: SendEmailBody, requestId: string, log: Logger) {
      const { id } = await recordAndQueue(
        (s) => ({
          to: body.to,
          mail: renderCompose(body.subject, body.message, s.company),
          kind: "compose",
          leaseRequestId: body.leaseRequestId,
        }),
        requestId,
        log,
      );
      return { id, status: "queued" as const };
    },

    async sendTest(to: string, requestId: string, log: Logger) {
      const result = await recordAndQueue(
        (s) => ({ to, mail: renderTestEmail(s.company), kind: "test" }),
        requestId,
        log,
      );
      return { ...result, status: "queued" as const };
    },
  };
}
export type EmailsDomain = ReturnType<typeof emailsDomain>;
