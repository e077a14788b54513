import type { Pool } from "@lease/platform";
import type { VisitorSeriesBucket, VisitorSeriesRange } from "@lease/contracts";

/** One event from the stream, as the writer hands it over. */
export interface TrackEvent {
  eventId: string;
  sessionId: string;
  /** false for a heartbeat: it refreshes the visitor but is no page view. */
  isView: boolean;
  page: string;
  referrer: string | null;
  userAgent: string | null;
  ipPrefix: string | null;
  country: string | null;
  city: string | null;
  at: Date;
}

/** Counts statements so tests and /metrics can prove batches, not one INSERT per request. */
export interface StatementCounter {
  inc(labels: { table: string }): void;
}

/**
 * Writes a batch in one transaction: one multi-row INSERT into page_views (unnest, so the
 * statement size does not grow with the batch) and one multi-row upsert into visitors.
 * Redelivered events are ignored through the unique event_id.
 */
export async function insertBatch(
  pool: Pool,
  events: TrackEvent[],
  counter: StatementCounter,
): Promise<void> {
  const views = events.filter((e) => e.isView);
  const perSession = new Map<string, TrackEvent & { firstSeen: Date }>();
  for (const e of events) {
    const seen = perSession.get(e.sessionId);
    if (!seen) perSession.set(e.sessionId, { ...e, firstSeen: e.at });
    else if (e.at >= seen.at)
      perSession.set(e.sessionId, {
        ...e,
        page: e.isView ? e.page : seen.page,
        referrer: seen.referrer ?? e.referrer,
        firstSeen: seen.firstSeen,
      });
  }
  const sessions = [...perSession.values()];
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    if (views.length > 0) {
      counter.inc({ table: "page_views" });
      await client.query(
        `INSERT INTO tracking.page_views (event_id, session_id, page, referrer, occurred_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
         ON CONFLICT (event_id) DO NOTHING`,
        [
          views.map((e) => e.eventId),
          views.map((e) => e.sessionId),
          views.map((e) => e.page),
          views.map((e) => e.referrer),
          views.map((e) => e.at.toISOString()),
        ],
      );
    }
    counter.inc({ table: "visitors" });
    await client.query(
      `INSERT INTO tracking.visitors
         (session_id, ip_prefix, user_agent, page, referrer, country, city, first_seen, last_seen)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                            $7::text[], $8::timestamptz[], $9::timestamptz[])
       ON CONFLICT (session_id) DO UPDATE SET
         ip_prefix = EXCLUDED.ip_prefix,
         user_agent = EXCLUDED.user_agent,
         page = CASE WHEN EXCLUDED.page = '' THEN visitors.page ELSE EXCLUDED.page END,
         country = EXCLUDED.country,
         city = EXCLUDED.city,
         first_seen = LEAST(visitors.first_seen, EXCLUDED.first_seen),
         last_seen = GREATEST(visitors.last_seen, EXCLUDED.last_seen)`,
      [
        sessions.map((s) => s.sessionId),
        sessions.map((s) => s.ipPrefix),
        sessions.map((s) => s.userAgent),
        sessions.map((s) => s.page),
        sessions.map((s) => s.referrer),
        sessions.map((s) => s.country),
        sessions.map((s) => s.city),
        sessions.map((s) => s.firstSeen.toISOString()),
        sessions.map((s) => s.at.toISOString()),
      ],
    );
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Deletes rows older than the cutoff in chunks, so no long lock blocks the writer. */
export async function deleteOlderThan(pool: Pool, cutoff: Date, chunk = 10_000): Promise<number> {
  let total = 0;
  for (const [table, key, column] of [
    ["page_views", "event_id", "occurred_at"],
    ["visitors", "session_id", "last_seen"],
  ] as const) {
    for (;;) {
      const r = await pool.query(
        `DELETE FROM tracking.${table} WHERE ${key} IN
           (SELECT ${key} FROM tracking.${table} WHERE ${column} < $1 LIMIT $2)`,
        [cutoff.toISOString(), chunk],
      );
      total += r.rowCount ?? 0;
      if ((r.rowCount ?? 0) < chunk) break;
    }
  }
  return total;
}

const RANGES: Record<VisitorSeriesRange, { unit: "hour" | "day"; count: number }> = {
  "24h": { unit: "hour", count: 24 },
  "7d": { unit: "day", count: 7 },
  "30d": { unit: "day", count: 30 },
};

/** Distinct sessions and page views per hour (24h) or per Amsterdam day (7d, 30d), oldest first. */
export async function visitorSeries(
  pool: Pool,
  range: VisitorSeriesRange,
  now: Date,
): Promise<VisitorSeriesBucket[]> {
  const { unit, count } = RANGES[range];
  const r = await pool.query<{ start: Date; visitors: string; page_views: string }>(
    `WITH buckets AS (
       SELECT (b AT TIME ZONE 'Europe/Amsterdam') AS start,
              ((b + $3::interval) AT TIME ZONE 'Europe/Amsterdam') AS stop
       FROM generate_series(
         date_trunc($1, $2::timestamptz AT TIME ZONE 'Europe/Amsterdam') - ($4::int - 1) * $3::interval,
         date_trunc($1, $2::timestamptz AT TIME ZONE 'Europe/Amsterdam'),
         $3::interval) AS b
     )
     SELECT b.start,
            count(DISTINCT v.session_id) AS visitors,
            count(v.event_id) AS page_views
     FROM buckets b
     LEFT JOIN tracking.page_views v ON v.occurred_at >= b.start AND v.occurred_at < b.stop
     GROUP BY b.start
     ORDER BY b.start`,
    [unit, now.toISOString(), `1 ${unit}`, count],
  );
  return r.rows.map((row) => ({
    start: new Date(row.start).toISOString(),
    visitors: Number(row.visitors),
    pageViews: Number(row.page_views),
  }));
}
