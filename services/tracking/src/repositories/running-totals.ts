import { withTransaction, type Pool, type PoolClient } from "@lease/platform";

/** One compactor of the campaign report's running totals at a time (retention waits for it). */
const LOCK = "hashtext('tracking:running-totals')";
/** Pending changes moved per transaction: a burst's backlog goes in steps of this. */
const STEP = 20_000;
/** The spend's compactor, apart: an import's backlog never holds up the visits' one. */
const SPEND_LOCK = "hashtext('tracking:spend-running-totals')";
/**
 * Pending spend changes moved per transaction: each may spread over 31 running rows, so a step
 * upserts at most 15,500 rows, well within the campaign pool's statement limit.
 */
const SPEND_STEP = 500;

/**
 * Moves the changes the daily_dims trigger recorded (report_running_pending) into the campaign
 * report's running totals (report_running_dims), oldest first, in steps of STEP until none are
 * left or another compactor holds the lock. Readers add the pending rows to the running rows in one
 * snapshot, so a report is the same before and after. Answers the number of changes moved.
 */
export function compactRunningTotals(pool: Pool): Promise<number> {
  return compactAll(pool, LOCK, "report_running_compact", STEP);
}

/** The same for ad_spend's changes (ad_spend_running_pending into ad_spend_running). */
export function compactSpendTotals(pool: Pool): Promise<number> {
  return compactAll(pool, SPEND_LOCK, "ad_spend_running_compact", SPEND_STEP);
}

async function compactAll(pool: Pool, lock: string, compactor: string, step: number): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await withTransaction(pool, async (client) => {
      const held = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${lock}) AS ok`);
      if (!held.rows[0]!.ok) return 0;
      return compact(client, compactor, step);
    });
    total += moved;
    if (moved < step) return total;
  }
}

/**
 * Moves every pending change within the caller's transaction, waiting for a running compactor:
 * retention deletes days and then their running rows, which needs their changes applied first.
 */
export async function compactRunningTotalsIn(client: PoolClient): Promise<number> {
  await client.query(`SELECT pg_advisory_xact_lock(${LOCK})`);
  return compact(client, "report_running_compact", null);
}

async function compact(client: PoolClient, compactor: string, max: number | null): Promise<number> {
  const r = await client.query<{ n: number }>(`SELECT tracking.${compactor}($1) AS n`, [max]);
  return r.rows[0]!.n;
}
