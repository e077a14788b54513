import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "@lease/platform";
import { emailMessages, outgoingEmails } from "../db/schema";
import type { NewInboxEntry } from "./inbox";

export type OutgoingEmail = typeof outgoingEmails.$inferSelect;
export type NewOutgoingEmail = Pick<
  typeof outgoingEmails.$inferInsert,
  "dedupeKey" | "kind" | "toEmail" | "subject" | "textBody" | "htmlBody" | "leaseRequestId"
>;

const CLAIMABLE = ["queued", "failed_retryable"];

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
          .values({ ...inbox, source: "outgoing", sourceId: out.id })
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

    async markSent(id: string, providerMessageId: string | null): Promise<void> {
      await db
        .update(outgoingEmails)
        .set({
          status: "sent",
          sentAt: sql`now()`,
          providerMessageId,
          lastError: null,
          updatedAt: sql`now()`,
        })
        .where(and(eq(outgoingEmails.id, id), eq(outgoingEmails.status, "sending")));
    },

    /** Back to claimable after a temporary failure (only from "sending", never from "sent"). */
    async markRetryable(id: string, error: string): Promise<void> {
      await db
        .update(outgoingEmails)
        .set({ status: "failed_retryable", lastError: error, updatedAt: sql`now()` })
        .where(and(eq(outgoingEmails.id, id), eq(outgoingEmails.status, "sending")));
    },

    /** Final failure; visible to the admin. `from` limits which states may turn into failed. */
    async markFailed(id: string, error: string, from: string[]): Promise<boolean> {
      const rows = await db
        .update(outgoingEmails)
        .set({ status: "failed", lastError: error, updatedAt: sql`now()` })
        .where(and(eq(outgoingEmails.id, id), inArray(outgoingEmails.status, from)))
        .returning({ id: outgoingEmails.id });
      return rows.length > 0;
    },

    /** Marks a "sending" claim older than `staleMs` as failed: the outcome of that call is unknown. */
    async failStaleClaim(id: string, staleMs: number, error: string): Promise<boolean> {
      const rows = await db
        .update(outgoingEmails)
        .set({ status: "failed", lastError: error, updatedAt: sql`now()` })
        .where(
          and(
            eq(outgoingEmails.id, id),
            eq(outgoingEmails.status, "sending"),
            lt(outgoingEmails.claimedAt, sql`now() - make_interval(secs => ${staleMs / 1000})`),
          ),
        )
        .returning({ id: outgoingEmails.id });
      return rows.length > 0;
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
