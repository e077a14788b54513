import type { JobHandlers, Logger } from "@lease/platform";
import type { JobName, JobSource } from "@lease/contracts";
import type { Delivery } from "../domain/delivery";
import type { LeadsSource, SourceMessage } from "../repositories/leads-source";
import { isConfigured, type MailSettingsSource } from "../repositories/mail-settings";
import {
  adminLeadLink,
  adminPanelLink,
  followUpsLine,
  renderOverdueNotice,
  withAdminLink,
} from "../domain/templates";
import { cheapestCampaigns, renderWeeklySummary } from "../domain/weekly-summary";
import type { CampaignSource } from "../repositories/campaign-source";
import type { InboxRepository } from "../repositories/inbox";
import type { OutgoingRepository } from "../repositories/outgoing";
import type { ConversationRepository } from "../repositories/conversation";

export interface HandlerDeps {
  inbox: InboxRepository;
  outgoing: OutgoingRepository;
  leads: LeadsSource;
  settings: MailSettingsSource;
  delivery: Delivery;
  conversation: ConversationRepository;
  /** The site's origin (PUBLIC_ORIGIN) for the notification's link to the lead in the admin panel. */
  publicOrigin?: string;
  /** The campaign report for the weekly summary; absent (no TRACKING_URL), the e-mail says so. */
  campaigns?: CampaignSource;
}

/**
 * The weekly summary waits this many attempts (about 35 s) for the campaign report, then goes
 * without it (saying so): a tracking outage costs the e-mail its campaigns, not its send.
 */
export const WEEKLY_CAMPAIGN_WAIT_ATTEMPTS = 4;

const weeklyKey = (adminId: string, week: string) => `weekly:${adminId}:${week}`;

type SourceJob = { source: JobSource; sourceId: string };
type MailSettings = Awaited<ReturnType<MailSettingsSource["get"]>>;

/** Every handler is idempotent: Postgres unique keys and the send claim, not the job id, decide. */
export function mailHandlers(deps: HandlerDeps): JobHandlers {
  /** The inbox entry; the settings only give its recipient column, so it is written without them. */
  async function logInbox(
    data: SourceJob,
    found: SourceMessage,
    settings: MailSettings | Error,
    log: Logger,
  ) {
    let recipient = "";
    if (settings instanceof Error)
      log.warn({ err: settings.message }, "settings unavailable; inbox entry without recipient");
    else recipient = settings.company.emailAddress ?? settings.fromEmailAddress ?? "";
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
  }

  /**
   * The company's notification, with a link to the lead in the admin panel and the day's follow-ups:
   * recorded once per source, then sent (claim-protected). Off when the e-mail settings say so.
   */
  async function notifyCompany(
    data: SourceJob,
    found: SourceMessage,
    settings: MailSettings,
    requestId: string | undefined,
    log: Logger,
  ) {
    const to = settings.company.emailAddress?.trim() || settings.fromEmailAddress?.trim();
    if (!isConfigured(settings) || !to) {
      if (settings.sendgridApiKeyUnreadable)
        log.warn(data, "company notification not sent: the stored provider key cannot be decrypted");
      else log.info(data, "company notification skipped: no provider key or sender configured");
      return;
    }
    if (!settings.notifyCompanyEmail) {
      log.info(data, "company notification skipped: turned off in the e-mail settings");
      return;
    }
    const link = adminLeadLink(data.source, data.sourceId, [deps.publicOrigin, settings.company.website]);
    // How many requests are due for follow-up; the e-mail goes without the line if leads cannot say.
    const due = await deps.leads.followUpsDue?.(requestId).catch((err: Error) => {
      log.warn({ err: err.message }, "follow-ups due unknown; notification without them");
      return undefined;
    });
    const mail = withAdminLink(found.mail, data.source, link, followUpsLine(due));
    const row = await deps.outgoing.recordOnce({
      dedupeKey: notifyKey(data.source, data.sourceId),
      kind: "notification",
      toEmail: to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      leaseRequestId: found.leaseRequestId,
    });
    await deps.delivery.deliver(row.id, log);
  }

  const requestIdOf = (job: { data: unknown }) => (job.data as { requestId?: string }).requestId;
  const findSource = async (data: SourceJob, requestId: string | undefined, log: Logger) => {
    const found = await deps.leads.find(data.source, data.sourceId, requestId);
    if (!found) log.info(data, "source gone before the job ran; nothing to do");
    return found;
  };

  return {
    // One read of the lead for both effects. A retry (the send failed) logs nothing twice: the
    // inbox entry and the notification are unique per source.
    async "lead.received"(data, { log, job }) {
      const requestId = requestIdOf(job);
      const found = await findSource(data, requestId, log);
      if (!found) return;
      const settings = await deps.settings.get(requestId).catch((err: Error) => err);
      await logInbox(data, found, settings, log);
      if (settings instanceof Error) throw settings;
      await notifyCompany(data, found, settings, requestId, log);
    },

    async "inbox.log"(data, { log, job }) {
      const requestId = requestIdOf(job);
      const found = await findSource(data, requestId, log);
      if (!found) return;
      await logInbox(data, found, await deps.settings.get(requestId).catch((err: Error) => err), log);
    },

    async "mail.notify-company"(data, { log, job }) {
      const requestId = requestIdOf(job);
      const settings = await deps.settings.get(requestId);
      const found = await findSource(data, requestId, log);
      if (found) await notifyCompany(data, found, settings, requestId, log);
    },

    // A late lead, to its owner if they chose so in "Mijn account": once per lead (the dedupe key).
    async "mail.lead-overdue"(data, { log, job }) {
      const requestId = requestIdOf(job);
      const owner = data.ownerId ? await deps.leads.staff?.(data.ownerId, requestId) : undefined;
      if (!owner?.active || !owner.overdueEmail || !owner.notifyEmail) {
        log.info({ ...data, owner: data.ownerId }, "late lead: its owner chose no e-mail");
        return;
      }
      const settings = await deps.settings.get(requestId);
      if (!isConfigured(settings)) {
        log.info(data, "late lead e-mail skipped: no provider key or sender configured");
        return;
      }
      const found = await findSource(data, requestId, log);
      if (!found) return;
      const link = adminLeadLink(data.source, data.sourceId, [deps.publicOrigin, settings.company.website]);
      const mail = renderOverdueNotice({
        username: owner.username,
        source: data.source,
        senderName: found.senderName,
        dueAt: data.dueAt,
        link,
      });
      const row = await deps.outgoing.recordOnce({
        dedupeKey: `overdue:${data.source}:${data.sourceId}`,
        kind: "notification",
        toEmail: owner.notifyEmail,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        leaseRequestId: found.leaseRequestId,
      });
      await deps.delivery.deliver(row.id, log);
    },

    // The weekly summary, to an admin who chose it: written once per admin and week (the dedupe
    // key), so a job run twice or retried after a failed send sends that one e-mail, once.
    async "mail.weekly-summary"(data, { log, job, attempt }) {
      const requestId = requestIdOf(job);
      const written = await deps.outgoing.findByDedupeKey(weeklyKey(data.adminId, data.week));
      if (written) return deps.delivery.deliver(written.id, log);
      const admin = await deps.leads.staff?.(data.adminId, requestId);
      if (!admin?.active || !admin.weeklySummary || !admin.notifyEmail) {
        log.info(data, "weekly summary: the admin no longer chose it");
        return;
      }
      const settings = await deps.settings.get(requestId);
      if (!isConfigured(settings)) {
        log.info(data, "weekly summary skipped: no provider key or sender configured");
        return;
      }
      const summary = await deps.leads.weeklySummary?.(data.adminId, data.week, requestId);
      if (!summary) {
        log.info(data, "weekly summary: the admin is gone");
        return;
      }
      const report = await deps.campaigns
        ?.report({ from: summary.from, to: summary.to }, requestId)
        .catch((err: Error) => {
          if (attempt < WEEKLY_CAMPAIGN_WAIT_ATTEMPTS) throw err;
          log.warn(
            { ...data, err: err.message },
            "weekly summary without campaigns: the report is unavailable",
          );
          return null;
        });
      const origins = [deps.publicOrigin, settings.company.website];
      const mail = renderWeeklySummary({
        username: admin.username,
        summary,
        campaigns: cheapestCampaigns(report ?? null),
        leadLink: (source, id) => adminLeadLink(source, id, origins),
        tabLink: (tab) => adminPanelLink({ tab }, origins),
      });
      const row = await deps.outgoing.recordOnce({
        dedupeKey: weeklyKey(data.adminId, data.week),
        kind: "notification",
        toEmail: admin.notifyEmail,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        leaseRequestId: null,
      });
      await deps.delivery.deliver(row.id, log);
    },

    async "mail.send"(data, { log }) {
      await deps.delivery.deliver(data.outgoingEmailId, log);
    },

    // Leads keeps a lead's e-mails on its timeline: it is told the e-mail as it is now (so a
    // job delivered twice, or late, tells the same or a newer state; leads keeps the newest).
    async "mail.lead-activity"(data, { log, job }) {
      const found = await deps.conversation.leadEmail(data.emailId);
      if (!found || !deps.leads.putLeadEmail) {
        log.info(data, "e-mail gone before leads was told; nothing to do");
        return;
      }
      const kept = await deps.leads.putLeadEmail(found.leaseRequestId, found.email, requestIdOf(job));
      if (!kept) log.info(data, "lead gone before it was told of its e-mail; nothing to do");
    },

    // A contact message's sender was answered from the panel: leads keeps its first response.
    async "mail.contact-answered"(data, { log, job }) {
      if (!deps.leads.contactAnswered) return;
      const kept = await deps.leads.contactAnswered(data.contactMessageId, data.at, requestIdOf(job));
      if (!kept) log.info(data, "contact message gone before it was told of its answer; nothing to do");
    },
  };
}

const notifyKey = (source: string, sourceId: string) => `notify:${source}:${sourceId}`;

/** After the last attempt the e-mail is marked failed, so the admin sees it (never silently dropped). */
export function onFinalFailure(deps: Pick<HandlerDeps, "delivery" | "outgoing">, logger: Logger) {
  return async (name: JobName, data: unknown, err: Error) => {
    const d = data as { outgoingEmailId?: string; source?: string; sourceId?: string };
    let id = d.outgoingEmailId;
    if ((name === "lead.received" || name === "mail.notify-company") && d.source && d.sourceId) {
      id = (await deps.outgoing.findByDedupeKey(notifyKey(d.source, d.sourceId)))?.id;
    }
    if (name === "mail.lead-overdue" && d.source && d.sourceId)
      id = (await deps.outgoing.findByDedupeKey(`overdue:${d.source}:${d.sourceId}`))?.id;
    const weekly = data as { adminId?: string; week?: string };
    if (name === "mail.weekly-summary" && weekly.adminId && weekly.week)
      id = (await deps.outgoing.findByDedupeKey(weeklyKey(weekly.adminId, weekly.week)))?.id;
    if (id) await deps.delivery.giveUp(id, `gave up after retries: ${err.message}`);
    logger.error({ job: name, outgoingId: id, err: err.message }, "job failed for good");
  };
}
