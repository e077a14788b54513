import { and, desc, eq, ne, sql } from "drizzle-orm";
import {
  SPAM_SCORE_THRESHOLD,
  formatInboxCursor,
  type DeliveryState,
  type EmailAttachment,
  type EmailDetail,
  type EmailFolder,
  type EmailDeliveryStatus,
  type EmailMessage,
  type EmailMessageType,
  type InboxCursor,
} from "@lease/contracts";
import type { Database } from "@lease/platform";
import { emailMessages, inboundAttachments, inboundEmails, outgoingEmails } from "../db/schema";
import { failureReason } from "../domain/failure-reason";

export type NewInboxEntry = Omit<typeof emailMessages.$inferInsert, "id" | "createdAt" | "isRead">;

/** The inbox shows an outgoing e-mail's delivery state; a logged message is "received". */
const deliveryStatus = sql<string>`CASE
  WHEN ${outgoingEmails.id} IS NULL THEN 'received'
  WHEN ${outgoingEmails.status} = 'sent' THEN 'sent'
  WHEN ${outgoingEmails.status} = 'failed' THEN 'failed'
  ELSE 'queued' END`;

const columns = {
  id: emailMessages.id,
  subject: emailMessages.subject,
  senderName: emailMessages.senderName,
  senderEmail: emailMessages.senderEmail,
  recipientEmail: emailMessages.recipientEmail,
  messageBody: emailMessages.messageBody,
  messageType: emailMessages.messageType,
  isRead: emailMessages.isRead,
  sentAt: sql<Date | null>`COALESCE(${outgoingEmails.sentAt}, ${emailMessages.sentAt})`.mapWith(
    (v: string | Date | null) => (v === null ? null : new Date(v)),
  ),
  createdAt: emailMessages.createdAt,
  deliveryStatus,
  lastError: outgoingEmails.lastError,
  leaseRequestId: sql<
    string | null
  >`COALESCE(${outgoingEmails.leaseRequestId}, ${inboundEmails.leaseRequestId})`,
  spamScore: inboundEmails.spamScore,
  deliveryState: outgoingEmails.deliveryState,
  deliveryReason: outgoingEmails.deliveryReason,
  deliveryAt: outgoingEmails.deliveryAt,
  openedAt: outgoingEmails.openedAt,
  // A received e-mail's attachments, without their bytes.
  attachments: sql<EmailAttachment[]>`CASE WHEN ${inboundEmails.id} IS NULL THEN '[]'::json ELSE (
    SELECT COALESCE(json_agg(json_build_object('id', a.id, 'fileName', a.file_name,
      'contentType', a.content_type, 'sizeBytes', a.size_bytes, 'kept', a.content IS NOT NULL)
      ORDER BY a.position), '[]'::json)
    FROM ${inboundAttachments} a WHERE a.inbound_email_id = ${inboundEmails.id}) END`,
};

const joinOutgoing = and(eq(emailMessages.source, "outgoing"), eq(outgoingEmails.id, emailMessages.sourceId));
const joinInbound = and(eq(emailMessages.source, "inbound"), eq(inboundEmails.id, emailMessages.sourceId));
const isSpam = sql`COALESCE(${inboundEmails.spamScore} >= ${SPAM_SCORE_THRESHOLD}, false)`;

/** created_at to the microsecond, for a paging cursor that a JS Date would round. */
const cursorAt = sql<string>`to_char(${emailMessages.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

type Row = {
  [K in keyof typeof columns]: K extends "sentAt" ? Date | null : unknown;
} & {
  id: string;
  createdAt: Date;
  isRead: boolean;
  lastError: string | null;
  leaseRequestId: string | null;
  spamScore: number | null;
  attachments: EmailAttachment[];
  deliveryState: string | null;
  deliveryReason: string | null;
  deliveryAt: Date | null;
  openedAt: Date | null;
};

/**
 * Sent mail is what the mailer sent for the admin (source "outgoing"); the inbox is everything else.
 * With a lease request: only what was sent for it (needs the outgoing join).
 */
const inFolder = (folder: EmailFolder, leaseRequestId?: string) =>
  leaseRequestId
    ? and(eq(emailMessages.source, "outgoing"), eq(outgoingEmails.leaseRequestId, leaseRequestId))
    : folder === "sent"
      ? eq(emailMessages.source, "outgoing")
      : folder === "spam"
        ? and(eq(emailMessages.source, "inbound"), isSpam)
        : and(ne(emailMessages.source, "outgoing"), sql`NOT ${isSpam}`);

function toEmailMessage(row: Row): EmailMessage {
  return {
    id: row.id,
    subject: String(row.subject),
    senderName: String(row.senderName),
    senderEmail: String(row.senderEmail),
    recipientEmail: String(row.recipientEmail),
    messageBody: String(row.messageBody),
    messageType: row.messageType as EmailMessageType,
    isRead: row.isRead,
    deliveryStatus: row.deliveryStatus as EmailDeliveryStatus,
    // A queued e-mail may carry the reason of a failed attempt that will be retried.
    failureReason: row.deliveryStatus === "sent" ? null : failureReason(row.lastError),
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    leaseRequestId: row.leaseRequestId,
    attachments: row.attachments,
    spamScore: row.spamScore,
    delivery:
      row.deliveryStatus === "received"
        ? null
        : {
            state: row.deliveryState as DeliveryState | null,
            reason: row.deliveryReason,
            at: row.deliveryAt?.toISOString() ?? null,
            openedAt: row.openedAt?.toISOString() ?? null,
          },
  };
}

export function inboxRepository(db: Database) {
  // One insert per received message, in bursts with the leads: prepared per connection.
  const logOnceStatement = db
    .insert(emailMessages)
    .values({
      source: sql.placeholder("source"),
      sourceId: sql.placeholder("sourceId"),
      subject: sql.placeholder("subject"),
      senderName: sql.placeholder("senderName"),
      senderEmail: sql.placeholder("senderEmail"),
      recipientEmail: sql.placeholder("recipientEmail"),
      messageBody: sql.placeholder("messageBody"),
      messageType: sql.placeholder("messageType"),
      sentAt: sql.placeholder("sentAt"),
    })
    .onConflictDoNothing({ target: [emailMessages.source, emailMessages.sourceId] })
    .returning({ id: emailMessages.id })
    .prepare("mailer.inbox-log-once");
  return {
    /** Inserts once per (source, sourceId); a second call is a no-op. Returns true when inserted. */
    async logOnce(entry: NewInboxEntry): Promise<boolean> {
      const rows = await logOnceStatement.execute({ ...entry, sentAt: entry.sentAt ?? null });
      return rows.length > 0;
    },

    /**
     * Newest first, `limit` at most, older than `before` if given (keyset paging: a page stays
     * right while new e-mails arrive on top). `next` is the cursor of the page's last e-mail when
     * older ones exist.
     */
    async list(
      folder: EmailFolder,
      limit: number,
      before?: InboxCursor,
      leaseRequestId?: string,
    ): Promise<{ items: EmailMessage[]; next: string | null }> {
      const rows = await db
        .select({ ...columns, cursorAt })
        .from(emailMessages)
        .leftJoin(outgoingEmails, joinOutgoing)
        .leftJoin(inboundEmails, joinInbound)
        .where(
          and(
            inFolder(folder, leaseRequestId),
            before
              ? sql`(${emailMessages.createdAt}, ${emailMessages.id}) < (${before.at}::timestamptz, ${before.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(emailMessages.createdAt), desc(emailMessages.id))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map((r) => toEmailMessage(r as Row)),
        next: rows.length > limit && last ? formatInboxCursor({ at: last.cursorAt, id: last.id }) : null,
      };
    },

    /** Counts over a whole folder, in one statement. */
    async counts(folder: EmailFolder, leaseRequestId?: string): Promise<{ total: number; unread: number }> {
      const select = db
        .select({
          total: sql<number>`count(*)::int`,
          unread: sql<number>`(count(*) FILTER (WHERE NOT ${emailMessages.isRead}))::int`,
        })
        .from(emailMessages);
      const [row] = await (
        leaseRequestId
          ? select.innerJoin(outgoingEmails, joinOutgoing)
          : select.leftJoin(outgoingEmails, joinOutgoing).leftJoin(inboundEmails, joinInbound)
      ).where(inFolder(folder, leaseRequestId));
      return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
    },

    async get(id: string): Promise<EmailDetail | undefined> {
      const [row] = await db
        .select({ ...columns, html: inboundEmails.htmlBody })
        .from(emailMessages)
        .leftJoin(outgoingEmails, joinOutgoing)
        .leftJoin(inboundEmails, joinInbound)
        .where(eq(emailMessages.id, id))
        .limit(1);
      return row ? { ...toEmailMessage(row as Row), html: row.html } : undefined;
    },

    /** The contact message an inbox entry is (its form's entry), and its sender; undefined: none. */
    async contactMessageOf(
      id: string,
    ): Promise<{ contactMessageId: string; senderEmail: string } | undefined> {
      const [row] = await db
        .select({ contactMessageId: emailMessages.sourceId, senderEmail: emailMessages.senderEmail })
        .from(emailMessages)
        .where(and(eq(emailMessages.id, id), eq(emailMessages.source, "contact_form")));
      return row;
    },

    async markRead(id: string): Promise<boolean> {
      const rows = await db
        .update(emailMessages)
        .set({ isRead: true })
        .where(eq(emailMessages.id, id))
        .returning({ id: emailMessages.id });
      return rows.length > 0;
    },

    /** An attachment of a received e-mail, by its inbox entry; content null when not kept. */
    async attachment(
      emailId: string,
      attachmentId: string,
    ): Promise<{ fileName: string; contentType: string; content: Buffer | null } | undefined> {
      const [row] = await db
        .select({
          fileName: inboundAttachments.fileName,
          contentType: inboundAttachments.contentType,
          content: inboundAttachments.content,
        })
        .from(inboundAttachments)
        .innerJoin(inboundEmails, eq(inboundEmails.id, inboundAttachments.inboundEmailId))
        .innerJoin(emailMessages, joinInbound)
        .where(and(eq(emailMessages.id, emailId), eq(inboundAttachments.id, attachmentId)))
        .limit(1);
      return row;
    },

    /** Removes an inbox entry (a received e-mail's message and attachments go with it: a trigger). */
    async delete(id: string): Promise<boolean> {
      const rows = await db
        .delete(emailMessages)
        .where(eq(emailMessages.id, id))
        .returning({ id: emailMessages.id });
      return rows.length > 0;
    },
  };
}
export type InboxRepository = ReturnType<typeof inboxRepository>;
