import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "@lease/platform";
import { emailMessages, outgoingEmails } from "../db/schema";
import type { NewInboxEntry } from "./inbox";
import { queueContactAnswered, queueLeadActivity } from "./conversation";

export type OutgoingEmail = typeof outgoingEmails.$inferSelect;
export type NewOutgoingEmail = Pick<
  typeof outgoingEmails.$inferInsert,
  | "id"
  | "dedupeKey"
  | "kind"
  | "toEmail"
  | "subject"
  | "textBody"
  | "htmlBody"
  | "leaseRequestId"
  | "contactMessageId"
  | "replyTo"
  | "messageIdHeader"
  | "referencesHeader"
  | "inReplyToHeader"
>;

const CLAIMABLE = ["queued", "failed_retryable"];

/** The e-mail's entry in the admin's sent mail, if it has one (company notifications have none). */
// Spelled out: inside UPDATE … RETURNING drizzle writes the outer column unqualified ("id"), which the
// subquery would read as its own m.id.
const inboxEntryId = sql<string | null>`(SELECT m.id FROM mailer.email_messages m
  WHERE m.source = 'outgoing' AND m.source_id = mailer.outgoing_emails.id)`;

/** An update's result: the row changed, and the sent-mail entry it belongs to. */
export type Changed = { inboxId: string | null } | undefined;

export function outgoingRepository(db: Database) {
  return {
    /** Records the e-mail once per dedupe key and returns the stored row (new or existing). */
    async recordOnce(email: NewOutgoingEmail): Promise<OutgoingEmail> {
      await db.insert(outgoingEmails).values(email).onConflictDoNothing({ target: outgoingEmails.dedupeKey });
      const row = await this.findByDedupeKey(email.dedupeKey);
      if (!row) throw new Error("outgoing e-mail vanished after insert");
      return row;
    },

    /** Records an outgoing e-mail and its inbox entry together. */
    async recordWithInboxEntry(
      email: NewOutgoingEmail,
      inbox: Omit<NewInboxEntry, "source" | "sourceId">,
    ): Promise<{ outgoingId: string; inboxId: string }> {
      return db.transaction(async (tx) => {
        const [out] = await tx.insert(outgoingEmails).values(email).returning({ id: outgoingEmails.id });
        if (!out) throw new Error("insert returned nothing");
        const [entry] = await tx
          .insert(emailMessages)
          // Sent mail is the admin's own: never "unread".
          .values({ ...inbox, source: "outgoing", sourceId: out.id, isRead: true })
          .returning({ id: emailMessages.id });
        if (!entry) throw new Error("insert returned nothing");
        return { outgoingId: out.id, inboxId: entry.id };
      });
    },

    async findByDedupeKey(key: string): Promise<OutgoingEmail | undefined> {
      const [row] = await db.select().from(outgoingEmails).where(eq(outgoingEmails.dedupeKey, key)).limit(1);
      return row;
    },

    async get(id: string): Promise<OutgoingEmail | undefined> {
      const [row] = await db.select().from(outgoingEmails).where(eq(outgoingEmails.id, id)).limit(1);
      return row;
    },

    /** The claim: only one caller moves a row to "sending"; everyone else gets undefined. */
    async claim(id: string): Promise<OutgoingEmail | undefined> {
      const [row] = await db
        .update(outgoingEmails)
        .set({
          status: "sending",
          claimedAt: sql`now()`,
          attempts: sql`${outgoingEmails.attempts} + 1`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(outgoingEmails.id, id), inArray(outgoingEmails.status, CLAIMABLE)))
        .returning();
      return row;
    },

    /**
     * Sent: a lead's e-mail is told to leads (its timeline), and an answer to a contact message
     * (its first response), in the same transaction.
     */
    async markSent(id: string, providerMessageId: string | null): Promise<Changed> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(outgoingEmails)
          .set({
            status: "sent",
            sentAt: sql`now()`,
            providerMessageId,
            lastError: null,
            updatedAt: sql`now()`,
          })
          .where(and(eq(outgoingEmails.id, id), eq(outgoingEmails.status, "sending")))
          .returning({
            inboxId: inboxEntryId,
            leaseRequestId: outgoingEmails.leaseRequestId,
            contactMessageId: outgoingEmails.contactMessageId,
            sentAt: outgoingEmails.sentAt,
          });
        if (row?.inboxId && row.leaseRequestId)
          await queueLeadActivity(tx, {
            leaseRequestId: row.leaseRequestId,
            emailId: row.inboxId,
            kind: "sent",
          });
        // An answer to a contact message's sender: its first response, told to leads.
        if (row?.contactMessageId && row.sentAt)
          await queueContactAnswered(tx, {
            contactMessageId: row.contactMessageId,
            at: row.sentAt.toISOString(),
          });
        return row && { inboxId: row.inboxId };
      });
    },

    /** Back to claimable after a temporary failure (only from "sending", never from "sent"). */
    async markRetryable(id: string, error: string): Promise<Changed> {
      const [row] = await db
        .update(outgoingEmails)
        .set({ status: "failed_retryable", lastError: error, updatedAt: sql`now()` })
        .where(and(eq(outgoingEmails.id, id), eq(outgoingEmails.status, "sending")))
        .returning({ inboxId: inboxEntryId });
      return row;
    },

    /** Final failure; visible to the admin. `from` limits which states may turn into failed. */
    async markFailed(id: string, error: string, from: string[]): Promise<Changed> {
      const [row] = await db
        .update(outgoingEmails)
        .set({ status: "failed", lastError: error, updatedAt: sql`now()` })
        .where(and(eq(outgoingEmails.id, id), inArray(outgoingEmails.status, from)))
        .returning({ inboxId: inboxEntryId });
      return row;
    },

    /**
     * The admin's retry of a failed e-mail (by its sent-mail entry): back to queued. Answers the
     * outgoing row's id and its attempts so far, or undefined when the entry is no failed e-mail.
     */
    async requeueFailed(inboxId: string): Promise<{ id: string; attempts: number } | undefined> {
      const [row] = await db
        .update(outgoingEmails)
        .set({ status: "queued", lastError: null, claimedAt: null, updatedAt: sql`now()` })
        .where(
          and(
            eq(outgoingEmails.status, "failed"),
            sql`${outgoingEmails.id} = (SELECT m.source_id FROM mailer.email_messages m
              WHERE m.id = ${inboxId} AND m.source = 'outgoing')`,
          ),
        )
        .returning({ id: outgoingEmails.id, attempts: outgoingEmails.attempts });
      return row;
    },

    /**
     * The admin's cancel of an e-mail not sent yet (queued, or waiting for a new attempt), by its
     * sent-mail entry: failed with `error`, so no attempt sends it and "Opnieuw versturen" still can.
     * Undefined while it is being sent (claimed) or once it was sent or failed.
     */
    async cancelPending(inboxId: string, error: string): Promise<{ id: string } | undefined> {
      const [row] = await db
        .update(outgoingEmails)
        .set({ status: "failed", lastError: error, claimedAt: null, updatedAt: sql`now()` })
        .where(
          and(
            inArray(outgoingEmails.status, CLAIMABLE),
            sql`${outgoingEmails.id} = (SELECT m.source_id FROM mailer.email_messages m
              WHERE m.id = ${inboxId} AND m.source = 'outgoing')`,
          ),
        )
        .returning({ id: outgoingEmails.id });
      return row;
    },

    /** Marks a "sending" claim older than `staleMs` as failed: the outcome of that call is unknown. */
    async failStaleClaim(id: string, staleMs: number, error: string): Promise<Changed> {
      const [row] = await db
        .update(outgoingEmails)
        .set({ status: "failed", lastError: error, updatedAt: sql`now()` })
        .where(
          and(
            eq(outgoingEmails.id, id),
            eq(outgoingEmails.status, "sending"),
            lt(outgoingEmails.claimedAt, sql`now() - make_interval(secs => ${staleMs / 1000})`),
          ),
        )
        .returning({ inboxId: inboxEntryId });
      return row;
    },

    /** Queued rows untouched for a while (their enqueue may have failed); re-enqueueing is safe. */
    async stuckQueued(olderThanMs: number, limit: number): Promise<string[]> {
      const rows = await db
        .select({ id: outgoingEmails.id })
        .from(outgoingEmails)
        .where(
          and(
            eq(outgoingEmails.status, "queued"),
            lt(outgoingEmails.updatedAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
          ),
        )
        .limit(limit);
      return rows.map((r) => r.id);
    },
  };
}
export type OutgoingRepository = ReturnType<typeof outgoingRepository>;
