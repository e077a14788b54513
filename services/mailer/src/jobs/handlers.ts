import type { JobHandlers, Logger } from "@lease/platform";
import type { JobName } from "@lease/contracts";
import type { Delivery } from "../domain/delivery";
import type { LeadsSource } from "../domain/leads-source";
import { isConfigured, type MailSettingsSource } from "../domain/mail-settings";
import { adminLeadLink, followUpsLine, withAdminLink } from "../domain/templates";
import type { InboxRepository } from "../repositories/inbox";
import type { OutgoingRepository } from "../repositories/outgoing";

export interface HandlerDeps {
  inbox: InboxRepository;
  outgoing: OutgoingRepository;
  leads: LeadsSource;
  settings: MailSettingsSource;
  delivery: Delivery;
  /** The site's origin (PUBLIC_ORIGIN) for the notification's link to the lead in the admin panel. */
  publicOrigin?: string;
}

/** Every handler is idempotent: Postgres unique keys and the send claim, not the job id, decide. */
export function mailHandlers(deps: HandlerDeps): JobHandlers {
  return {
    async "inbox.log"(data, { log, job }) {
      const requestId = (job.data as { requestId?: string }).requestId;
      const found = await deps.leads.find(data.source, data.sourceId, requestId);
      if (!found) {
        log.info(data, "source gone before it was logged; nothing to do");
        return;
      }
      let recipient = "";
      try {
        const s = await deps.settings.get(requestId);
        recipient = s.company.emailAddress ?? s.fromEmailAddress ?? "";
      } catch (err) {
        // The inbox entry does not need settings; only its recipient column is left empty.
        log.warn({ err: (err as Error).message }, "settings unavailable; inbox entry without recipient");
      }
      await deps.inbox.logOnce({
        source: data.source,
        sourceId: data.sourceId,
        subject: found.mail.subject,
        senderName: found.senderName,
        senderEmail: found.senderEmail,
        recipientEmail: recipient,
        messageBody: found.mail.text,
        messageType: data.source,
        sentAt: found.receivedAt,
      });
    },

    async "mail.notify-company"(data, { log, job }) {
      const requestId = (job.data as { requestId?: string }).requestId;
      const settings = await deps.settings.get(requestId);
      const to = settings.company.emailAddress?.trim() || settings.fromEmailAddress?.trim();
      if (!isConfigured(settings) || !to) {
        log.info(data, "company notification skipped: no provider key or sender configured");
        return;
      }
      if (!settings.notifyCompanyEmail) {
        log.info(data, "company notification skipped: turned off in the e-mail settings");
        return;
      }
      const found = await deps.leads.find(data.source, data.sourceId, requestId);
      if (!found) return;
      const link = adminLeadLink(data.source, data.sourceId, [deps.publicOrigin, settings.company.website]);
      // How many requests are due for follow-up; the e-mail goes without the line if leads cannot say.
      const due = await deps.leads.followUpsDue?.(requestId).catch((err: Error) => {
        log.warn({ err: err.message }, "follow-ups due unknown; notification without them");
        return undefined;
      });
      const mail = withAdminLink(found.mail, data.source, link, followUpsLine(due));
      const row = await deps.outgoing.recordOnce({
        dedupeKey: `notify:${data.source}:${data.sourceId}`,
        kind: "notification",
        toEmail: to,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        leaseRequestId: found.leaseRequestId,
      });
      await deps.delivery.deliver(row.id, log);
    },

    async "mail.send"(data, { log }) {
      await deps.delivery.deliver(data.outgoingEmailId, log);
    },
  };
}

/** After the last attempt the e-mail is marked failed, so the admin sees it (never silently dropped). */
export function onFinalFailure(deps: Pick<HandlerDeps, "delivery" | "outgoing">, logger: Logger) {
  return async (name: JobName, data: unknown, err: Error) => {
    const d = data as { outgoingEmailId?: string; source?: string; sourceId?: string };
    let id = d.outgoingEmailId;
    if (name === "mail.notify-company" && d.source && d.sourceId) {
      id = (await deps.outgoing.findByDedupeKey(`notify:${d.source}:${d.sourceId}`))?.id;
    }
    if (id) await deps.delivery.giveUp(id, `gave up after retries: ${err.message}`);
    logger.error({ job: name, outgoingId: id, err: err.message }, "job failed for good");
  };
}
