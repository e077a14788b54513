import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import {
  AUDIT_RETENTION_DAYS,
  type AuditAction,
  type AuditEntry,
  type AuditLogQuery,
  type AuditRecordJobData,
} from "@lease/contracts";
import { addressPattern, type Database } from "@lease/platform";
import { admins, auditLog } from "../db/schema";

export interface AuditRecord {
  /** The admin's username at the time (shown); actorId binds the entry to the account. */
  actor: string;
  actorId?: string | null;
  action: AuditAction;
  target?: string | null;
  detail?: string | null;
}

/** The audit log: rows only for what a signed-in admin did (or their sign-in), so never anonymous input. */
export function auditRepository(db: Database) {
  return {
    async record(entry: AuditRecord): Promise<void> {
      await db.insert(auditLog).values({
        actor: entry.actor,
        actorId: entry.actorId ?? null,
        action: entry.action,
        target: entry.target ?? null,
        detail: entry.detail ?? null,
      });
    },
    /**
     * An entry another service sent (the audit.record job): its event id is the row id, so a job
     * delivered again adds nothing. True when a row was added.
     */
    async recordEvent(event: AuditRecordJobData): Promise<boolean> {
      const rows = await db
        .insert(auditLog)
        .values({
          id: event.eventId,
          at: new Date(event.at),
          actor: event.actor,
          // Names are never given again, so the admin who has the name is the one who acted.
          actorId: sql`(SELECT ${admins.id} FROM ${admins} WHERE ${admins.username} = ${event.actor})`,
          action: event.action,
          target: event.target,
          detail: event.detail,
        })
        .onConflictDoNothing({ target: auditLog.id })
        .returning({ id: auditLog.id });
      return rows.length > 0;
    },
    async page(query: AuditLogQuery): Promise<AuditEntry[]> {
      const rows = await db
        .select()
        .from(auditLog)
        .where(
          and(
            query.action ? eq(auditLog.action, query.action) : undefined,
            query.actor ? eq(auditLog.actor, query.actor) : undefined,
            query.target ? eq(auditLog.target, query.target) : undefined,
            query.from ? gte(auditLog.at, new Date(query.from)) : undefined,
            query.before ? lt(auditLog.at, new Date(query.before)) : undefined,
          ),
        )
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(query.limit);
      return rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actor,
        actorId: row.actorId,
        action: row.action as AuditAction,
        target: row.target,
        detail: row.detail,
      }));
    },
    /**
     * An erasure (AVG) leaves the address in no entry about a lead or an e-mail (the entries about
     * a data subject): a target or detail naming it becomes "[gewist]". The entries themselves
     * (who did what, when) stay. The actor, and every entry about admin accounts, sign-ins,
     * settings or the panel itself, is never rewritten: an admin's username may hold "@" and ".".
     * The number changed.
     */
    async forgetAddress(email: string): Promise<number> {
      const pattern = addressPattern(email);
      const rows = await db
        .update(auditLog)
        .set({
          target: sql`CASE WHEN ${auditLog.target} ~* ${pattern} THEN '[gewist]' ELSE ${auditLog.target} END`,
          detail: sql`CASE WHEN ${auditLog.detail} ~* ${pattern} THEN '[gewist]' ELSE ${auditLog.detail} END`,
        })
        .where(
          sql`(${auditLog.action} LIKE 'lead.%' OR ${auditLog.action} LIKE 'email.%')
              AND (${auditLog.target} ~* ${pattern} OR ${auditLog.detail} ~* ${pattern})`,
        )
        .returning({ id: auditLog.id });
      return rows.length;
    },
    /**
     * Entries about the erased person's leads (status changes, deletions, e-mails sent) keep who
     * did what and when, but no longer name the lead: target "[gewist]". The number changed.
     */
    async forgetTargets(ids: string[]): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await db
        .update(auditLog)
        .set({ target: "[gewist]" })
        .where(
          and(
            inArray(auditLog.target, ids),
            sql`(${auditLog.action} LIKE 'lead.%' OR ${auditLog.action} LIKE 'email.%')`,
          ),
        )
        .returning({ id: auditLog.id });
      return rows.length;
    },
    /** Removes what is older than the retention (two years); the number removed. */
    async prune(now = new Date()): Promise<number> {
      const cutoff = new Date(now.getTime() - AUDIT_RETENTION_DAYS * 24 * 60 * 60_000);
      const rows = await db.delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id });
      return rows.length;
    },
  };
}
export type AuditRepository = ReturnType<typeof auditRepository>;
