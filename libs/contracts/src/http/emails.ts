import { z } from "zod";
import { emptyToNull } from "../entities/common";
import { MESSAGE_MIN_MESSAGE, emailAddress } from "./fields";
import { unfilledPlaceholder, unfilledPlaceholderMessage } from "./email-templates";

export const SUBJECT_REQUIRED_MESSAGE = "Onderwerp is verplicht";
export const SUBJECT_NO_LINE_BREAKS_MESSAGE = "Onderwerp mag geen regeleinden bevatten";
/** The line of the compose template where the admin's own text goes. */
export const COMPOSE_OWN_TEXT_PLACEHOLDER = "[Voeg hier uw persoonlijke bericht toe]";
export const COMPOSE_PLACEHOLDER_MESSAGE = `Vervang "${COMPOSE_OWN_TEXT_PLACEHOLDER}" door uw eigen bericht`;

export const SendEmailBody = z
  .strictObject({
    to: emailAddress(),
    subject: z
      .string({ error: SUBJECT_REQUIRED_MESSAGE })
      .trim()
      .min(1, { error: SUBJECT_REQUIRED_MESSAGE })
      .max(200, { error: "Maximaal 200 tekens" })
      // Header injection guard: a subject is one header line.
      .refine((subject) => !/[\r\n]/.test(subject), { error: SUBJECT_NO_LINE_BREAKS_MESSAGE })
      .superRefine((subject, ctx) => {
        const left = unfilledPlaceholder(subject);
        if (left) ctx.addIssue({ code: "custom", message: unfilledPlaceholderMessage(left) });
      }),
    message: z
      .string({ error: MESSAGE_MIN_MESSAGE })
      .min(10, { error: MESSAGE_MIN_MESSAGE })
      .max(20000, { error: "Maximaal 20000 tekens" })
      // The template's placeholder left in would reach the customer as it is.
      .refine((message) => !message.includes(COMPOSE_OWN_TEXT_PLACEHOLDER), {
        error: COMPOSE_PLACEHOLDER_MESSAGE,
      })
      // A template's placeholder nobody filled would reach the customer as it is.
      .superRefine((message, ctx) => {
        const left = unfilledPlaceholder(message);
        if (left) ctx.addIssue({ code: "custom", message: unfilledPlaceholderMessage(left) });
      }),
    leaseRequestId: z
      .preprocess(emptyToNull, z.uuid({ error: "Ongeldig id" }).nullable())
      .optional()
      .describe("The lease request this e-mail follows up, if any"),
    inReplyToEmailId: z
      .preprocess(emptyToNull, z.uuid({ error: "Ongeldig id" }).nullable())
      .optional()
      .describe(
        "The received e-mail (inbox entry) this answers: sent with its In-Reply-To and References, so the customer's mail client threads it",
      ),
  })
  .describe("Outgoing e-mail from the compose page");
export type SendEmailBody = z.infer<typeof SendEmailBody>;

export const SendEmailResponse = z
  .object({ id: z.uuid(), status: z.literal("queued") })
  .describe("202 Accepted: the e-mail is stored and queued for sending; id is its inbox entry");
export type SendEmailResponse = z.infer<typeof SendEmailResponse>;

export const EmailSettingsTestResponse = z
  .object({ id: z.uuid(), status: z.literal("sent"), to: z.string() })
  .describe("The provider accepted the test e-mail to the configured sender address");
export type EmailSettingsTestResponse = z.infer<typeof EmailSettingsTestResponse>;

export const CancelEmailResponse = z
  .object({ id: z.uuid(), status: z.literal("failed"), reason: z.string() })
  .describe("The e-mail will not be sent: it counts as failed (reason in Dutch) and can be sent again");
export type CancelEmailResponse = z.infer<typeof CancelEmailResponse>;

export const RetryEmailResponse = z
  .object({ id: z.uuid(), status: z.literal("queued") })
  .describe("202 Accepted: the failed e-mail is queued to be sent again");
export type RetryEmailResponse = z.infer<typeof RetryEmailResponse>;

/** How long a test e-mail waits for the provider's answer before it counts as failed. */
export const TEST_EMAIL_TIMEOUT_MS = 8000;

export const EmailIdParam = z.object({ id: z.uuid({ error: "Ongeldig id" }) });
export type EmailIdParam = z.infer<typeof EmailIdParam>;

/** Newest-first inbox page size; "Meer laden" in the admin asks for the next page. */
export const INBOX_PAGE = 500;
export const INBOX_MAX_LIMIT = 5000;
/**
 * A page's last e-mail, as the server writes it: creation time to the microsecond, then its id. The
 * time is zod's ISO check (real days and hours only: Postgres refuses "2026-13-01" as a timestamp).
 */
const INBOX_CURSOR = new RegExp(
  `^(${z.regexes.datetime({ precision: 6 }).source.slice(1, -1)})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`,
);
export interface InboxCursor {
  /** ISO timestamp with microseconds (Postgres precision, which a JS Date would round away). */
  at: string;
  id: string;
}
export const formatInboxCursor = (c: InboxCursor) => `${c.at}_${c.id}`;
/**
 * inbox: what was received (quotes, contact messages, e-mails); sent: what the admin and the site
 * sent; spam: received e-mails SendGrid scored as spam (SPAM_SCORE_THRESHOLD or more).
 */
export const EmailFolder = z.enum(["inbox", "sent", "spam"], {
  error: "folder moet inbox, sent of spam zijn",
});
export type EmailFolder = z.infer<typeof EmailFolder>;

export const EmailListQuery = z.object({
  folder: EmailFolder.default("inbox").describe(
    "inbox (received), sent (outgoing, with delivery state) or spam (received, scored as spam)",
  ),
  limit: z.coerce
    .number({ error: "limit moet een getal zijn" })
    .int({ error: "limit moet een geheel getal zijn" })
    .min(1, { error: "limit moet minstens 1 zijn" })
    .max(INBOX_MAX_LIMIT, { error: `limit mag hoogstens ${INBOX_MAX_LIMIT} zijn` })
    .default(INBOX_PAGE)
    .describe("How many e-mails to return, newest first"),
  before: z
    .string()
    .regex(INBOX_CURSOR, {
      error: "before moet de waarde van de X-Next-Cursor-header van een eerdere pagina zijn",
    })
    .transform((value): InboxCursor => {
      const [, at, id] = INBOX_CURSOR.exec(value)!;
      return { at: at!, id: id! };
    })
    .optional()
    .describe("The X-Next-Cursor header of the previous page: returns the e-mails older than that page"),
  leaseRequestId: z
    .uuid({ error: "leaseRequestId moet het id van een lease aanvraag zijn" })
    .optional()
    .describe("Only the e-mails sent for this lease request (sent mail; the lead's timeline)"),
});
export type EmailListQuery = z.infer<typeof EmailListQuery>;
/** Response headers of GET /api/admin/emails: counts over the whole inbox, whatever the limit. */
export const INBOX_TOTAL_HEADER = "x-total-count";
export const INBOX_UNREAD_HEADER = "x-unread-count";
/** Response header of GET /api/admin/emails when older e-mails exist: pass it back as `before`. */
export const INBOX_CURSOR_HEADER = "x-next-cursor";

export const EmailAttachmentParams = z.object({
  id: z.uuid({ error: "Ongeldig id" }),
  attachmentId: z.uuid({ error: "Ongeldig bijlage-id" }),
});
export type EmailAttachmentParams = z.infer<typeof EmailAttachmentParams>;
