import { z } from "zod";
import { IsoDateTime, Uuid } from "./common";

export const EmailMessageType = z.enum(["lease_request", "contact_form", "other"]);
export type EmailMessageType = z.infer<typeof EmailMessageType>;

/** received: logged into the inbox; queued/sent/failed: an outgoing e-mail's delivery state. */
export const EmailDeliveryStatus = z.enum(["received", "queued", "sent", "failed"]);
export type EmailDeliveryStatus = z.infer<typeof EmailDeliveryStatus>;

/**
 * What SendGrid last said of an outgoing e-mail: processed (accepted), delivered ("Afgeleverd"),
 * deferred ("Uitgesteld": the receiving server asked to try later), bounced or dropped
 * ("Onbestelbaar", with the receiving server's reason).
 */
export const DeliveryState = z.enum(["processed", "delivered", "deferred", "bounced", "dropped"]);
export type DeliveryState = z.infer<typeof DeliveryState>;

export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  processed: "Verwerkt door SendGrid",
  delivered: "Afgeleverd",
  deferred: "Uitgesteld",
  bounced: "Onbestelbaar",
  dropped: "Onbestelbaar",
};
/** Opens are counted from a pixel that mail clients may load by themselves: an indication only. */
export const OPENED_LABEL = "Geopend (indicatief: e-mailprogramma's laden afbeeldingen soms zelf)";

export const EmailDelivery = z
  .object({
    state: DeliveryState.nullable().describe("null: SendGrid has said nothing yet"),
    reason: z.string().nullable().describe("The receiving server's words for a deferral, bounce or drop"),
    at: IsoDateTime.nullable(),
    openedAt: IsoDateTime.nullable().describe("First open reported (indicative: clients preload images)"),
  })
  .describe("An outgoing e-mail's fate after SendGrid accepted it");
export type EmailDelivery = z.infer<typeof EmailDelivery>;

export const EmailAttachment = z
  .object({
    id: Uuid,
    fileName: z.string(),
    contentType: z.string().describe("As the sender declared it; downloads are served as a safe type"),
    sizeBytes: z.number().int().min(0),
    kept: z.boolean().describe("false: listed but its bytes were not kept (the attachments' store was full)"),
  })
  .describe("An attachment of a received e-mail");
export type EmailAttachment = z.infer<typeof EmailAttachment>;

/** SpamAssassin's own threshold: a received e-mail scoring this or more is in the Spam folder, not the inbox. */
export const SPAM_SCORE_THRESHOLD = 5;

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
  leaseRequestId: Uuid.nullable().describe(
    "The lease request a received reply belongs to, or an outgoing e-mail was sent for; null: none",
  ),
  attachments: z.array(EmailAttachment).describe("A received e-mail's attachments (none for the others)"),
  spamScore: z
    .number()
    .nullable()
    .describe("SendGrid's spam score of a received e-mail; null for the others"),
  delivery: EmailDelivery.nullable().describe(
    "An outgoing e-mail's fate as SendGrid's Event Webhook told it; null for a received one",
  ),
});
export type EmailMessage = z.infer<typeof EmailMessage>;

export const EmailDetail = EmailMessage.extend({
  html: z
    .string()
    .nullable()
    .describe("A received e-mail's HTML as sent (never render it unsanitised); null when it had none"),
}).describe("One e-mail, with a received one's HTML");
export type EmailDetail = z.infer<typeof EmailDetail>;

export const EmailMessageList = z.array(EmailMessage);
export type EmailMessageList = z.infer<typeof EmailMessageList>;

/** Inbox labels per type; anything else is shown as "Algemene E-mail". */
export const EMAIL_TYPE_LABELS: Readonly<Record<EmailMessageType, string>> = {
  lease_request: "Lease Aanvraag",
  contact_form: "Contactformulier",
  other: "Algemene E-mail",
};
