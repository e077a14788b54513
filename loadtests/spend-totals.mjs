// The spend rollups of tracking.ad_spend built at once, for benchmarks that insert spend in bulk
// with the running totals' trigger off (it is built for one change at a time): the month sums
// (ad_spend_monthly) and the running totals from each month's first day (ad_spend_running), as
// migration 0009 builds them for rows already there.

/** Replaces the spend rollups with what tracking.ad_spend holds (a running service's compactor waits). */
export async function rebuildSpendTotals(pool) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext('tracking:spend-running-totals'))");
    await client.query(
      "TRUNCATE tracking.ad_spend_monthly, tracking.ad_spend_running, tracking.ad_spend_running_pending",
    );
    await client.query(
      `INSERT INTO tracking.ad_spend_monthly (platform, month, campaign, spend_cents)
       SELECT platform, date_trunc('month', day)::date, campaign, sum(spend_cents) FROM tracking.ad_spend
        GROUP BY 1, 2, 3`,
    );
    await client.query(
      `INSERT INTO tracking.ad_spend_running (day, platform, campaign, spend_cents)
       SELECT g.day, f.platform, f.campaign, sum(coalesce(s.spend_cents, 0)) OVER w
         FROM (SELECT platform, campaign, date_trunc('month', day)::date AS month, min(day) AS first
                 FROM tracking.ad_spend GROUP BY 1, 2, 3) f
         CROSS JOIN LATERAL (SELECT g::date AS day FROM generate_series(f.first, f.month + interval '1 month - 1 day', interval '1 day') g) g
         LEFT JOIN tracking.ad_spend s ON s.day = g.day AND s.platform = f.platform AND s.campaign = f.campaign
       WINDOW w AS (PARTITION BY f.platform, f.campaign, f.month ORDER BY g.day)`,
    );
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK");
    throw err;
  } finally {
    client.release();
  }
  await pool.query("VACUUM ANALYZE tracking.ad_spend, tracking.ad_spend_monthly, tracking.ad_spend_running");
}
