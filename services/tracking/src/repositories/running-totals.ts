import { withTransaction, type Pool, type PoolClient } from "@lease/platform";

/** One compactor of the campaign report's running totals at a time (retention waits for it). */
const LOCK = "hashtext('tracking:running-totals')";
/** Pending changes moved per transaction: a burst's backlog goes in steps of this. */
const STEP = 20_000;

/**
 * Moves the changes the daily_dims trigger recorded (report_running_pending) into the campaign
 * report's running totals (report_running_dims), oldest first, in steps of STEP until none are
 * left or another compactor holds the lock. Readers add the pending rows to the running rows in one
 * snapshot, so a report is the same before and after. Answers the number of changes moved.
 */
export async function compactRunningTotals(pool: Pool): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await withTransaction(pool, async (client) => {
      const lock = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${LOCK}) AS ok`);
      if (!lock.rows[0]!.ok) return 0;
      return compact(client, STEP);
    });
    total += moved;
    if (moved < STEP) return total;
  }
}

/**
 * Moves every pending change within the caller's transaction, waiting for a running compactor:
 * retention deletes days and then their running rows, which needs their changes applied first.
 */
export async function compactRunningTotalsIn(client: PoolClient): Promise<number> {
  await client.query(`SELECT pg_advisory_xact_lock(${LOCK})`);
  return compact(client, null);
}

async function compact(client: PoolClient, max: number | null): Promise<number> {
  const r = await client.query<{ n: number }>("SELECT tracking.report_running_compact($1) AS n", [max]);
  return r.rows[0]!.n;
}
