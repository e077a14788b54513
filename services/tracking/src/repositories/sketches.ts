import { withTransaction, type Pool, type PoolClient } from "@lease/platform";
import { addMonths, monthOf } from "../domain/calendar";
import { Hll } from "../domain/hll";
import { weekPieceOf } from "../domain/periods";

/** Scope of the whole site's visitors; any other scope is a page id. */
export const SITE_SCOPE = 0;

/**
 * Precision per scope. The site's visitors: 2^15 registers, 0.57 % standard error, so a month or
 * longer period is within 2 % (3.5 standard errors) and a sketch is at most 32 KB. A page's: 2^12
 * registers, 1.6 %, at most 4 KB. A breakdown value's (a channel, a campaign, a country; negative
 * scopes): 2^10 registers, 3.3 %, at most 1 KB, since a two-year breakdown reads the sketches of
 * some 60 values.
 */
export function precisionOf(scope: number): number {
  return scope === SITE_SCOPE ? 15 : scope > 0 ? 12 : 10;
}

/**
 * Folds the sketch additions that batches appended (sketch_deltas) into the day, week piece
 * (domain/periods.ts weekPieceOf) and month sketches.
 * Appending keeps the writer's transaction cheap (a few hundred bytes a batch instead of rewriting
 * 16 KB sketches); union is idempotent, so a delta merged twice would change nothing, and readers
 * union sketches and unmerged deltas in one snapshot, so they never miss a batch. One compactor at
 * a time (advisory lock): with `wait`, this one waits for another to finish, otherwise it merges
 * nothing then; returns the number of deltas merged.
 */
export async function compactSketches(pool: Pool, limit = 5000, wait = false): Promise<number> {
  return withTransaction(pool, async (client) => {
    const lock = await client.query<{ ok: boolean }>(
      wait
        ? "SELECT pg_advisory_xact_lock(hashtext('tracking:sketches')) IS NOT NULL AS ok"
        : "SELECT pg_try_advisory_xact_lock(hashtext('tracking:sketches')) AS ok",
    );
    // Another compactor holds it: nothing was read or written, so committing equals rolling back.
    if (!lock.rows[0]!.ok) return 0;
    const taken = await client.query<{ day: string; scope: number; regs: Buffer }>(
      `DELETE FROM tracking.sketch_deltas
       WHERE id IN (SELECT id FROM tracking.sketch_deltas ORDER BY id LIMIT $1)
       RETURNING to_char(day, 'YYYY-MM-DD') AS day, scope, regs`,
      [limit],
    );
    if (taken.rows.length === 0) return 0;
    const merged = new Map<string, Hll>();
    const add = (kind: string, period: string, scope: number, regs: Buffer) => {
      const id = `${kind}|${period}|${scope}`;
      const delta = Hll.deserialize(regs);
      const into = merged.get(id);
      if (into) into.merge(delta);
      else merged.set(id, delta);
    };
    for (const row of taken.rows) {
      add("d", row.day, row.scope, row.regs);
      add("w", weekPieceOf(row.day).start, row.scope, row.regs);
      add("m", monthOf(row.day), row.scope, row.regs);
    }
    await mergeInto(client, merged);
    return taken.rows.length;
  });
}

/** Unions sketches keyed "kind|period|scope" into the stored ones (the caller holds the lock). */
async function mergeInto(client: PoolClient, merged: Map<string, Hll>): Promise<void> {
  const keys = [...merged.keys()].sort().map((id) => id.split("|") as [string, string, string]);
  const stored = await client.query<{ kind: string; period: string; scope: number; regs: Buffer }>(
    `SELECT s.kind, to_char(s.period, 'YYYY-MM-DD') AS period, s.scope, s.regs
     FROM tracking.sketches s
     JOIN unnest($1::text[], $2::date[], $3::int[]) AS k(kind, period, scope)
       ON s.kind = k.kind AND s.period = k.period AND s.scope = k.scope`,
    [keys.map((k) => k[0]), keys.map((k) => k[1]), keys.map((k) => Number(k[2]))],
  );
  for (const row of stored.rows)
    merged.get(`${row.kind}|${row.period}|${row.scope}`)!.merge(Hll.deserialize(row.regs));
  await client.query(
    `INSERT INTO tracking.sketches (kind, period, scope, regs)
     SELECT * FROM unnest($1::text[], $2::date[], $3::int[], $4::bytea[])
     ON CONFLICT (kind, period, scope) DO UPDATE SET regs = EXCLUDED.regs`,
    [
      keys.map((k) => k[0]),
      keys.map((k) => k[1]),
      keys.map((k) => Number(k[2])),
      keys.map((k) => merged.get(k.join("|"))!.serialize()),
    ],
  );
}

/**
 * Merges until no delta is left (after an import, and in tests); returns how many were merged.
 * Waits for another compactor (the service's, every SKETCH_COMPACT_INTERVAL_MS) instead of taking
 * its turn for "none left": an import beside a running service could otherwise end while the
 * service merged, its last batches' deltas left to the service's 5,000 every 2 s.
 */
export async function compactAll(pool: Pool): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await compactSketches(pool, 5000, true);
    total += n;
    if (n === 0) return total;
  }
}

/**
 * Builds the week piece sketches of a month from its day sketches, replacing any there were. The
 * caller holds the compactor's lock (deltas merged meanwhile would be lost otherwise).
 */
export async function rebuildWeeks(client: PoolClient, month: string): Promise<void> {
  const days = await client.query<{ day: string; scope: number; regs: Buffer }>(
    `SELECT to_char(period, 'YYYY-MM-DD') AS day, scope, regs FROM tracking.sketches
     WHERE kind = 'd' AND period >= $1 AND period < $2`,
    [month, addMonths(month, 1)],
  );
  const merged = new Map<string, Hll>();
  for (const row of days.rows) {
    const id = `${weekPieceOf(row.day).start}|${row.scope}`;
    const into = merged.get(id);
    if (into) into.merge(Hll.deserialize(row.regs));
    else merged.set(id, Hll.deserialize(row.regs));
  }
  const keys = [...merged.keys()].sort();
  await client.query(
    `DELETE FROM tracking.sketches WHERE kind IN ('w', 'p') AND period >= $1 AND period < $2`,
    [month, addMonths(month, 1)],
  );
  await client.query(
    `INSERT INTO tracking.sketches (kind, period, scope, regs)
     SELECT 'w', * FROM unnest($1::date[], $2::int[], $3::bytea[])`,
    [
      keys.map((k) => k.split("|")[0]),
      keys.map((k) => Number(k.split("|")[1])),
      keys.map((k) => merged.get(k)!.serialize()),
    ],
  );
}

/**
 * Months whose week piece sketches are still to be built (kind 'p' rows, left by migration 0015
 * for the months of before it; until then readers take those pieces' day sketches): built one
 * month a transaction. Returns the months built.
 */
export async function buildPendingWeeks(pool: Pool): Promise<number> {
  let built = 0;
  for (;;) {
    const done = await withTransaction(pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext('tracking:sketches'))");
      const next = await client.query<{ month: string }>(
        `SELECT to_char(period, 'YYYY-MM-DD') AS month FROM tracking.sketches
         WHERE kind = 'p' ORDER BY period LIMIT 1`,
      );
      if (next.rows.length === 0) return true;
      await rebuildWeeks(client, next.rows[0]!.month);
      return false;
    });
    if (done) return built;
    built++;
  }
}
