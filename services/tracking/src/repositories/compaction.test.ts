import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { runMigrations } from "@lease/platform";
import { createTestDatabase, type TestDatabase } from "@lease/platform/testing";
import { importVisits } from "../cli/import-visits";
import { ManualClock, pageView } from "../testing";
import { compactClosedMonths } from "../domain/retention";
import { insertBatch, writerDeps } from "./page-views";
import { Partitions, type Compaction } from "./partitions";

// The page views' key of months that are over, rebuilt packed: after an import into them, and by
// the service's daily pass for a month that closed (repositories/partitions.ts compactMonths).
const NOW = Date.parse("2027-04-20T10:00:00Z");
const FOLDER = fileURLToPath(new URL("../../migrations", import.meta.url));

let db: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase("trkcompact");
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  await runMigrations(pool, "tracking", FOLDER);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** `count` page views of `sessions` sessions between two instants, in time order, as import lines. */
function lines(prefix: string, count: number, from: number, to: number, seed: number): string[] {
  const next = random(seed);
  const at = Array.from({ length: count }, () => from + Math.floor(next() * (to - from))).sort(
    (a, b) => a - b,
  );
  return at.map((t, i) =>
    JSON.stringify({
      id: `${prefix}-${i}`,
      at: new Date(t).toISOString(),
      session: `${prefix}-s${Math.floor(next() * (count / 3))}`,
      page: "/financiele-lease",
    }),
  );
}

interface KeyIndex {
  bytes: number;
  options: string[] | null;
}

async function keyIndex(month: string): Promise<KeyIndex> {
  const r = await pool.query<KeyIndex>(
    `SELECT pg_relation_size(ix.indexrelid)::int AS bytes, c.reloptions AS options
     FROM pg_index ix JOIN pg_class c ON c.oid = ix.indexrelid
     WHERE ix.indrelid = $1::regclass AND ix.indisprimary`,
    [`tracking.page_views_m${month.slice(0, 4)}_${month.slice(5, 7)}`],
  );
  return r.rows[0]!;
}

const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]!.n);

describe("compacting closed months", () => {
  // Four imports of page views in March (over) and April (this month): the random session keys
  // split the keys' pages each time; March's is rebuilt packed after each import, April's not.
  const march = Date.parse("2027-03-03T00:00:00Z");
  const april = Date.parse("2027-04-01T00:00:00Z");
  const files = [0, 1, 2, 3].map((i) => [
    ...lines(`m${i}`, 4000, march + i * 6 * 86_400_000, march + (i + 1) * 6 * 86_400_000, 11 + i),
    ...lines(`a${i}`, 4000, april + i * 4 * 86_400_000, april + (i + 1) * 4 * 86_400_000, 31 + i),
  ]);
  const run = async (file: string[]) => {
    const compactions: Compaction[] = [];
    const summary = await importVisits(pool, Readable.from([file.join("\n")]), {
      retentionMonths: 26,
      now: NOW,
      compacted: (c) => compactions.push(c),
    });
    return { summary, compactions };
  };

  it("rebuilds the key of a month that is over after an import into it, and takes live writes and re-imports after", async () => {
    let last: Compaction[] = [];
    for (const file of files) {
      const { summary, compactions } = await run(file);
      expect(summary.written).toBe(8000);
      last = compactions;
    }
    expect(last).toEqual([{ months: ["2027-03-01"], how: "concurrently", ms: expect.any(Number) }]);
    const [m, a] = [await keyIndex("2027-03-01"), await keyIndex("2027-04-01")];
    expect(m.options).toEqual(["fillfactor=100"]);
    expect(a.options).toBeNull();
    // The same number of rows, the same kind of keys: the packed one is clearly smaller.
    expect(await count("SELECT count(*) AS n FROM tracking.page_views_m2027_03")).toBe(16_000);
    expect(await count("SELECT count(*) AS n FROM tracking.page_views_m2027_04")).toBe(16_000);
    expect(m.bytes).toBeLessThan(a.bytes * 0.85);
    // The rebuilt key is the partition's primary key still: one index of it, valid, attached.
    const indexes = await pool.query(
      `SELECT ix.indisvalid AS valid, ix.indisprimary AS pk, i.inhparent IS NOT NULL AS attached
       FROM pg_index ix LEFT JOIN pg_inherits i ON i.inhrelid = ix.indexrelid
       WHERE ix.indrelid = 'tracking.page_views_m2027_03'::regclass ORDER BY ix.indisprimary DESC`,
    );
    expect(indexes.rows).toEqual([
      { valid: true, pk: true, attached: true },
      { valid: true, pk: false, attached: true }, // the BRIN index on occurred_at
    ]);

    // A late page view of March still goes in, and a redelivery of it does not.
    const deps = writerDeps(pool);
    const late = pageView("late-1", "late-session", "/", "2027-03-31T20:00:00Z");
    expect((await insertBatch(deps, [late])).written).toBe(1);
    expect((await insertBatch(deps, [late])).written).toBe(0);
    // Importing the same files again stores nothing and rebuilds nothing.
    for (const file of files) {
      const { summary, compactions } = await run(file);
      expect(summary).toMatchObject({ written: 0, duplicates: 8000 });
      expect(compactions).toEqual([]);
    }
    expect(await count("SELECT count(*) AS n FROM tracking.page_views")).toBe(32_001);
  });

  it("compacts a closed month once in the daily pass, and leaves packed months alone", async () => {
    const deps = writerDeps(pool);
    await deps.partitions.ensure(["2027-02-01"]);
    const february = Array.from({ length: 50 }, (_, i) =>
      pageView(
        `f${i}`,
        `feb-${i % 7}`,
        "/",
        new Date(Date.parse("2027-02-10T10:00:00Z") + i * 60_000).toISOString(),
      ),
    );
    expect((await insertBatch(deps, february)).written).toBe(50);
    const partitions = new Partitions(pool);
    const clock = new ManualClock(NOW);
    const first = await compactClosedMonths(pool, partitions, clock);
    expect(first).toMatchObject({ months: ["2027-02-01"], how: "concurrently" });
    expect((await keyIndex("2027-02-01")).options).toEqual(["fillfactor=100"]);
    expect(await compactClosedMonths(pool, partitions, clock)).toMatchObject({ months: [], how: "none" });
    // The month still running is never compacted; once it is over, it is.
    expect((await keyIndex("2027-04-01")).options).toBeNull();
    clock.ms = Date.parse("2027-05-01T03:00:00Z");
    expect(await compactClosedMonths(pool, partitions, clock)).toMatchObject({ months: ["2027-04-01"] });
  });

  it("compacts through tracking.compact_month for a role that does not own the tables", async () => {
    const role = `trk_compact_${randomBytes(4).toString("hex")}`;
    await pool.query(`CREATE ROLE ${role} LOGIN`);
    await pool.query(`GRANT USAGE ON SCHEMA tracking TO ${role}`);
    await pool.query(`GRANT EXECUTE ON FUNCTION tracking.compact_month(date) TO ${role}`);
    const url = new URL(db.url);
    url.username = role;
    url.password = "";
    const service = new pg.Pool({ connectionString: url.toString(), max: 2 });
    try {
      await writerDeps(pool).partitions.ensure(["2027-01-01"]);
      await pool.query(
        `INSERT INTO tracking.page_views (occurred_at, session_key, event_key, page_id)
         SELECT '2027-01-10T10:00:00Z'::timestamptz + g * interval '1 minute', tracking.key64('j' || g), g, 1
         FROM generate_series(1, 100) AS g`,
      );
      await expect(service.query("REINDEX INDEX tracking.page_views_m2027_01_pkey")).rejects.toThrow(
        /must be owner/,
      );
      const done = await compactClosedMonths(service, new Partitions(service), new ManualClock(NOW));
      expect(done).toMatchObject({ months: ["2027-01-01"], how: "locking" });
      expect((await keyIndex("2027-01-01")).options).toEqual(["fillfactor=100"]);
      expect(await count("SELECT count(*) AS n FROM tracking.page_views_m2027_01")).toBe(100);
    } finally {
      await service.end();
      await pool.query(`DROP OWNED BY ${role}`);
      await pool.query(`DROP ROLE ${role}`);
    }
  });
});
