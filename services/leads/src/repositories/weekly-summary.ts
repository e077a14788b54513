import { sql } from "drizzle-orm";
import type { InternalWeeklySummary, JobSource } from "@lease/contracts";
import { currentTraceparent, type Database } from "@lease/platform";
import { outbox } from "../db/schema";

/** The outbox job that e-mails one admin their summary of a week (the mailer's). */
export const WEEKLY_SUMMARY_JOB = "mail.weekly-summary";

/**
 * An admin's open leads, in SQL: lease requests not signed nor lost and
 * contact messages not answered (as the hand-over counts them, repositories/owners.ts), with what
 * the panel's list names them by.
 */
const openLeadsSql = (admin: string) => sql`
  SELECT 'lease_request' AS source, id, COALESCE(NULLIF(btrim(company_name), ''), email) AS name,
         created_at, response_due_at, first_response_at
    FROM leads.lease_requests
   WHERE owner_id = ${admin} AND status IN ('nieuw', 'bekeken', 'gereageerd', 'offerte')
  UNION ALL
  SELECT 'contact_form', id, name, created_at, response_due_at, first_response_at
    FROM leads.contact_messages
   WHERE owner_id = ${admin} AND first_response_at IS NULL`;

/** An admin's open leads now: the first `limit` (late first), each with how many and how many late. */
export const openLeadsQuery = (adminId: string, now: Date, limit: number) =>
  sql`WITH open AS (${openLeadsSql(adminId)}),
        marked AS (SELECT *, (first_response_at IS NULL AND response_due_at < ${now}) AS overdue FROM open)
      SELECT source, id, name, created_at, response_due_at, first_response_at IS NOT NULL AS answered, overdue,
             count(*) OVER () AS total, count(*) FILTER (WHERE overdue) OVER () AS late
        FROM marked
       ORDER BY overdue DESC, (first_response_at IS NULL AND response_due_at IS NOT NULL) DESC,
                response_due_at, created_at, id
       LIMIT ${Math.trunc(limit)}`;

export function weeklySummaryRepository(db: Database) {
  return {
    /**
     * Queues the week's e-mail of every active admin who chose the summary and has an address, once:
     * each gets a (admin, week) row and its outbox row in one transaction, and an admin whose row is
     * there already (the job run before, or by another replica at this moment) is skipped by the
     * primary key. Answers the admins queued now.
     */
    async plan(week: string): Promise<string[]> {
      return db.transaction(async (tx) => {
        const { rows } = await tx.execute<{ admin_id: string }>(
          sql`INSERT INTO leads.weekly_summaries (admin_id, week)
              SELECT admin_id, ${week} FROM leads.staff
               WHERE active AND weekly_summary AND notify_email IS NOT NULL
              ON CONFLICT DO NOTHING RETURNING admin_id`,
        );
        const admins = rows.map((r) => r.admin_id);
        if (admins.length > 0)
          await tx.insert(outbox).values(
            admins.map((adminId) => ({
              jobName: WEEKLY_SUMMARY_JOB,
              payload: { adminId, week },
              traceContext: currentTraceparent() ?? null,
            })),
          );
        return admins;
      });
    },

    /** The admin's open leads now: how many, how many late, and the first `limit` (late first). */
    async openLeads(adminId: string, now: Date, limit: number): Promise<InternalWeeklySummary["open"]> {
      const { rows } = await db.execute<{
        source: JobSource;
        id: string;
        name: string;
        created_at: Date | string;
        response_due_at: Date | string | null;
        answered: boolean;
        overdue: boolean;
        total: string;
        late: string;
      }>(openLeadsQuery(adminId, now, limit));
      const iso = (at: Date | string) => new Date(at).toISOString();
      return {
        total: Number(rows[0]?.total ?? 0),
        late: Number(rows[0]?.late ?? 0),
        leads: rows.map((r) => ({
          source: r.source,
          id: r.id,
          name: r.name,
          receivedAt: iso(r.created_at),
          responseDueAt: r.response_due_at === null ? null : iso(r.response_due_at),
          answered: r.answered,
          overdue: r.overdue,
        })),
      };
    },
  };
}
export type WeeklySummaryRepository = ReturnType<typeof weeklySummaryRepository>;
