import type { Pool } from "@lease/platform";
import { addMonths } from "../domain/calendar";

/** The raw tables partitioned by Amsterdam month, with the column they are partitioned on. */
const TABLES = ["page_views", "visitors"] as const;
const NAME = /^(page_views|visitors)_m(\d{4})_(\d{2})$/;

/** "2026-11-01" -> "page_views_m2026_11". */
export function partitionName(table: (typeof TABLES)[number], month: string): string {
  return `${table}_m${month.slice(0, 4)}_${month.slice(5, 7)}`;
}

/**
 * Creates and drops the monthly partitions of page_views and visitors. Partitions are made ahead
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
    for (const month of missing) {
      if (!existing.has(month)) await this.create(month);
      this.known.add(month);
    }
  }

  private async create(month: string): Promise<void> {
    const next = addMonths(month, 1);
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      // Creating a partition briefly locks the parent: wait at most a few seconds for writers.
      await client.query("SET LOCAL lock_timeout = '5s'");
      await client.query("SELECT pg_advisory_xact_lock(hashtext('tracking:partitions'))");
      await client.query(
        `CREATE TABLE IF NOT EXISTS tracking.${partitionName("page_views", month)}
           PARTITION OF tracking.page_views
           FOR VALUES FROM ('${month} 00:00:00 Europe/Amsterdam') TO ('${next} 00:00:00 Europe/Amsterdam')`,
      );
      // Visitor rows are updated all day (last seen, hours): room on the page keeps those updates HOT.
      await client.query(
        `CREATE TABLE IF NOT EXISTS tracking.${partitionName("visitors", month)}
           PARTITION OF tracking.visitors
           FOR VALUES FROM ('${month}') TO ('${next}') WITH (fillfactor = 90)`,
      );
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
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
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL lock_timeout = '5s'");
      await client.query("SELECT pg_advisory_xact_lock(hashtext('tracking:partitions'))");
      for (const table of TABLES)
        await client.query(`DROP TABLE IF EXISTS tracking.${partitionName(table, month)}`);
      await client.query("COMMIT");
      this.known.delete(month);
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}
