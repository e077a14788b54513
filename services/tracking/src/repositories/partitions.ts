import { withTransaction, type Pool } from "@lease/platform";

const NAME = /^(page_views|visitors)_m(\d{4})_(\d{2})$/;

/** "2026-11-01" -> "page_views_m2026_11". */
export function partitionName(table: "page_views" | "visitors" | "page_view_days", month: string): string {
  return `${table}_m${month.slice(0, 4)}_${month.slice(5, 7)}`;
}

/**
 * Creates and drops the monthly partitions of page_views and visitors, through the functions
 * tracking.ensure_month and tracking.drop_month (they run with the tables' owner's rights, so the
 * service's own role needs no DDL rights). Partitions are made ahead
 * (the current month and the next ones, daily) and on demand for a month a batch needs (imported
 * history); there is no default partition, so a missing month fails loudly instead of filling an
 * unbounded catch-all that would have to be scanned to attach a month later.
 */
export class Partitions {
  private readonly known = new Set<string>();

  constructor(private readonly pool: Pool) {}

  /** Makes sure both tables have a partition for each month ("YYYY-MM-01"). */
  async ensure(months: Iterable<string>): Promise<void> {
    const missing = [...new Set(months)].filter((m) => !this.known.has(m)).sort();
    if (missing.length === 0) return;
    const existing = new Set(await this.months());
    const create = missing.filter((m) => !existing.has(m));
    // All in one transaction: creating a partition waits for every writer of the parent table
    // (an import's batch in flight), so months made one by one would each wait for one.
    if (create.length > 0)
      await this.inTransaction("SELECT tracking.ensure_month(m) FROM unnest($1::date[]) AS m", create);
    for (const month of missing) this.known.add(month);
  }

  /** Runs one partition function (owner's rights, migration 0002), waiting at most 5 s for writers. */
  private async inTransaction(sql: string, months: string | string[]): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      // Attaching or dropping a partition briefly locks the parent table.
      await client.query("SET LOCAL lock_timeout = '5s'");
      await client.query(sql, [months]);
    });
  }

  /** Months that have a page_views partition, oldest first. */
  async months(): Promise<string[]> {
    const r = await this.pool.query<{ name: string }>(
      `SELECT c.relname AS name
       FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
       JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = p.relnamespace
       WHERE n.nspname = 'tracking' AND p.relname = 'page_views'`,
    );
    return r.rows
      .map((row) => NAME.exec(row.name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[2]}-${m[3]}-01`)
      .sort();
  }

  /** Drops a whole month of raw rows: constant time, however many rows it holds. */
  async drop(month: string): Promise<void> {
    await this.inTransaction("SELECT tracking.drop_month($1)", month);
    this.known.delete(month);
  }
}

/** What packing closed months did: the months whose page views moved to page_view_days. */
export interface Compaction {
  months: string[];
  /** Page views moved. */
  views: number;
  ms: number;
}

/**
 * Packs the page views of the given months that are over into page_view_days (one row per session
 * and day, migration 0017): a page_views row costs about 89 bytes with its key, a packed view 12
 * plus its share of one row header and key entry for the session's day. The current month and
 * later ones are skipped, and so are months with no page view left in page_views (a month packed
 * before gets rows there again only from a late view or an import into it, packed by the next
 * pass). Done by tracking.pack_month (the owner's rights: it empties the partition), one month at a
 * time; that month's page view writers wait meanwhile (seconds at 100 M page views), its reads go
 * on.
 */
export async function compactMonths(
  pool: Pool,
  months: Iterable<string>,
  thisMonth: string,
  /** Wait for a compaction running elsewhere instead of skipping (the history benchmark). */
  opts: { wait?: boolean } = {},
): Promise<Compaction> {
  const started = Date.now();
  const wanted = [...new Set(months)].filter((m) => m < thisMonth).sort();
  const compaction: Compaction = { months: [], views: 0, ms: 0 };
  if (wanted.length === 0) return compaction;
  const client = await pool.connect();
  try {
    // One compaction at a time (replicas, an import beside the service): the others skip.
    const lock = await client.query<{ ok: boolean }>(
      opts.wait
        ? "SELECT pg_advisory_lock(hashtext('tracking:compaction')) IS NOT NULL AS ok"
        : "SELECT pg_try_advisory_lock(hashtext('tracking:compaction')) AS ok",
    );
    if (!lock.rows[0]!.ok) return compaction;
    try {
      for (const month of wanted) {
        // A catalog read and one page: months already packed cost nothing more.
        const left = await client.query<{ any: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM tracking.${partitionName("page_views", month)}) AS any`,
        );
        if (!left.rows[0]!.any) continue;
        // Seconds for a month of 100 M page views: beyond the pool's statement timeout.
        await client.query("BEGIN");
        let n: number;
        try {
          await client.query("SET LOCAL statement_timeout = '15min'");
          const r = await client.query<{ n: string }>("SELECT tracking.pack_month($1) AS n", [month]);
          await client.query("COMMIT");
          n = Number(r.rows[0]!.n);
        } catch (err) {
          await client.query("ROLLBACK");
          throw err;
        }
        if (n === 0) continue;
        compaction.months.push(month);
        compaction.views += n;
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('tracking:compaction'))");
    }
  } finally {
    client.release();
  }
  compaction.ms = Date.now() - started;
  return compaction;
}
