import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type {
  ContactAnsweredJobData,
  DeliveryState,
  EmailAttachment,
  EmailDeliveryStatus,
  InternalLeadEmail,
  MailActivityJobData,
} from "@lease/contracts";
import type { Database } from "@lease/platform";
import { emailMessages, inboundEmails, outbox, outgoingEmails, replyTokens } from "../db/schema";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A reply token: 80 random bits in lower-case base32 (mail systems may lower-case an address). */
const newToken = () => {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  return [...randomBytes(16)].map((b) => alphabet[b & 31]).join("");
};
export const REPLY_TOKEN = /^[a-z2-7]{16}$/;

/**
 * Tells leads of an e-mail of a lead (a mail.lead-activity job through the outbox), in the
 * transaction of the change, so the change and the telling are stored together.
 */
export async function queueLeadActivity(tx: Tx | Database, job: MailActivityJobData): Promise<void> {
  await tx.insert(outbox).values({ jobName: "mail.lead-activity", payload: job });
}

/** Tells leads a contact message was answered (a mail.contact-answered job through the outbox). */
export async function queueContactAnswered(tx: Tx | Database, job: ContactAnsweredJobData): Promise<void> {
  await tx.insert(outbox).values({ jobName: "mail.contact-answered", payload: job });
}

/** An e-mail of a lead as leads keeps it, from the mailer's rows (inbox entry, send, reply). */
const LEAD_EMAIL_SQL = (id: string) => sql`
  SELECT m.id, m.source, m.subject, m.sender_name, m.sender_email, m.recipient_email, m.message_body,
         COALESCE(o.sent_at, m.sent_at, m.created_at) AS at,
         COALESCE(o.lease_request_id, i.lease_request_id) AS lease_request_id,
         o.status, o.delivery_state, o.delivery_reason, o.delivery_at, o.opened_at,
         to_char(COALESCE(o.updated_at, m.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS revision,
         CASE WHEN i.id IS NULL THEN '[]'::json ELSE (
           SELECT COALESCE(json_agg(json_build_object('id', a.id, 'fileName', a.file_name,
             'contentType', a.content_type, 'sizeBytes', a.size_bytes, 'kept', a.content IS NOT NULL)
             ORDER BY a.position), '[]'::json)
           FROM mailer.inbound_attachments a WHERE a.inbound_email_id = i.id) END AS attachments
    FROM mailer.email_messages m
    LEFT JOIN mailer.outgoing_emails o ON m.source = 'outgoing' AND o.id = m.source_id
    LEFT JOIN mailer.inbound_emails i ON m.source = 'inbound' AND i.id = m.source_id
   WHERE m.id = ${id}`;

interface LeadEmailRow extends Record<string, unknown> {
  id: string;
  source: string;
  subject: string;
  sender_name: string;
  sender_email: string;
  recipient_email: string;
  message_body: string;
  at: Date;
  lease_request_id: string | null;
  status: string | null;
  delivery_state: DeliveryState | null;
  delivery_reason: string | null;
  delivery_at: Date | null;
  opened_at: Date | null;
  revision: string;
  attachments: EmailAttachment[];
}

const statusOf = (row: LeadEmailRow): EmailDeliveryStatus =>
  row.source !== "outgoing"
    ? "received"
    : row.status === "sent" || row.status === "failed"
      ? row.status
      : "queued";

/** Reply tokens, and the rows that tell which lead a reply belongs to. */
export function conversationRepository(db: Database) {
  return {
    /** The lead's token, made at its first e-mail. */
    async tokenFor(leaseRequestId: string): Promise<string> {
      await db.insert(replyTokens).values({ token: newToken(), leaseRequestId }).onConflictDoNothing();
      const [row] = await db
        .select({ token: replyTokens.token })
        .from(replyTokens)
        .where(eq(replyTokens.leaseRequestId, leaseRequestId));
      return row!.token;
    },

    async leadOfTokens(tokens: string[]): Promise<string | undefined> {
      if (tokens.length === 0) return undefined;
      const [row] = await db
        .select({ id: replyTokens.leaseRequestId })
        .from(replyTokens)
        .where(inArray(replyTokens.token, tokens))
        .limit(1);
      return row?.id;
    },

    /** A received e-mail's Message-ID and References (bare), by its inbox entry: what an answer threads on. */
    async threadOf(emailId: string): Promise<{ messageId: string; references: string[] } | undefined> {
      const [row] = await db
        .select({ messageId: inboundEmails.messageId, references: inboundEmails.references })
        .from(emailMessages)
        .innerJoin(
          inboundEmails,
          and(eq(emailMessages.source, "inbound"), eq(emailMessages.sourceId, inboundEmails.id)),
        )
        .where(eq(emailMessages.id, emailId));
      return row;
    },

    /** The lead of the panel's e-mail whose Message-ID is one of `ids` (a reply's In-Reply-To, References). */
    async leadOfMessageIds(ids: string[]): Promise<string | undefined> {
      if (ids.length === 0) return undefined;
      const [row] = await db
        .select({ id: outgoingEmails.leaseRequestId })
        .from(outgoingEmails)
        .where(
          and(
            inArray(
              outgoingEmails.messageIdHeader,
              ids.map((id) => `<${id}>`),
            ),
            isNotNull(outgoingEmails.leaseRequestId),
          ),
        )
        .limit(1);
      return row?.id ?? undefined;
    },

    /** The e-mail as leads keeps it, with the lead it belongs to; undefined when gone or of no lead. */
    async leadEmail(id: string): Promise<{ leaseRequestId: string; email: InternalLeadEmail } | undefined> {
      const { rows } = await db.execute<LeadEmailRow>(LEAD_EMAIL_SQL(id));
      const row = rows[0];
      if (!row?.lease_request_id) return undefined;
      const at = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
      return {
        leaseRequestId: row.lease_request_id,
        email: {
          id: row.id,
          direction: row.source === "outgoing" ? "out" : "in",
          subject: row.subject,
          fromName: row.sender_name,
          fromEmail: row.sender_email,
          to: row.recipient_email,
          at: at(row.at)!,
          text: row.message_body,
          attachments: row.attachments,
          status: statusOf(row),
          delivery: {
            state: row.delivery_state,
            reason: row.delivery_reason,
            at: at(row.delivery_at),
            openedAt: at(row.opened_at),
          },
          revision: row.revision,
        },
      };
    },
  };
}
export type ConversationRepository = ReturnType<typeof conversationRepository>;
