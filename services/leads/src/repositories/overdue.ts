import { sql } from "drizzle-orm";
import type { JobSource, LeadOwner } from "@lease/contracts";
import { currentTraceparent, type Database } from "@lease/platform";
import { outbox } from "../db/schema";

/** A lead that passed its deadline without a response, claimed for its announcement. */
export interface OverdueLead {
  source: JobSource;
  id: string;
  owner: LeadOwner | null;
  dueAt: Date;
}

/** The outbox job that e-mails a late lead's owner (the payload also carries what the panels are told). */
export const LEAD_OVERDUE_JOB = "mail.lead-overdue";

const TABLES: Record<JobSource, { table: string; open: string }> = {
  // A lease request signed or lost waits for nobody.
  lease_request: {
    table: "leads.lease_requests",
    open: `AND status IN ('nieuw', 'bekeken', 'gereageerd', 'offerte')`,
  },
  contact_form: { table: "leads.contact_messages", open: "" },
};

/**
 * The late leads' announcement, claimed in the database: each lead is marked announced in the same
 * transaction that queues its e-mail and its live notice (outbox), and a lead another replica is
 * claiming is skipped (SKIP LOCKED), so each late lead is announced exactly once whichever replica
 * scans. The partial index `*_unannounced_idx` holds only leads not yet answered nor announced.
 */
export function overdueRepository(db: Database) {
  return {
    /** Claims up to `limit` late leads of each kind, oldest deadline first; answers those claimed. */
    async claim(limit: number): Promise<OverdueLead[]> {
      return db.transaction(async (tx) => {
        const claimed: OverdueLead[] = [];
        for (const [source, { table, open }] of Object.entries(TABLES) as [
          JobSource,
          (typeof TABLES)[JobSource],
        ][]) {
          const { rows } = await tx.execute<{
            id: string;
            owner_id: string | null;
            username: string | null;
            due_at: Date | string;
          }>(
            sql.raw(`WITH due AS (
                SELECT id FROM ${table}
                 WHERE first_response_at IS NULL AND overdue_announced_at IS NULL
                   AND response_due_at <= now() ${open}
                 ORDER BY response_due_at LIMIT ${Math.trunc(limit)}
                 FOR UPDATE SKIP LOCKED)
              UPDATE ${table} t SET overdue_announced_at = now() FROM due
               WHERE t.id = due.id
              RETURNING t.id, t.owner_id, t.response_due_at AS due_at,
                (SELECT s.username FROM leads.staff s WHERE s.admin_id = t.owner_id) AS username`),
          );
          for (const r of rows)
            claimed.push({
              source,
              id: r.id,
              owner: r.owner_id && r.username ? { id: r.owner_id, username: r.username } : null,
              dueAt: new Date(r.due_at),
            });
        }
        if (claimed.length > 0)
          await tx.insert(outbox).values(
            claimed.map((lead) => ({
              jobName: LEAD_OVERDUE_JOB,
              payload: {
                source: lead.source,
                sourceId: lead.id,
                ownerId: lead.owner?.id ?? null,
                // For the live notice only (the job itself keeps ids): see jobs/relay.ts.
                owner: lead.owner,
                dueAt: lead.dueAt.toISOString(),
              },
              traceContext: currentTraceparent() ?? null,
            })),
          );
        return claimed;
      });
    },
  };
}
export type OverdueRepository = ReturnType<typeof overdueRepository>;
