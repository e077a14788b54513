import { withTransaction, type Pool } from "@lease/platform";

const NAME = /^(page_views|visitors)_m(\d{4})_(\d{2})$/;

/** "2026-11-01" -> "page_views_m2026_11". */
export function partitionName(table: "page_views" | "visitors", month: string): string {
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

/** What compacting closed months did: the months whose page view key was rebuilt, and how. */
export interface Compaction {
  months: string[];
  /** "concurrently": REINDEX CONCURRENTLY as the tables' owner; "locking": tracking.compact_month. */
  how: "concurrently" | "locking" | "none";
  ms: number;
}

/**
 * Rebuilds the page views' primary key of the given months packed (fillfactor 100): rows arrive in
 * time order but the key starts with a random session hash, so inserts land all over the index
 * and its pages split half full, about 70 % filled. A month that is over gets nothing more (a
 * later import into it just splits pages again, and is compacted after). The current month and
 * later ones are skipped, and so are months already packed unless `force`.
 *
 * As the tables' owner (a local run, the import with the owner's DATABASE_URL) this is REINDEX
 * CONCURRENTLY, one month at a time: reads and writes of the month go on meanwhile. The service's
 * own role (production) may not reindex, and REINDEX CONCURRENTLY cannot run in a SECURITY DEFINER
 * function (it commits transactions of its own), so it calls tracking.compact_month, a plain
 * REINDEX that holds off that month's page views (a lead's attribution reading it waits) for the
 * seconds it takes (migration 0016).
 */
export async function compactMonths(
  pool: Pool,
  months: Iterable<string>,
  thisMonth: string,
  opts: { force?: boolean } = {},
): Promise<Compaction> {
  const started = Date.now();
  const wanted = [...new Set(months)].filter((m) => m < thisMonth).sort();
  const compaction: Compaction = { months: [], how: "none", ms: 0 };
  if (wanted.length === 0) return compaction;
  const client = await pool.connect();
  try {
    // One compaction at a time (replicas, an import beside the service): the others skip.
    const lock = await client.query<{ ok: boolean }>(
      "SELECT pg_try_advisory_lock(hashtext('tracking:compaction')) AS ok",
    );
    if (!lock.rows[0]!.ok) return compaction;
    try {
      const indexes = await client.query<{ part: string; name: string; packed: boolean; own: boolean }>(
        `SELECT t.relname AS part, format('tracking.%I', ic.relname) AS name,
                coalesce('fillfactor=100' = ANY(ic.reloptions), false) AS packed,
                pg_has_role(ic.relowner, 'USAGE') AS own
         FROM pg_index ix
         JOIN pg_class ic ON ic.oid = ix.indexrelid
         JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE n.nspname = 'tracking' AND ix.indisprimary AND t.relname = ANY($1::text[])`,
        [wanted.map((m) => partitionName("page_views", m))],
      );
      const byPart = new Map(indexes.rows.map((r) => [r.part, r]));
      for (const month of wanted) {
        const index = byPart.get(partitionName("page_views", month));
        if (!index || (index.packed && !opts.force)) continue;
        if (index.own) {
          // A REINDEX CONCURRENTLY that failed (cancelled, the service stopped) leaves its new
          // index behind, invalid but still written to: it goes first.
          const leftovers = await client.query<{ name: string }>(
            `SELECT format('tracking.%I', ic.relname) AS name FROM pg_index ix
             JOIN pg_class ic ON ic.oid = ix.indexrelid
             WHERE ix.indrelid = $1::regclass AND NOT ix.indisvalid`,
            [`tracking.${index.part}`],
          );
          for (const l of leftovers.rows) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${l.name}`);
          await client.query(`ALTER INDEX ${index.name} SET (fillfactor = 100)`);
          await client.query(`REINDEX INDEX CONCURRENTLY ${index.name}`);
          compaction.how = "concurrently";
        } else {
          await client.query("SELECT tracking.compact_month($1)", [month]);
          compaction.how = "locking";
        }
        compaction.months.push(month);
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
