import { z } from "zod";
import { IsoDateTime, Uuid } from "./common";

export const EmailMessageType = z.enum(["lease_request", "contact_form", "other"]);
export type EmailMessageType = z.infer<typeof EmailMessageType>;

/** received: logged into the inbox; queued/sent/failed: an outgoing e-mail's delivery state. */
export const EmailDeliveryStatus = z.enum(["received", "queued", "sent", "failed"]);
export type EmailDeliveryStatus = z.infer<typeof EmailDeliveryStatus>;

export const EmailMessage = z.object({
  id: Uuid,
  subject: z.string(),
  senderName: z.string(),
  senderEmail: z.string(),
  recipientEmail: z.string(),
  messageBody: z.string(),
  messageType: EmailMessageType,
  isRead: z.boolean(),
  deliveryStatus: EmailDeliveryStatus,
  failureReason: z
    .string()
    .nullable()
    .describe("Why an outgoing e-mail was not sent (yet), in Dutch; null otherwise"),
  sentAt: IsoDateTime.nullable().describe("When received or sent; null while an outgoing e-mail is queued"),
  createdAt: IsoDateTime,
});
export type EmailMessage = z.infer<typeof EmailMessage>;

export const EmailMessageList = z.array(EmailMessage);
export type EmailMessageList = z.infer<typeof EmailMessageList>;

/** Inbox labels per type; anything else is shown as "Algemene E-mail". */
export const EMAIL_TYPE_LABELS: Readonly<Record<EmailMessageType, string>> = {
  lease_request: "Lease Aanvraag",
  contact_form: "Contactformulier",
  other: "Algemene E-mail",
};
