import { withTransaction, type Pool } from "@lease/platform";

export interface OutboxRow {
  id: string;
  jobName: string;
  payload: Record<string, unknown>;
  requestId: string | null;
  traceContext: string | null;
  createdAt: Date;
}

/**
 * Claims up to `limit` pending rows with FOR UPDATE SKIP LOCKED (so several relays never take the
 * same row), hands them to `publish`, and marks them published in the same transaction. If publish
 * throws, the transaction rolls back and the rows stay pending for the next attempt.
 */
export function outboxRepository(pool: Pool) {
  return {
    async publishBatch(limit: number, publish: (rows: OutboxRow[]) => Promise<void>): Promise<number> {
      return withTransaction(pool, async (client) => {
        const { rows } = await client.query<OutboxRow>(
          `SELECT id, job_name AS "jobName", payload, request_id AS "requestId", trace_context AS "traceContext",
                  created_at AS "createdAt"
             FROM leads.outbox
            WHERE published_at IS NULL
            ORDER BY created_at
            LIMIT $1
            FOR UPDATE SKIP LOCKED`,
          [limit],
        );
        if (rows.length === 0) return 0;
        await publish(rows);
        await client.query("UPDATE leads.outbox SET published_at = now() WHERE id = ANY($1::uuid[])", [
          rows.map((r) => r.id),
        ]);
        return rows.length;
      });
    },

    /** Rows waiting for the relay and the age of the oldest (0 when none wait): for alerting. */
    async pendingStats(): Promise<{ pending: number; oldestSeconds: number }> {
      const { rows } = await pool.query<{ pending: number; oldest: number }>(
        `SELECT count(*)::int AS pending,
                COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest
           FROM leads.outbox
          WHERE published_at IS NULL`,
      );
      return { pending: rows[0]?.pending ?? 0, oldestSeconds: rows[0]?.oldest ?? 0 };
    },

    /** Published rows are only an audit trail; keep a week of them. */
    async prunePublished(olderThanDays: number): Promise<number> {
      const { rowCount } = await pool.query(
        "DELETE FROM leads.outbox WHERE published_at < now() - make_interval(days => $1)",
        [olderThanDays],
      );
      return rowCount ?? 0;
    },
  };
}
export type OutboxRepository = ReturnType<typeof outboxRepository>;
