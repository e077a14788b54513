import { and, desc, eq, lt, sql } from "drizzle-orm";
import {
  AUDIT_RETENTION_DAYS,
  type AuditAction,
  type AuditEntry,
  type AuditLogQuery,
} from "@lease/contracts";
import { addressPattern, type Database } from "@lease/platform";
import { auditLog } from "../db/schema";

export interface AuditRecord {
  actor: string;
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
        action: entry.action,
        target: entry.target ?? null,
        detail: entry.detail ?? null,
      });
    },
    async page(query: AuditLogQuery): Promise<AuditEntry[]> {
      const rows = await db
        .select()
        .from(auditLog)
        .where(
          and(
            query.action ? eq(auditLog.action, query.action) : undefined,
            query.actor ? eq(auditLog.actor, query.actor) : undefined,
            query.before ? lt(auditLog.at, new Date(query.before)) : undefined,
          ),
        )
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(query.limit);
      return rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actor,
        action: row.action as AuditAction,
        target: row.target,
        detail: row.detail,
      }));
    },
    /**
     * An erasure (AVG) leaves the address in no entry: a target or detail naming it becomes
     * "[gewist]". The entries themselves (who did what, when) stay. The number changed.
     */
    async forgetAddress(email: string): Promise<number> {
      const pattern = addressPattern(email);
      const rows = await db
        .update(auditLog)
        .set({
          target: sql`CASE WHEN ${auditLog.target} ~* ${pattern} THEN '[gewist]' ELSE ${auditLog.target} END`,
          detail: sql`CASE WHEN ${auditLog.detail} ~* ${pattern} THEN '[gewist]' ELSE ${auditLog.detail} END`,
        })
        .where(sql`${auditLog.target} ~* ${pattern} OR ${auditLog.detail} ~* ${pattern}`)
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
