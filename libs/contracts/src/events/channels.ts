import { z } from "zod";
import { IsoDateTime, Uuid } from "../entities/common";
import { LeadOwner } from "../entities/lease-request";

/** Redis pub/sub channel names; publishers and subscribers must agree, so they live here. */
export const CHANNELS = {
  settingsChanged: "settings-changed",
  visitorUpdate: "visitor-update",
  sessionsEnded: "sessions-ended",
  mailOutcome: "mail-outcome",
  leadCreated: "lead-created",
  leadAttributed: "lead-attributed",
  emailReceived: "email-received",
  leadEmail: "lead-email",
  leadOverdue: "lead-overdue",
} as const;
export type ChannelName = (typeof CHANNELS)[keyof typeof CHANNELS];

export const SettingsChangedEvent = z
  .object({ kind: z.enum(["company", "theme"]), at: IsoDateTime })
  .describe("Published by settings after a write; caches of that kind drop their copy");
export type SettingsChangedEvent = z.infer<typeof SettingsChangedEvent>;

export const VisitorChangedEvent = z
  .object({
    at: IsoDateTime,
    // "visitors": someone arrived or moved on (the live list, pushed at once); "counts": stored page
    // views changed the day's figures (pushed with the next update, or a little later). Absent in
    // events of replicas from before it: "visitors".
    what: z.enum(["visitors", "counts"]).optional(),
  })
  .describe("Published by tracking when live visitors changed; WebSocket feeders recompute and push");
export type VisitorChangedEvent = z.infer<typeof VisitorChangedEvent>;

export const SessionsEndedEvent = z
  .object({ username: z.string().min(1).max(100), at: IsoDateTime })
  .describe(
    "Published when sessions of an admin ended (logout, password reset, removal); open admin sockets of that admin re-check at once",
  );
export type SessionsEndedEvent = z.infer<typeof SessionsEndedEvent>;

export const MailOutcomeStatus = z.enum(["sent", "retrying", "failed"]);
export type MailOutcomeStatus = z.infer<typeof MailOutcomeStatus>;

export const MailOutcomeEvent = z
  .object({
    emailId: Uuid.describe("The e-mail's entry in the admin's sent mail (the id send-email answered)"),
    status: MailOutcomeStatus.describe("sent; retrying after a temporary failure; failed for good"),
    reason: z.string().max(500).nullable().describe("Why it was not sent, in Dutch; null when sent"),
    at: IsoDateTime,
  })
  .describe("Published by the mailer when the provider answered for an outgoing e-mail the admin wrote");
export type MailOutcomeEvent = z.infer<typeof MailOutcomeEvent>;

export const LeadSource = z.enum(["lease_request", "contact_form"]);
export type LeadSource = z.infer<typeof LeadSource>;

export const LeadCreatedEvent = z
  .object({
    source: LeadSource.describe("lease_request (the quote form) or contact_form"),
    id: Uuid.describe("The new lease request's or contact message's id"),
    at: IsoDateTime.describe("When it was received"),
    owner: LeadOwner.nullable()
      .default(null)
      .describe("Who it was assigned to on arrival (the panel makes it prominent for them); null: nobody"),
  })
  .describe(
    "Published by the leads outbox relay once a new lead's jobs are queued; tracking relays it to the open admin panels",
  );
export type LeadCreatedEvent = z.infer<typeof LeadCreatedEvent>;

export const LeadAttributedEvent = z
  .object({
    source: LeadSource,
    id: Uuid.describe("The lease request's or contact message's id"),
    found: z.boolean().describe("An attribution was stored; false: the lead has none, for good"),
    at: IsoDateTime,
  })
  .describe(
    "Published by the leads service once tracking's answer for a lead is stored; tracking relays it to the open admin panels, which reload the lead",
  );
export type LeadAttributedEvent = z.infer<typeof LeadAttributedEvent>;

export const EmailReceivedEvent = z
  .object({
    emailId: Uuid.describe("The received e-mail's inbox entry"),
    leaseRequestId: Uuid.nullable().describe("The lead it was matched to; null: an Algemene E-mail"),
    spam: z.boolean().describe("Scored as spam: in the Spam folder, not the inbox"),
    at: IsoDateTime,
  })
  .describe(
    "Published by the mailer once a received e-mail is stored; tracking relays it to the open admin panels",
  );
export type EmailReceivedEvent = z.infer<typeof EmailReceivedEvent>;

export const LeadEmailEvent = z
  .object({
    leaseRequestId: Uuid,
    emailId: Uuid,
    at: IsoDateTime,
  })
  .describe(
    "Published by the leads service once an e-mail of a lead (a reply, a send, its delivery state) is on the lead's timeline; panels reload that lead",
  );
export type LeadEmailEvent = z.infer<typeof LeadEmailEvent>;

export const LeadOverdueEvent = z
  .object({
    source: LeadSource,
    id: Uuid.describe("The lease request's or contact message's id"),
    owner: LeadOwner.nullable().describe(
      "Whose lead it is (the panel makes it prominent for them); null: nobody",
    ),
    dueAt: IsoDateTime.describe("The deadline it passed"),
    at: IsoDateTime,
  })
  .describe(
    "Published by the leads service once, when a lead passed its response deadline without a response; tracking relays it to the open admin panels",
  );
export type LeadOverdueEvent = z.infer<typeof LeadOverdueEvent>;
