import {
  OpenLeadsByEmail,
  InternalContactMessage,
  InternalFollowUpsDue,
  InternalLeaseRequest,
  InternalLeadConversion,
  InternalStaff,
  InternalWeeklySummary,
} from "@lease/contracts";
import { contractRouter, notFound, requireInternal } from "@lease/platform";
import type { LeaseRequestsDomain } from "../domain/lease-requests";
import type { LeadEmailsRepository } from "../repositories/lead-emails";
import type { ResponseSettingsDomain } from "../domain/response-settings";
import type { OwnersRepository } from "../repositories/owners";
import type { Calendar } from "../domain/working-hours";
import type { WeeklySummaryDomain } from "../domain/weekly-summary";

/** Lookups for the mailer (job data holds ids only; the mailer reads the content here). */
export function internalRoutes(deps: {
  leads: LeaseRequestsDomain;
  leadEmails: LeadEmailsRepository;
  owners: OwnersRepository;
  /** The working calendar a first response is measured in. */
  settings: ResponseSettingsDomain;
  weekly: WeeklySummaryDomain;
  /** Records a contact message's answer by e-mail (its first response if none came before). */
  answerContact: (id: string, at: Date, calendar: Calendar) => Promise<boolean>;
  /** Told once an e-mail is on a lead's timeline (open panels reload the lead); must not throw. */
  emailStored: (leaseRequestId: string, emailId: string) => Promise<void>;
  internalToken: string;
}) {
  const router = contractRouter("leads", requireInternal(deps.internalToken));

  router.get("/internal/lease-requests/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    ctx.body = InternalLeaseRequest.parse(await deps.leads.get(id));
  });

  // The conversions service reads what a lead's events are sent with (job data holds ids only).
  router.get("/internal/lease-requests/{id}/conversion", async (ctx) => {
    const { id } = ctx.input.params;
    ctx.set("Cache-Control", "no-store");
    ctx.body = InternalLeadConversion.parse(await deps.leads.conversionData(id));
  });

  router.get("/internal/contact-messages/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    ctx.body = InternalContactMessage.parse(await deps.leads.getContact(id));
  });

  // "Beantwoorden" on a contact message's inbox entry was sent to its sender: its first response.
  router.put("/internal/contact-messages/{id}/first-response", async (ctx) => {
    const { id } = ctx.input.params;
    const { at } = ctx.input.body;
    const { calendar } = await deps.settings.active();
    if (!(await deps.answerContact(id, new Date(at), calendar)))
      throw notFound("Contactbericht niet gevonden");
    ctx.status = 204;
  });

  // The mailer's notices to an admin (a late lead, the weekly summary): their address and choices.
  router.get("/internal/staff/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    const row = await deps.owners.find(id);
    if (!row) throw notFound("Beheerder niet gevonden");
    ctx.set("Cache-Control", "no-store");
    ctx.body = InternalStaff.parse({
      id: row.adminId,
      username: row.username,
      active: row.active,
      notifyEmail: row.notifyEmail,
      overdueEmail: row.overdueEmail,
      weeklySummary: row.weeklySummary,
    });
  });

  // The weekly summary's figures for one admin and week (the mailer writes the e-mail).
  router.get("/internal/staff/{id}/weekly-summary", async (ctx) => {
    const { id } = ctx.input.params;
    const { week } = ctx.input.query;
    if (!(await deps.owners.find(id))) throw notFound("Beheerder niet gevonden");
    ctx.set("Cache-Control", "no-store");
    ctx.body = InternalWeeklySummary.parse(await deps.weekly.summary(id, week));
  });

  // The company's new-lead e-mail says how many requests are to be followed up.
  router.get("/internal/follow-ups/due", async (ctx) => {
    ctx.body = InternalFollowUpsDue.parse({ due: await deps.leads.followUpsDue() });
  });

  // The mailer tells of each e-mail of a lead (a reply, a send, its delivery state): kept on the
  // lead's timeline; a bounce marks the address as not working.
  router.put("/internal/lease-requests/{id}/emails/{emailId}", async (ctx) => {
    const { id, emailId } = ctx.input.params;
    const email = ctx.input.body;
    if (email.id !== emailId) throw notFound("E-mail niet gevonden");
    const { calendar } = await deps.settings.active();
    if (!(await deps.leadEmails.store(id, email, calendar))) throw notFound("Lease aanvraag niet gevonden");
    await deps.emailStored(id, emailId);
    ctx.status = 204;
  });

  // A reply without a token or reference is matched by its sender: exactly one open lead.
  router.post("/internal/lease-requests/open-by-email", async (ctx) => {
    const { email } = ctx.input.body;
    ctx.body = OpenLeadsByEmail.parse({ ids: await deps.leadEmails.openByEmail(email) });
  });

  return router;
}
