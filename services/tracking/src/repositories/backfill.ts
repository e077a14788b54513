import type { Logger, Pool } from "@lease/platform";
import { insertBatch, type TrackEvent, type WriterDeps } from "./page-views";

/**
 * Moves the rows of the unpartitioned tables of before (legacy_page_views, legacy_visitors, left
 * by migration 0002) through the batch writer, so they land in partitions and rollups exactly as
 * live traffic does, then drops those tables. Each chunk is written, then deleted from the legacy
 * table: a crash in between repeats the chunk, which the writer ignores (same ids). One replica
 * at a time (advisory lock); returns the page views moved.
 */
export async function backfillLegacy(
  deps: WriterDeps & { logger: Logger; stopping?: () => boolean },
  chunk = 5000,
): Promise<number> {
  const { pool, logger } = deps;
  if (!(await legacyExists(pool))) return 0;
  const lock = await pool.connect();
  let moved = 0;
  try {
    const got = await lock.query<{ ok: boolean }>(
      "SELECT pg_try_advisory_lock(hashtext('tracking:backfill')) AS ok",
    );
    if (!got.rows[0]!.ok) return 0;
    try {
      if (!(await legacyExists(pool))) return 0;
      for (;;) {
        if (deps.stopping?.()) return moved; // the rest moves at the next start
        const r = await pool.query<{
          event_id: string;
          session_id: string;
          page: string;
          referrer: string | null;
          occurred_at: Date;
          user_agent: string | null;
          country: string | null;
          city: string | null;
        }>(
          `SELECT pv.event_id, pv.session_id, pv.page, pv.referrer, pv.occurred_at,
                  v.user_agent, v.country, v.city
           FROM tracking.legacy_page_views pv LEFT JOIN tracking.legacy_visitors v USING (session_id)
           ORDER BY pv.occurred_at, pv.event_id LIMIT $1`,
          [chunk],
        );
        if (r.rows.length === 0) break;
        const events: TrackEvent[] = r.rows.map((row) => ({
          eventId: row.event_id,
          sessionId: row.session_id,
          isView: true,
          page: row.page,
          referrer: row.referrer,
          userAgent: row.user_agent,
          country: row.country,
          city: row.city,
          at: row.occurred_at,
        }));
        await insertBatch(deps, events);
        await pool.query("DELETE FROM tracking.legacy_page_views WHERE event_id = ANY($1::text[])", [
          r.rows.map((row) => row.event_id),
        ]);
        moved += r.rows.length;
      }
      await pool.query("DROP TABLE IF EXISTS tracking.legacy_page_views, tracking.legacy_visitors");
      if (moved > 0) logger.info({ moved }, "page views of before the partitioned tables moved");
      return moved;
    } finally {
      await lock.query("SELECT pg_advisory_unlock(hashtext('tracking:backfill'))");
    }
  } finally {
    lock.release();
  }
}

async function legacyExists(pool: Pool): Promise<boolean> {
  const r = await pool.query<{ t: string | null }>(
    "SELECT to_regclass('tracking.legacy_page_views')::text AS t",
  );
  return r.rows[0]!.t !== null;
}
