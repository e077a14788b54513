import type { Pool } from "@lease/platform";

/** How many entries a dictionary remembers in memory (each a few dozen bytes). */
const CACHE_MAX = 20_000;
const SEPARATOR = "\u0000";

/**
 * A table that numbers distinct values (a page path; a visit's profile of referrer, country,
 * device ...), so raw rows and rollups store a 4-byte id instead of the text. Ids of values already
 * seen come from memory; new values are numbered in one statement for the whole batch.
 */
export class Dictionary<C extends string> {
  private readonly cache = new Map<string, number>();
  private readonly list: string;
  private readonly unnest: string;

  constructor(
    private readonly pool: Pool,
    private readonly table: string,
    private readonly columns: readonly C[],
    /** SQL type of a column other than text (its values are still given as text). */
    types: Partial<Record<C, string>> = {},
  ) {
    this.list = columns.join(", ");
    this.unnest = columns.map((c, i) => `$${i + 1}::${types[c] ?? "text"}[]`).join(", ");
  }

  /** Id of each value (by its key, see `key`), numbering the new ones. */
  async ids(values: Iterable<Record<C, string>>): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const missing = new Map<string, Record<C, string>>();
    for (const value of values) {
      const key = this.key(value);
      const id = this.cache.get(key);
      if (id !== undefined) out.set(key, id);
      else missing.set(key, value);
    }
    if (missing.size === 0) return out;
    const wanted = [...missing.values()];
    const params = this.columns.map((c) => wanted.map((v) => v[c]));
    const match = `(${this.list}) IN (SELECT * FROM unnest(${this.unnest}))`;
    const r = await this.pool.query<Record<C, string> & { id: number }>(
      `WITH new AS (
         INSERT INTO tracking.${this.table} (${this.list}) SELECT * FROM unnest(${this.unnest}) ORDER BY 1
         ON CONFLICT DO NOTHING RETURNING id, ${this.list}
       )
       SELECT id, ${this.list} FROM new
       UNION ALL SELECT id, ${this.list} FROM tracking.${this.table} WHERE ${match}`,
      params,
    );
    let rows = r.rows;
    if (rows.length < wanted.length) {
      // Numbered meanwhile by another writer, after this statement's snapshot: read them again.
      rows = (
        await this.pool.query<Record<C, string> & { id: number }>(
          `SELECT id, ${this.list} FROM tracking.${this.table} WHERE ${match}`,
          params,
        )
      ).rows;
    }
    if (this.cache.size + rows.length > CACHE_MAX) this.cache.clear();
    for (const row of rows) {
      const key = this.key(row);
      this.cache.set(key, row.id);
      out.set(key, row.id);
    }
    return out;
  }

  /** Forgets the ids in memory (retention may have pruned some: repositories/retention.ts). */
  forget(): void {
    this.cache.clear();
  }

  /** The values of the given ids. */
  async values(ids: number[]): Promise<Map<number, Record<C, string>>> {
    if (ids.length === 0) return new Map();
    const r = await this.pool.query<Record<C, string> & { id: number }>(
      `SELECT id, ${this.list} FROM tracking.${this.table} WHERE id = ANY($1::int[])`,
      [ids],
    );
    return new Map(r.rows.map((row) => [row.id, row]));
  }

  /** The map key of a value: its columns joined (a boolean column read back joins as "true"/"false"). */
  key(value: Record<C, string>): string {
    return this.columns.map((c) => String(value[c])).join(SEPARATOR);
  }
}

/** Page paths (tracking.pages). */
export class PageDirectory extends Dictionary<"path"> {
  constructor(pool: Pool) {
    super(pool, "pages", ["path"]);
  }

  /** Paths of the given ids. */
  async paths(ids: number[]): Promise<Map<number, string>> {
    return new Map([...(await this.values(ids))].map(([id, v]) => [id, v.path]));
  }
}

export const PROFILE_COLUMNS = [
  "referrer_host",
  "channel",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "paid_click",
  "country",
  "device",
  "browser",
  "os",
] as const;
/** A visit profile; paid_click is "true" or "false". */
export type Profile = Record<(typeof PROFILE_COLUMNS)[number], string>;

/** Visit profiles (tracking.profiles). */
export class ProfileDirectory extends Dictionary<(typeof PROFILE_COLUMNS)[number]> {
  constructor(pool: Pool) {
    super(pool, "profiles", PROFILE_COLUMNS, { paid_click: "boolean" });
  }
}

/** Breakdown values (tracking.dim_values); dim as text ("1" .. "7", see domain/breakdowns.ts). */
export class DimDirectory extends Dictionary<"dim" | "value"> {
  constructor(pool: Pool) {
    super(pool, "dim_values", ["dim", "value"], { dim: "smallint" });
  }
}
