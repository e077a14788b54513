import type { Pool } from "@lease/platform";

/** How many page paths are remembered in memory (each is a few dozen bytes). */
const CACHE_MAX = 10_000;

/**
 * Page paths and their numbers (tracking.pages). Raw rows and rollups store the 4-byte id; the
 * ids of paths already seen come from memory, new paths are numbered in one statement.
 */
export class PageDirectory {
  private readonly cache = new Map<string, number>();

  constructor(private readonly pool: Pool) {}

  async ids(paths: Iterable<string>): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const missing: string[] = [];
    for (const path of new Set(paths)) {
      const id = this.cache.get(path);
      if (id === undefined) missing.push(path);
      else out.set(path, id);
    }
    if (missing.length === 0) return out;
    const r = await this.pool.query<{ id: number; path: string }>(
      `WITH new AS (
         INSERT INTO tracking.pages (path) SELECT unnest($1::text[]) ORDER BY 1
         ON CONFLICT (path) DO NOTHING RETURNING id, path
       )
       SELECT id, path FROM new
       UNION ALL SELECT id, path FROM tracking.pages WHERE path = ANY($1::text[])`,
      [missing],
    );
    let rows = r.rows;
    if (rows.length < missing.length) {
      // Numbered meanwhile by another writer, after this statement's snapshot: read them again.
      const again = await this.pool.query<{ id: number; path: string }>(
        "SELECT id, path FROM tracking.pages WHERE path = ANY($1::text[])",
        [missing],
      );
      rows = again.rows;
    }
    if (this.cache.size + rows.length > CACHE_MAX) this.cache.clear();
    for (const row of rows) {
      this.cache.set(row.path, row.id);
      out.set(row.path, row.id);
    }
    return out;
  }

  /** Paths of the given ids. */
  async paths(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const r = await this.pool.query<{ id: number; path: string }>(
      "SELECT id, path FROM tracking.pages WHERE id = ANY($1::int[])",
      [ids],
    );
    return new Map(r.rows.map((row) => [row.id, row.path]));
  }
}
