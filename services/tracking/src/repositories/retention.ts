import { connectBeside, withTransaction, type Pool, type PoolClient } from "@lease/platform";
import { addMonths, dayStart, monthOf } from "../domain/calendar";
import { Hll } from "../domain/hll";
import { partitionName, type Partitions } from "./partitions";
import { compactRunningTotalsIn } from "./running-totals";
import { precisionOf, rebuildWeeks } from "./sketches";
import { DIMS } from "../domain/breakdowns";

export interface RetentionReport {
  /** The oldest day kept. */
  keepFrom: string;
  /** Months whose raw rows were dropped whole. */
  droppedMonths: string[];
  /** Rows deleted from the month the cutoff falls in (days before the cutoff). */
  trimmedPageViews: number;
  trimmedVisitors: number;
  /** Rollup, sketch and conversion rows deleted. */
  rollupRows: number;
  /** Visit profiles (with their breakdown values) and breakdown values no day kept uses any more. */
  prunedProfiles: number;
  prunedValues: number;
}

/**
 * The advisory lock between the batch writer (shared, held while it writes a batch whose profile
 * and value ids it numbered: repositories/page-views.ts) and the pruning of those tables here.
 */
export const DICTIONARY_LOCK = "hashtext('tracking:dictionaries')";

/** Held shared by each history import while it runs (cli/import-visits.ts); see waitForImports. */
const IMPORT_LOCK = "hashtext('tracking:import')";

/**
 * Marks a history import as running until the returned function is called: a connection of its
 * own (not one of the import's pool) holding IMPORT_LOCK shared, so imports run side by side.
 */
export async function holdImportLock(pool: Pool): Promise<() => Promise<void>> {
  const client = await connectBeside(pool);
  // A connection lost meanwhile only lets go of the lock (a daily pass may then run beside the
  // import, whose batches retry what it prunes); it must not end the process as an unheard error.
  client.on("error", () => undefined);
  try {
    await client.query(`SELECT pg_advisory_lock_shared(${IMPORT_LOCK})`);
  } catch (err) {
    await client.end();
    throw err;
  }
  return () => client.end();
}

/**
 * Resolves once no history import runs. The daily pass waits for one: its retention would prune
 * the visit profiles and breakdown values an import's batches in flight have just numbered (they
 * retry, but each retry rewrites its batch), and packing a month the import still writes into
 * holds its batches off for seconds.
 */
export async function waitForImports(pool: Pool, pollMs = 30_000): Promise<void> {
  for (;;) {
    // Taken and let go within the statement: only tells whether an import holds it.
    const r = await pool.query<{ free: boolean }>(`SELECT pg_try_advisory_xact_lock(${IMPORT_LOCK}) AS free`);
    if (r.rows[0]!.free) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * Removes analytics older than `keepFrom`: whole months of raw rows by dropping their partitions
 * (constant time), the days before the cutoff in its own month by a DELETE over one day's worth
 * of rows (when run daily), and the rollups of the removed days, months and sketches.
 */
export async function applyRetention(
  pool: Pool,
  partitions: Partitions,
  keepFrom: string,
): Promise<RetentionReport> {
  const boundary = monthOf(keepFrom);
  const report: RetentionReport = {
    keepFrom,
    droppedMonths: [],
    trimmedPageViews: 0,
    trimmedVisitors: 0,
    rollupRows: 0,
    prunedProfiles: 0,
    prunedValues: 0,
  };
  const months = await partitions.months();
  for (const month of months.filter((m) => m < boundary)) {
    await partitions.drop(month);
    report.droppedMonths.push(month);
  }
  const cutoff = new Date(dayStart(keepFrom)).toISOString();
  if (keepFrom !== boundary && months.includes(boundary)) {
    const views = await pool.query(
      `DELETE FROM tracking.${partitionName("page_views", boundary)} WHERE occurred_at < $1`,
      [cutoff],
    );
    const visitors = await pool.query(
      `DELETE FROM tracking.${partitionName("visitors", boundary)} WHERE day < $1`,
      [keepFrom],
    );
    // The month's packed page views (migration 0017): whole days, as the cutoff is a midnight.
    const packed = await pool.query<{ n: string }>(
      `WITH d AS (DELETE FROM tracking.${partitionName("page_view_days", boundary)} WHERE day < $1 RETURNING views)
       SELECT coalesce(sum(length(views) / 12), 0) AS n FROM d`,
      [keepFrom],
    );
    report.trimmedPageViews = (views.rowCount ?? 0) + Number(packed.rows[0]!.n);
    report.trimmedVisitors = visitors.rowCount ?? 0;
  }
  await withTransaction(pool, async (client) => {
    // The compactor writes month sketches too: wait for it, then hold it off.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('tracking:sketches'))");
    const deleted = await client.query<{ n: string; boundary_days: string }>(
      `WITH h AS (DELETE FROM tracking.hourly WHERE hour < $1 RETURNING 1),
            hp AS (DELETE FROM tracking.hourly_pages WHERE hour < $1 RETURNING 1),
            d AS (DELETE FROM tracking.daily WHERE day < $2 RETURNING day),
            dp AS (DELETE FROM tracking.daily_pages WHERE day < $2 RETURNING 1),
            m AS (DELETE FROM tracking.monthly WHERE month < $3 RETURNING 1),
            mp AS (DELETE FROM tracking.monthly_pages WHERE month < $3 RETURNING 1),
            dd AS (DELETE FROM tracking.daily_dims WHERE day < $2 RETURNING 1),
            md AS (DELETE FROM tracking.monthly_dims WHERE month < $3 RETURNING 1),
            hv AS (DELETE FROM tracking.hourly_visits WHERE hour < $1 RETURNING 1),
            dpr AS (DELETE FROM tracking.daily_dim_pairs WHERE day < $2 RETURNING 1),
            mpr AS (DELETE FROM tracking.monthly_dim_pairs WHERE month < $3 RETURNING 1),
            dv AS (DELETE FROM tracking.daily_visits WHERE day < $2 RETURNING 1),
            mv AS (DELETE FROM tracking.monthly_visits WHERE month < $3 RETURNING 1),
            s AS (DELETE FROM tracking.sketches
                  WHERE (kind = 'd' AND period < $2) OR (kind IN ('m', 'w', 'p') AND period < $3)
                  RETURNING 1),
            x AS (DELETE FROM tracking.sketch_deltas WHERE day < $2 RETURNING 1),
            cv AS (DELETE FROM tracking.conversions WHERE day < $2 RETURNING lead_id),
            ls AS (DELETE FROM tracking.lead_stages WHERE lead_id IN (SELECT lead_id FROM cv) RETURNING 1)
       SELECT (SELECT count(*) FROM h) + (SELECT count(*) FROM hp) + (SELECT count(*) FROM d)
            + (SELECT count(*) FROM dp) + (SELECT count(*) FROM m) + (SELECT count(*) FROM mp)
            + (SELECT count(*) FROM s) + (SELECT count(*) FROM x)
            + (SELECT count(*) FROM dd) + (SELECT count(*) FROM md) + (SELECT count(*) FROM cv)
            + (SELECT count(*) FROM hv) + (SELECT count(*) FROM dv) + (SELECT count(*) FROM mv)
            + (SELECT count(*) FROM dpr) + (SELECT count(*) FROM mpr) AS n,
              (SELECT count(*) FROM d WHERE day >= $3) AS boundary_days`,
      [cutoff, keepFrom, boundary],
    );
    report.rollupRows = Number(deleted.rows[0]!.n);
    // The daily_dims trigger recorded the deleted days' rows as changes that take them out of their
    // months' running totals: applied now, and then the deleted days' own running rows go (applied
    // later, they would bring those rows back).
    await compactRunningTotalsIn(client);
    await client.query("DELETE FROM tracking.report_running_dims WHERE day < $1", [keepFrom]);
    // Days of the cutoff's own month went: its month rollups now describe only the days left.
    if (Number(deleted.rows[0]!.boundary_days) > 0) await rebuildMonth(client, boundary);
  });
  Object.assign(report, await pruneDictionaries(pool));
  return report;
}

/**
 * Deletes the visit profiles and breakdown values that no day kept uses: made-up campaign names
 * and referrers leave with the days they came on. A profile is used while a month's visit rollup
 * (every visitor row is in one) or a conversion names it; a breakdown value while a kept profile
 * or a month's breakdown rollup does. Writers hold DICTIONARY_LOCK shared while they write ids
 * they numbered before, and check them once they hold it: ids numbered meanwhile are never lost.
 */
export async function pruneDictionaries(
  pool: Pool,
): Promise<{ prunedProfiles: number; prunedValues: number }> {
  return withTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(${DICTIONARY_LOCK})`);
    // Set differences: one scan of each table, whatever the planner thinks of anti joins.
    const profiles = await client.query(
      `DELETE FROM tracking.profiles WHERE id IN (
         SELECT id FROM tracking.profiles
         EXCEPT SELECT profile_id FROM tracking.monthly_visits
         EXCEPT SELECT profile_id FROM tracking.conversions WHERE profile_id IS NOT NULL)`,
    );
    await client.query(
      `DELETE FROM tracking.profile_dims WHERE profile_id IN (
         SELECT profile_id FROM tracking.profile_dims EXCEPT SELECT id FROM tracking.profiles)`,
    );
    // A landing page's value id is its page id (not a dim_values row).
    const values = await client.query(
      `DELETE FROM tracking.dim_values WHERE id IN (
         SELECT id FROM tracking.dim_values
         EXCEPT SELECT value_id FROM tracking.profile_dims
         EXCEPT SELECT value_id FROM tracking.monthly_dims WHERE dim <> $1)`,
      [DIMS.landingPage],
    );
    return { prunedProfiles: profiles.rowCount ?? 0, prunedValues: values.rowCount ?? 0 };
  });
}

async function rebuildMonth(client: PoolClient, month: string): Promise<void> {
  const next = addMonths(month, 1);
  await client.query(
    `UPDATE tracking.monthly SET views = (SELECT coalesce(sum(views), 0) FROM tracking.daily
                                          WHERE day >= $1 AND day < $2) WHERE month = $1`,
    [month, next],
  );
  await client.query(
    `UPDATE tracking.monthly SET quotes = d.quotes, contacts = d.contacts, offers = d.offers,
            contracts = d.contracts, commission_cents = d.commission_cents
     FROM (SELECT coalesce(sum(quotes), 0) AS quotes, coalesce(sum(contacts), 0) AS contacts,
                  coalesce(sum(offers), 0) AS offers, coalesce(sum(contracts), 0) AS contracts,
                  coalesce(sum(commission_cents), 0) AS commission_cents
           FROM tracking.daily WHERE day >= $1 AND day < $2) d
     WHERE month = $1`,
    [month, next],
  );
  await client.query(`DELETE FROM tracking.monthly_pages WHERE month = $1`, [month]);
  await client.query(`DELETE FROM tracking.monthly_dims WHERE month = $1`, [month]);
  await client.query(
    `INSERT INTO tracking.monthly_dims
       (month, dim, value_id, visits, views, quotes, contacts, offers, contracts, commission_cents)
     SELECT $1, dim, value_id, sum(visitors), sum(views), sum(quotes), sum(contacts), sum(offers),
            sum(contracts), sum(commission_cents) FROM tracking.daily_dims
     WHERE day >= $1 AND day < $2 GROUP BY dim, value_id`,
    [month, next],
  );
  await client.query(`DELETE FROM tracking.monthly_dim_pairs WHERE month = $1`, [month]);
  await client.query(
    `INSERT INTO tracking.monthly_dim_pairs (month, fdim, fvalue, dim, value_id, visits, views)
     SELECT $1, fdim, fvalue, dim, value_id, sum(visits), sum(views) FROM tracking.daily_dim_pairs
     WHERE day >= $1 AND day < $2 GROUP BY fdim, fvalue, dim, value_id`,
    [month, next],
  );
  await client.query(`DELETE FROM tracking.monthly_visits WHERE month = $1`, [month]);
  await client.query(
    `INSERT INTO tracking.monthly_visits (month, profile_id, landing_page_id, visits, views)
     SELECT $1, profile_id, landing_page_id, sum(visits), sum(views) FROM tracking.daily_visits
     WHERE day >= $1 AND day < $2 GROUP BY profile_id, landing_page_id`,
    [month, next],
  );
  await client.query(
    `INSERT INTO tracking.monthly_pages (month, page_id, views)
     SELECT $1, page_id, sum(views) FROM tracking.daily_pages WHERE day >= $1 AND day < $2 GROUP BY page_id`,
    [month, next],
  );
  const days = await client.query<{ scope: number; regs: Buffer }>(
    `SELECT scope, regs FROM tracking.sketches WHERE kind = 'd' AND period >= $1 AND period < $2`,
    [month, next],
  );
  const unions = new Map<number, Hll>();
  for (const row of days.rows) {
    let hll = unions.get(row.scope);
    if (!hll) unions.set(row.scope, (hll = new Hll(precisionOf(row.scope))));
    hll.merge(Hll.deserialize(row.regs));
  }
  await client.query(`DELETE FROM tracking.sketches WHERE kind = 'm' AND period = $1`, [month]);
  const scopes = [...unions.keys()];
  await client.query(
    `INSERT INTO tracking.sketches (kind, period, scope, regs)
     SELECT 'm', $1, * FROM unnest($2::int[], $3::bytea[])`,
    [month, scopes, scopes.map((s) => unions.get(s)!.serialize())],
  );
  // Its week pieces too: the first may have lost days.
  await rebuildWeeks(client, month);
}
