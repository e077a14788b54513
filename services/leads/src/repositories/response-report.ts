import type pg from "pg";

// The response report's one read: the quote requests that arrived in a period (Amsterdam days),
// aggregated per week, owner, channel and campaign and in total in a single statement over the
// covering index lease_requests_response_report_idx (migration 0014). Every figure comes from
// columns kept on the lead: the working minutes stored when its first response was recorded
// (repositories/responses.ts) and the clock minutes, week, channel and campaign PostgreSQL derives
// (stored generated columns), so no calendar is walked per lead here.

/** Which grouping a row is (GROUPING(received_week, owner_id, report_channel, campaign)). */
export const GROUPING = { week: 0b0111, owner: 0b1011, channel: 0b1101, campaign: 0b1110, total: 0b1111 };

export interface ResponseRow {
  grouping: number;
  week: string | null;
  ownerId: string | null;
  ownerName: string | null;
  channel: string | null;
  campaign: string | null;
  leads: number;
  answered: number;
  withinPromise: number;
  late: number;
  working: [number, number] | null;
  clock: [number, number] | null;
}

/** Sorts and percentiles in memory: 100,000 leads' entries take about 13 MB to sort. */
const WORK_MEM = "32MB";
/** A report that takes longer is stopped (the route answers a Dutch 503). */
export const RESPONSE_REPORT_TIMEOUT_MS = 5_000;

export const REPORT_SQL = `
  WITH lead AS (
    SELECT received_week, owner_id, report_channel, NULLIF(report_campaign, '') AS campaign,
           response_due_at, first_response_at, response_working_minutes, response_clock_minutes
      FROM leads.lease_requests
     WHERE created_at >= ($1::date)::timestamp AT TIME ZONE 'Europe/Amsterdam'
       AND created_at < ($2::date + 1)::timestamp AT TIME ZONE 'Europe/Amsterdam'
  ), figures AS (
    SELECT GROUPING(received_week, owner_id, report_channel, campaign) AS grouping,
           received_week, owner_id, report_channel, campaign,
           count(*)::int AS leads,
           count(first_response_at)::int AS answered,
           count(*) FILTER (WHERE first_response_at <= response_due_at)::int AS within_promise,
           count(*) FILTER (WHERE first_response_at > response_due_at
                               OR (first_response_at IS NULL AND response_due_at < $3))::int AS late,
           percentile_disc(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY response_working_minutes) AS working,
           percentile_disc(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY response_clock_minutes) AS clock
      FROM lead
     GROUP BY GROUPING SETS ((received_week), (owner_id), (report_channel), (campaign), ())
  )
  SELECT f.grouping, to_char(f.received_week, 'YYYY-MM-DD') AS week, f.owner_id, s.username AS owner_name,
         f.report_channel AS channel, f.campaign, f.leads, f.answered, f.within_promise, f.late,
         f.working, f.clock
    FROM figures f
    LEFT JOIN leads.staff s ON f.grouping = ${GROUPING.owner} AND s.admin_id = f.owner_id`;

interface SqlRow {
  grouping: number;
  week: string | null;
  owner_id: string | null;
  owner_name: string | null;
  channel: string | null;
  campaign: string | null;
  leads: number;
  answered: number;
  within_promise: number;
  late: number;
  working: (number | null)[] | null;
  clock: (number | null)[] | null;
}

const pair = (values: (number | null)[] | null): [number, number] | null =>
  values && values[0] != null && values[1] != null ? [values[0], values[1]] : null;

export function responseReportRepository(pool: pg.Pool) {
  return {
    /** The period's figures per grouping (`from`, `to`: Amsterdam days, inclusive; `now`: what is late). */
    async rows(period: { from: string; to: string }, now: Date): Promise<ResponseRow[]> {
      const client = await pool.connect();
      try {
        await client.query(
          `BEGIN READ ONLY; SET LOCAL work_mem = '${WORK_MEM}';
           SET LOCAL statement_timeout = ${RESPONSE_REPORT_TIMEOUT_MS}; SET LOCAL jit = off`,
        );
        const { rows } = await client.query<SqlRow>(REPORT_SQL, [period.from, period.to, now]);
        await client.query("COMMIT");
        return rows.map((r) => ({
          grouping: r.grouping,
          week: r.week,
          ownerId: r.owner_id,
          ownerName: r.owner_name,
          channel: r.channel,
          campaign: r.campaign,
          leads: r.leads,
          answered: r.answered,
          withinPromise: r.within_promise,
          late: r.late,
          working: pair(r.working),
          clock: pair(r.clock),
        }));
      } catch (err) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
  };
}
export type ResponseReportRepository = ReturnType<typeof responseReportRepository>;
