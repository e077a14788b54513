import { z } from "zod";
import { IsoDateTime, Uuid } from "../entities/common";
import { EmailAttachment, EmailDelivery, EmailDeliveryStatus } from "../entities/email-message";

// A lead's conversation as the leads service keeps it (the mailer tells it of each e-mail, never by
// leads reading the mailer's tables): the replies received for the lead and the panel's e-mails to
// it with their fate as SendGrid's Event Webhook tells it.

export const LeadEmail = z
  .object({
    id: Uuid.describe("The e-mail's inbox (or sent-mail) entry in the mailer"),
    direction: z.enum(["in", "out"]).describe("in: the customer's reply; out: sent from the panel"),
    subject: z.string(),
    fromName: z.string(),
    fromEmail: z.string(),
    to: z.string(),
    at: IsoDateTime.describe("When received, or sent (written, while queued)"),
    text: z.string().describe("The e-mail's text (a received one's text part, or its HTML as text)"),
    attachments: z.array(EmailAttachment),
    status: EmailDeliveryStatus,
    delivery: EmailDelivery,
  })
  .describe("One e-mail of a lead's conversation");
export type LeadEmail = z.infer<typeof LeadEmail>;

/** mailer → leads: one e-mail of a lead, as it is now (sent again on each change: the newest wins). */
export const InternalLeadEmail = LeadEmail.extend({
  revision: z
    .string()
    .max(40)
    .describe("Orders the states of one e-mail: a lower one than leads holds is ignored"),
});
export type InternalLeadEmail = z.infer<typeof InternalLeadEmail>;
export const LeadEmailParams = z.object({ id: Uuid, emailId: Uuid });

/** mailer → leads: which open leads (not getekend or verloren) have this e-mail address. */
export const OpenLeadsByEmailBody = z.strictObject({ email: z.string().min(3).max(254) });
export type OpenLeadsByEmailBody = z.infer<typeof OpenLeadsByEmailBody>;
export const OpenLeadsByEmail = z.object({
  ids: z.array(Uuid).max(2).describe("At most two: a reply is matched by its sender only to exactly one"),
});
export type OpenLeadsByEmail = z.infer<typeof OpenLeadsByEmail>;
