import type pg from "pg";
import type { JobSource } from "@lease/contracts";
import { aggregate, type ResponseRow } from "../domain/response-aggregate";
import { packWeek, type PackedWeek, type ReportLead } from "../domain/response-pack";

export { GROUPING, type ResponseRow } from "../domain/response-aggregate";

// The response report's reads: the packed weeks of a period (leads.response_report_weeks, one row
// per Amsterdam week and kind), aggregated in the service. A week a change marked stale (its rows in
// leads.response_report_stale, added by a trigger in the change's transaction) is packed again from
// its leads, in the same snapshot, and stored with the stale rows seen removed: the figures always
// equal the leads' rows. The minutes are those stored on each lead when its first response was
// recorded, and the deadline the one set at its arrival, so no setting is read here.

/** A report that takes longer is stopped (the route answers a Dutch 503). */
export const RESPONSE_REPORT_TIMEOUT_MS = 5_000;
/** Weeks packed per statement (~1,000 leads each at 100,000 leads in two years). */
const WEEKS_PER_READ = 8;

const WEEK_RANGE = `week >= (date_trunc('week', $1::date))::date AND week <= $2::date`;

/** The report's reads of the cache tables (`where`: a WHERE clause or nothing), named for the benchmark's plans. */
export const REPORT_READS_SQL = {
  /** The weeks between the Mondays of $1 and $2 (a WHERE clause). */
  period: `WHERE ${WEEK_RANGE}`,
  stale: (where: string) =>
    `SELECT id, kind, to_char(week, 'YYYY-MM-DD') AS week FROM leads.response_report_stale ${where}`,
  built: (where: string) =>
    `SELECT kind, to_char(week, 'YYYY-MM-DD') AS week, built_at::text FROM leads.response_report_weeks ${where}`,
  /** The packed weeks named by kind ($1) and Monday ($2). */
  records: `SELECT w.kind, to_char(w.week, 'YYYY-MM-DD') AS week, w.owners, w.campaigns,
                    w.records, w.built_at::text
               FROM leads.response_report_weeks w JOIN unnest($1::text[], $2::date[]) AS m(kind, week)
                 ON w.kind = m.kind AND w.week = m.week`,
  owners: "SELECT admin_id, username FROM leads.staff WHERE admin_id = ANY($1::uuid[])",
};

/** The leads of some weeks, one row each, as the report reads them: one statement per kind. */
export const LEADS_OF_WEEKS_SQL: Record<JobSource, string> = {
  // The covering index by arrival (lease_requests_response_report_idx) holds every column read.
  lease_request: `
    SELECT to_char(l.received_week, 'YYYY-MM-DD') AS week,
           (l.created_at AT TIME ZONE 'Europe/Amsterdam')::date - l.received_week AS day,
           l.owner_id, l.report_channel AS channel, NULLIF(l.report_campaign, '') AS campaign,
           l.first_response_at IS NOT NULL AS answered,
           COALESCE(l.first_response_at <= l.response_due_at, false) AS within,
           COALESCE(l.first_response_at > l.response_due_at, false) AS late_answer,
           l.response_due_at AS due_at, l.response_working_minutes AS working, l.response_clock_minutes AS clock
      FROM unnest($1::date[]) AS w(week)
      JOIN leads.lease_requests l
        ON l.created_at >= w.week::timestamp AT TIME ZONE 'Europe/Amsterdam'
       AND l.created_at < (w.week + 7)::timestamp AT TIME ZONE 'Europe/Amsterdam'`,
  contact_form: `
    SELECT to_char(w.week, 'YYYY-MM-DD') AS week,
           (m.created_at AT TIME ZONE 'Europe/Amsterdam')::date - w.week AS day,
           m.owner_id, m.attribution->>'channel' AS channel, NULLIF(m.attribution->>'campaign', '') AS campaign,
           m.first_response_at IS NOT NULL AS answered,
           COALESCE(m.first_response_at <= m.response_due_at, false) AS within,
           COALESCE(m.first_response_at > m.response_due_at, false) AS late_answer,
           m.response_due_at AS due_at, m.response_working_minutes AS working,
           (round(extract(epoch FROM m.first_response_at - m.created_at) / 60))::integer AS clock
      FROM unnest($1::date[]) AS w(week)
      JOIN leads.contact_messages m
        ON m.created_at >= w.week::timestamp AT TIME ZONE 'Europe/Amsterdam'
       AND m.created_at < (w.week + 7)::timestamp AT TIME ZONE 'Europe/Amsterdam'`,
};

interface LeadSqlRow {
  week: string;
  day: number;
  owner_id: string | null;
  channel: string | null;
  campaign: string | null;
  answered: boolean;
  within: boolean;
  late_answer: boolean;
  due_at: Date | null;
  working: number | null;
  clock: number | null;
}

const toLead = (r: LeadSqlRow): ReportLead => ({
  day: r.day,
  ownerId: r.owner_id,
  channel: r.channel,
  campaign: r.campaign,
  answered: r.answered,
  within: r.within,
  lateAnswer: r.late_answer,
  dueAt: r.due_at,
  workingMinutes: r.working,
  clockMinutes: r.clock,
});

type Stale = { id: string; kind: JobSource; week: string };

/** Packs the given weeks of one kind from their leads (every week named, an empty one too). */
async function packFromLeads(client: pg.PoolClient, kind: JobSource, weeks: string[]): Promise<PackedWeek[]> {
  const packed: PackedWeek[] = [];
  for (let i = 0; i < weeks.length; i += WEEKS_PER_READ) {
    const chunk = weeks.slice(i, i + WEEKS_PER_READ);
    const { rows } = await client.query<LeadSqlRow>(LEADS_OF_WEEKS_SQL[kind], [chunk]);
    const byWeek = new Map(chunk.map((w) => [w, [] as ReportLead[]]));
    for (const r of rows) byWeek.get(r.week)!.push(toLead(r));
    for (const [week, leads] of byWeek) packed.push(packWeek(kind, week, leads));
  }
  return packed;
}

/**
 * The packed weeks this process read before, by kind and week, with the moment each was built: a
 * read asks only for the moments, and for the records of the weeks built since (or never read).
 */
export type WeekCache = Map<string, { builtAt: string; week: PackedWeek }>;
/** Weeks kept at most (two kinds over the two years a report reads, and then some). */
const CACHE_MAX = 600;

async function keptWeeks(
  client: pg.PoolClient,
  cache: WeekCache,
  where: string,
  params: unknown[],
): Promise<PackedWeek[]> {
  const { rows: built } = await client.query<{ kind: JobSource; week: string; built_at: string }>(
    REPORT_READS_SQL.built(where),
    params,
  );
  const key = (w: { kind: string; week: string }) => `${w.kind}:${w.week}`;
  const missing = built.filter((b) => cache.get(key(b))?.builtAt !== b.built_at);
  if (missing.length > 0) {
    const { rows } = await client.query<PackedWeek & { built_at: string }>(REPORT_READS_SQL.records, [
      missing.map((m) => m.kind),
      missing.map((m) => m.week),
    ]);
    if (cache.size + rows.length > CACHE_MAX) cache.clear();
    for (const { built_at, ...week } of rows) cache.set(key(week), { builtAt: built_at, week });
  }
  return built.flatMap((b) => {
    const hit = cache.get(key(b));
    return hit && hit.builtAt === b.built_at ? [hit.week] : [];
  });
}

/**
 * Within `client`'s REPEATABLE READ transaction: the packed weeks between the Mondays `from`'s week
 * and `to` (all weeks: null), the stale ones packed again, stored, and their stale rows removed.
 * A concurrent rebuild of the same week fails the store (serialization), never the figures read.
 */
async function weeksOf(
  client: pg.PoolClient,
  range: { from: string; to: string } | null,
  cache: WeekCache | null,
) {
  const where = range ? REPORT_READS_SQL.period : "";
  const params = range ? [range.from, range.to] : [];
  const { rows: stale } = await client.query<Stale>(REPORT_READS_SQL.stale(where), params);
  const kept = cache ? await keptWeeks(client, cache, where, params) : [];
  const staleKeys = new Set(stale.map((s) => `${s.kind}:${s.week}`));
  const weeks = kept.filter((w) => !staleKeys.has(`${w.kind}:${w.week}`));
  const rebuilt: PackedWeek[] = [];
  for (const kind of ["lease_request", "contact_form"] as const) {
    const stalled = [...new Set(stale.filter((s) => s.kind === kind).map((s) => s.week))].sort();
    if (stalled.length > 0) rebuilt.push(...(await packFromLeads(client, kind, stalled)));
  }
  const store = async () => {
    if (stale.length === 0) return;
    const full = rebuilt.filter((w) => w.records.length > 0);
    const empty = rebuilt.filter((w) => w.records.length === 0);
    await client.query(
      `INSERT INTO leads.response_report_weeks (kind, week, owners, campaigns, records, built_at)
       SELECT k, w, ARRAY(SELECT u::uuid FROM jsonb_array_elements_text(o) u),
              ARRAY(SELECT jsonb_array_elements_text(c)), r, now()
         FROM unnest($1::text[], $2::date[], $3::jsonb[], $4::jsonb[], $5::bytea[]) AS t(k, w, o, c, r)
       ON CONFLICT (kind, week) DO UPDATE
         SET owners = excluded.owners, campaigns = excluded.campaigns, records = excluded.records,
             built_at = excluded.built_at`,
      [
        full.map((w) => w.kind),
        full.map((w) => w.week),
        full.map((w) => JSON.stringify(w.owners)),
        full.map((w) => JSON.stringify(w.campaigns)),
        full.map((w) => w.records),
      ],
    );
    if (empty.length > 0)
      await client.query(
        `DELETE FROM leads.response_report_weeks w USING unnest($1::text[], $2::date[]) AS e(k, d)
          WHERE w.kind = e.k AND w.week = e.d`,
        [empty.map((w) => w.kind), empty.map((w) => w.week)],
      );
    await client.query(`DELETE FROM leads.response_report_stale WHERE id = ANY($1::bigint[])`, [
      stale.map((s) => s.id),
    ]);
  };
  return {
    weeks: [...weeks, ...rebuilt.filter((w) => w.records.length > 0)],
    stale: stale.length > 0,
    store,
  };
}

/** 40001 serialization failure, 40P01 deadlock: another rebuild of the same week got there first. */
const lostRace = (err: unknown) => ["40001", "40P01"].includes((err as { code?: string }).code ?? "");

export function responseReportRepository(pool: pg.Pool) {
  const cache: WeekCache = new Map();
  /** Runs `work` in a REPEATABLE READ transaction with the report's timeout. */
  async function snapshot<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query(
        `BEGIN ISOLATION LEVEL REPEATABLE READ; SET LOCAL statement_timeout = ${RESPONSE_REPORT_TIMEOUT_MS}; SET LOCAL jit = off`,
      );
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  return {
    /** The period's figures per grouping (`from`, `to`: Amsterdam days, inclusive; `now`: what is late). */
    async rows(period: { from: string; to: string }, now: Date): Promise<ResponseRow[]> {
      return snapshot(async (client) => {
        const { weeks, stale, store } = await weeksOf(client, period, cache);
        const rows = aggregate(weeks, period, now);
        const owners = rows.flatMap((r) => (r.ownerId ? [r.ownerId] : []));
        if (owners.length > 0) {
          const { rows: staff } = await client.query<{ admin_id: string; username: string }>(
            REPORT_READS_SQL.owners,
            [owners],
          );
          const names = new Map(staff.map((s) => [s.admin_id, s.username]));
          for (const r of rows) if (r.ownerId) r.ownerName = names.get(r.ownerId) ?? null;
        }
        // The figures are the snapshot's either way; keeping the weeks packed is a saving only.
        if (!stale) return rows;
        await client.query("SAVEPOINT store");
        try {
          await store();
        } catch (err) {
          await client.query("ROLLBACK TO SAVEPOINT store");
          if (!lostRace(err)) throw err;
        }
        return rows;
      });
    },

    /** Packs every stale week (after a migration or a bulk change); answers how many weeks. */
    async rebuild(): Promise<number> {
      try {
        return await snapshot(async (client) => {
          const { weeks, store } = await weeksOf(client, null, null);
          await store();
          return weeks.length;
        });
      } catch (err) {
        if (lostRace(err)) return 0;
        throw err;
      }
    },
  };
}
export type ResponseReportRepository = ReturnType<typeof responseReportRepository>;
