import { and, desc, eq, sql } from "drizzle-orm";
import { auditEvent, type AdminIdentity, type Database } from "@lease/platform";
import { leadNotes, leaseRequests, ownerChanges, staff, statusChanges } from "../db/schema";
import { queueAudit } from "./lease-requests";

export type StatusChangeRow = typeof statusChanges.$inferSelect;
export type LeadNoteRow = typeof leadNotes.$inferSelect;

/**
 * A lease request's status changes and staff notes (the timeline's own rows). A note added, changed
 * or deleted is queued for the audit log (outbox) in the same transaction, by the lead's id: the
 * note's text never goes there.
 */
export function leadHistoryRepository(db: Database) {
  return {
    async statusChanges(leaseRequestId: string, limit: number): Promise<StatusChangeRow[]> {
      return db
        .select()
        .from(statusChanges)
        .where(eq(statusChanges.leaseRequestId, leaseRequestId))
        .orderBy(desc(statusChanges.changedAt))
        .limit(limit);
    },

    /** "Toegewezen aan …": who owned the lead when, with the owner's name (newest first). */
    async ownerChanges(leaseRequestId: string, limit: number) {
      return db
        .select({
          at: ownerChanges.changedAt,
          reason: ownerChanges.reason,
          by: ownerChanges.changedBy,
          ownerId: ownerChanges.ownerId,
          ownerName: staff.username,
        })
        .from(ownerChanges)
        .leftJoin(staff, eq(staff.adminId, ownerChanges.ownerId))
        .where(eq(ownerChanges.leaseRequestId, leaseRequestId))
        .orderBy(desc(ownerChanges.changedAt))
        .limit(limit);
    },

    async notes(leaseRequestId: string, limit: number): Promise<LeadNoteRow[]> {
      return db
        .select()
        .from(leadNotes)
        .where(eq(leadNotes.leaseRequestId, leaseRequestId))
        .orderBy(desc(leadNotes.createdAt))
        .limit(limit);
    },

    /** Undefined when the request does not exist (any more): the note is written only with it. */
    async addNote(
      leaseRequestId: string,
      author: AdminIdentity,
      body: string,
    ): Promise<LeadNoteRow | undefined> {
      const id = await db.transaction(async (tx) => {
        const { rows } = await tx.execute<{ id: string }>(sql`
          INSERT INTO ${leadNotes} (lease_request_id, author, author_id, body)
          SELECT ${leaseRequests.id}, ${author.username}, ${author.id}, ${body} FROM ${leaseRequests} WHERE ${leaseRequests.id} = ${leaseRequestId}
          RETURNING id`);
        if (rows[0]) await queueAudit(tx, auditEvent(author.username, "lead.note_added", leaseRequestId));
        return rows[0]?.id;
      });
      return id ? this.findNote(leaseRequestId, id) : undefined;
    },

    async findNote(leaseRequestId: string, noteId: string): Promise<LeadNoteRow | undefined> {
      const [row] = await db
        .select()
        .from(leadNotes)
        .where(and(eq(leadNotes.id, noteId), eq(leadNotes.leaseRequestId, leaseRequestId)))
        .limit(1);
      return row;
    },

    /** Changes the note only while `author` (by id) wrote it; undefined otherwise. */
    async updateNote(
      leaseRequestId: string,
      noteId: string,
      author: AdminIdentity,
      body: string,
    ): Promise<LeadNoteRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(leadNotes)
          .set({ body, updatedAt: new Date() })
          .where(
            and(
              eq(leadNotes.id, noteId),
              eq(leadNotes.leaseRequestId, leaseRequestId),
              eq(leadNotes.authorId, author.id),
            ),
          )
          .returning();
        if (row) await queueAudit(tx, auditEvent(author.username, "lead.note_edited", leaseRequestId));
        return row;
      });
    },

    /** Deletes the note only while `author` (by id) wrote it; true when deleted. */
    async deleteNote(leaseRequestId: string, noteId: string, author: AdminIdentity): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .delete(leadNotes)
          .where(
            and(
              eq(leadNotes.id, noteId),
              eq(leadNotes.leaseRequestId, leaseRequestId),
              eq(leadNotes.authorId, author.id),
            ),
          )
          .returning({ id: leadNotes.id });
        if (rows.length > 0)
          await queueAudit(tx, auditEvent(author.username, "lead.note_deleted", leaseRequestId));
        return rows.length > 0;
      });
    },
  };
}
export type LeadHistoryRepository = ReturnType<typeof leadHistoryRepository>;
