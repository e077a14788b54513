import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { auditEvent, queueAuditEvents, type Database } from "@lease/platform";
import type { AuditRecordJobData } from "@lease/contracts";
import { emailMessages, inboundAttachments, inboundEmails, outbox, webhookSettings } from "../db/schema";
import type { ParsedInbound } from "../domain/inbound-parse";
import { queueLeadActivity } from "./conversation";

export type WebhookSettingsRow = typeof webhookSettings.$inferSelect;
type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

const EMPTY: WebhookSettingsRow = {
  id: 1,
  inboundSecretHash: null,
  inboundRotatedAt: null,
  inboundLastReceivedAt: null,
  replyAddress: null,
  eventKey: null,
  eventKeySetAt: null,
  eventsLastReceivedAt: null,
};

/** Attachments' bytes are budgeted under one lock, so two messages at once cannot both overrun it. */
const ATTACHMENT_BUDGET_LOCK = sql`pg_advisory_xact_lock(hashtext('mailer.inbound_attachments'))`;

export interface StoredInbound {
  /** The inbox entry (email_messages) of the message. */
  id: string;
  inboundId: string;
  duplicate: boolean;
}

/** Where the lead a message belongs to was found; null: none (yet). */
export interface InboundMatch {
  leaseRequestId: string;
  matchedBy: "token" | "references" | "sender";
}

export function inboundRepository(db: Database) {
  async function lockedSettings(tx: Tx): Promise<WebhookSettingsRow> {
    await tx.insert(webhookSettings).values({ id: 1 }).onConflictDoNothing();
    const [row] = await tx.select().from(webhookSettings).where(eq(webhookSettings.id, 1)).for("update");
    return row!;
  }

  /** Changes the one settings row with its audit entry, in one transaction. */
  const changeSettings = (set: PgUpdateSetSource<typeof webhookSettings>, audit: AuditRecordJobData) =>
    db.transaction(async (tx) => {
      await lockedSettings(tx);
      const [after] = await tx.update(webhookSettings).set(set).where(eq(webhookSettings.id, 1)).returning();
      await queueAuditEvents(tx, outbox, [audit]);
      return after!;
    });

  return {
    async settings(): Promise<WebhookSettingsRow> {
      const [row] = await db.select().from(webhookSettings).where(eq(webhookSettings.id, 1));
      return row ?? EMPTY;
    },

    /** Replaces the secret's hash: the old URL stops working with this commit. */
    rotateSecret: (hash: string, actor: string) =>
      changeSettings(
        { inboundSecretHash: hash, inboundRotatedAt: sql`now()`, inboundLastReceivedAt: null },
        auditEvent(actor, "settings.inbound_url_rotated"),
      ),

    setReplyAddress: (replyAddress: string | null, actor: string) =>
      changeSettings({ replyAddress }, auditEvent(actor, "settings.reply_address_changed")),

    setEventKey: (eventKey: string, actor: string) =>
      changeSettings(
        { eventKey, eventKeySetAt: sql`now()` },
        auditEvent(actor, "settings.event_webhook_key_set"),
      ),

    /** How many replies wait for their sender to be matched, and since when the oldest (null: none). */
    async senderMatchBacklog(): Promise<{ count: number; oldestSince: Date | null }> {
      const [row] = await db
        .select({
          count: sql<number>`count(*)::int`,
          oldestSince: sql<Date | null>`min(${inboundEmails.senderMatchPendingSince})`.mapWith(
            (value: string | Date | null) => (value === null ? null : new Date(value)),
          ),
        })
        .from(inboundEmails)
        .where(isNotNull(inboundEmails.senderMatchPendingSince));
      return { count: row?.count ?? 0, oldestSince: row?.oldestSince ?? null };
    },

    /** The oldest replies whose sender is still to be matched to an open lead. */
    async pendingSenderMatches(limit: number): Promise<{ id: string; fromAddress: string }[]> {
      return db
        .select({ id: inboundEmails.id, fromAddress: inboundEmails.fromAddress })
        .from(inboundEmails)
        .where(isNotNull(inboundEmails.senderMatchPendingSince))
        .orderBy(asc(inboundEmails.senderMatchPendingSince), asc(inboundEmails.id))
        .limit(limit);
    },

    /**
     * Leads answered for a reply's sender: it is its lead's (told to leads with the reply, in one
     * transaction) or stays an Algemene E-mail; either way it is no longer pending. True when it was
     * matched now (another replica may have settled it first).
     */
    async settleSenderMatch(inboundId: string, leaseRequestId: string | null): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(inboundEmails)
          .set({
            senderMatchPendingSince: null,
            ...(leaseRequestId ? { leaseRequestId, matchedBy: "sender" } : {}),
          })
          .where(
            and(
              eq(inboundEmails.id, inboundId),
              isNotNull(inboundEmails.senderMatchPendingSince),
              isNull(inboundEmails.leaseRequestId),
            ),
          )
          .returning({ id: inboundEmails.id });
        if (!row || !leaseRequestId) return false;
        const [entry] = await tx
          .select({ id: emailMessages.id })
          .from(emailMessages)
          .where(and(eq(emailMessages.source, "inbound"), eq(emailMessages.sourceId, inboundId)));
        if (!entry) return false;
        await queueLeadActivity(tx, { leaseRequestId, emailId: entry.id, kind: "reply" });
        return true;
      });
    },

    /**
     * Stores a received message once per Message-ID: the message, its attachments (the bytes of
     * those that fit in `attachmentsMaxBytes`, counted over every kept attachment) and its inbox
     * entry, in one transaction. A message stored before answers its inbox entry as a duplicate.
     */
    async store(
      m: ParsedInbound,
      match: InboundMatch | null,
      attachmentsMaxBytes: number,
      /** Its sender is still to be matched (leads did not answer): the sweeper asks again. */
      senderPending = false,
    ): Promise<StoredInbound & { dropped: number }> {
      return db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(inboundEmails)
          .values({
            messageId: m.messageId,
            fromAddress: m.fromAddress,
            toAddresses: m.to,
            ccAddresses: m.cc,
            htmlBody: m.html,
            inReplyTo: m.inReplyTo,
            references: m.references,
            spamScore: m.spamScore,
            spf: m.spf,
            dkim: m.dkim,
            leaseRequestId: match?.leaseRequestId ?? null,
            matchedBy: match?.matchedBy ?? null,
            senderMatchPendingSince: !match && senderPending ? sql`now()` : null,
          })
          .onConflictDoNothing({ target: inboundEmails.messageId })
          .returning({ id: inboundEmails.id });
        if (!inserted) {
          const [existing] = await tx
            .select({ id: emailMessages.id, inboundId: inboundEmails.id })
            .from(inboundEmails)
            .innerJoin(
              emailMessages,
              sql`${emailMessages.source} = 'inbound' AND ${emailMessages.sourceId} = ${inboundEmails.id}`,
            )
            .where(eq(inboundEmails.messageId, m.messageId));
          if (!existing) throw new Error("inbound message without its inbox entry");
          return { ...existing, duplicate: true, dropped: 0 };
        }
        let dropped = 0;
        if (m.attachments.length > 0) {
          await tx.execute(sql`SELECT ${ATTACHMENT_BUDGET_LOCK}`);
          const [kept] = await tx
            .select({ bytes: sql<string>`COALESCE(sum(${inboundAttachments.sizeBytes}), 0)` })
            .from(inboundAttachments)
            .where(sql`${inboundAttachments.content} IS NOT NULL`);
          let used = Number(kept?.bytes ?? 0);
          await tx.insert(inboundAttachments).values(
            m.attachments.map((a, position) => {
              const fits = used + a.content.length <= attachmentsMaxBytes;
              if (fits) used += a.content.length;
              else dropped++;
              return {
                inboundEmailId: inserted.id,
                position,
                fileName: a.fileName,
                contentType: a.contentType,
                sizeBytes: a.content.length,
                content: fits ? a.content : null,
              };
            }),
          );
        }
        const [entry] = await tx
          .insert(emailMessages)
          .values({
            source: "inbound",
            sourceId: inserted.id,
            subject: m.subject,
            senderName: m.fromName,
            senderEmail: m.fromAddress,
            recipientEmail: m.to,
            messageBody: m.text,
            messageType: "other",
            sentAt: m.date ?? sql`now()`,
          })
          .returning({ id: emailMessages.id });
        await tx
          .insert(webhookSettings)
          .values({ id: 1, inboundLastReceivedAt: sql`now()` })
          .onConflictDoUpdate({ target: webhookSettings.id, set: { inboundLastReceivedAt: sql`now()` } });
        // The reply goes on the lead's timeline: leads is told through the outbox.
        if (match)
          await queueLeadActivity(tx, {
            leaseRequestId: match.leaseRequestId,
            emailId: entry!.id,
            kind: "reply",
          });
        return { id: entry!.id, inboundId: inserted.id, duplicate: false, dropped };
      });
    },
  };
}
export type InboundRepository = ReturnType<typeof inboundRepository>;
