import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createLogger, runMigrations } from "@lease/platform";
import { backfillLegacy } from "../repositories/backfill";
import { writerDeps } from "../repositories/page-views";
import { createTestDatabase, type TestDatabase } from "@lease/platform/testing";

const FOLDER = fileURLToPath(new URL("../../migrations", import.meta.url));

/** A copy of the migrations folder whose journal stops after the first `count` entries. */
function firstMigrations(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), "tracking-migrations-"));
  cpSync(FOLDER, dir, { recursive: true });
  const journalPath = join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8"));
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

let db: TestDatabase;
let pool: pg.Pool;
let oldFolder: string;
beforeAll(async () => {
  db = await createTestDatabase("trkmig");
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  oldFolder = firstMigrations(1);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
  if (oldFolder) rmSync(oldFolder, { recursive: true, force: true });
});

describe("tracking migrations", () => {
  it("re-keys page views and visitors without losing the rows already stored", async () => {
    await runMigrations(pool, "tracking", oldFolder);
    await pool.query(
      `INSERT INTO tracking.page_views (event_id, session_id, page, occurred_at)
       VALUES ('1700000000000-0', 's1', '/', now()), ('1700000000000-1', 's1', '/zakelijk', now())`,
    );
    await pool.query(
      `INSERT INTO tracking.visitors (session_id, page, first_seen, last_seen)
       VALUES ('s1', '/zakelijk', now(), now())`,
    );

    await runMigrations(pool, "tracking", firstMigrations(2));

    const views = await pool.query("SELECT event_id, page FROM tracking.page_views ORDER BY event_id");
    expect(views.rows).toEqual([
      { event_id: "1700000000000-0", page: "/" },
      { event_id: "1700000000000-1", page: "/zakelijk" },
    ]);
    const keys = await pool.query<{ table: string; column: string }>(
      `SELECT tc.table_name AS table, kcu.column_name AS column
       FROM information_schema.table_constraints tc
       JOIN information_schema.key_column_usage kcu USING (constraint_schema, constraint_name)
       WHERE tc.table_schema = 'tracking' AND tc.constraint_type = 'PRIMARY KEY'
       ORDER BY 1`,
    );
    expect(keys.rows).toEqual([
      { table: "page_views", column: "event_id" },
      { table: "visitors", column: "session_id" },
    ]);
    // The key still refuses a redelivered event.
    await expect(
      pool.query(
        `INSERT INTO tracking.page_views (event_id, session_id, page, occurred_at)
         VALUES ('1700000000000-0', 's1', '/', now())`,
      ),
    ).rejects.toThrow(/duplicate key/);
    expect((await pool.query("SELECT count(*)::int AS n FROM tracking.visitors")).rows[0].n).toBe(1);
  });

  it("moves the rows of before into monthly partitions and rollups, then drops the old tables", async () => {
    // The database of the test above, now at migration 0001 with two page views of one visitor.
    await pool.query(
      `INSERT INTO tracking.page_views (event_id, session_id, page, referrer, occurred_at)
       VALUES ('1700000000001-0', 's2', '/over-ons?utm_source=nieuwsbrief&utm_medium=email', 'https://www.google.nl/', '2026-11-20T09:00:00Z')`,
    );
    await pool.query(
      `INSERT INTO tracking.visitors (session_id, ip_prefix, user_agent, page, country, city, first_seen, last_seen)
       VALUES ('s2', '145.53.1.0', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1',
               '/over-ons', 'NL', 'Weert', '2026-11-20T09:00:00Z', '2026-11-20T09:00:00Z')`,
    );
    await runMigrations(pool, "tracking", FOLDER);
    expect((await pool.query("SELECT count(*)::int AS n FROM tracking.legacy_page_views")).rows[0].n).toBe(3);

    const deps = { ...writerDeps(pool), logger: createLogger("test", "silent") };
    expect(await backfillLegacy(deps, 2)).toBe(3);
    expect(await backfillLegacy(deps)).toBe(0); // nothing left, the old tables are gone
    expect((await pool.query("SELECT to_regclass('tracking.legacy_page_views') AS t")).rows[0].t).toBeNull();
    expect((await pool.query("SELECT to_regclass('tracking.legacy_visitors') AS t")).rows[0].t).toBeNull();

    const moved = await pool.query(
      `SELECT p.path, v.session_key = tracking.key64('s2') AS s2 FROM tracking.page_views v
       JOIN tracking.pages p ON p.id = v.page_id ORDER BY v.occurred_at, p.path`,
    );
    expect(moved.rows).toEqual([
      { path: "/over-ons", s2: true }, // 20 November; the two above were stored "now"
      { path: "/", s2: false },
      { path: "/zakelijk", s2: false },
    ]);
    const visitor = await pool.query(
      `SELECT pr.referrer_host, pr.channel, pr.utm_source, pr.country, pr.device, pr.browser, pr.os,
              p.path AS landing
       FROM tracking.visitors v JOIN tracking.profiles pr ON pr.id = v.profile_id
       JOIN tracking.pages p ON p.id = v.landing_page_id
       WHERE v.session_key = tracking.key64('s2')`,
    );
    expect(visitor.rows).toEqual([
      {
        referrer_host: "google.nl",
        channel: "Email",
        utm_source: "nieuwsbrief",
        country: "NL",
        device: "mobile",
        browser: "Safari",
        os: "iOS",
        landing: "/over-ons",
      },
    ]);
    // Not even the truncated address of before is carried over.
    const dump = await pool.query(
      "SELECT string_agg(row_to_json(p)::text, '') AS j FROM tracking.profiles p",
    );
    expect(dump.rows[0].j).not.toContain("145.53");
    const day = await pool.query("SELECT views, visitors FROM tracking.daily WHERE day = '2026-11-20'");
    expect(day.rows).toEqual([{ views: 1, visitors: 1 }]);
  });

  it("moves page views into the narrow layout of 0014, keyed by session, refusing a redelivery still", async () => {
    const other = await createTestDatabase("trkmig14");
    const p = new pg.Pool({ connectionString: other.url, max: 2 });
    const before = firstMigrations(14);
    try {
      await runMigrations(p, "tracking", before);
      await p.query("SELECT tracking.ensure_month('2026-10-01'), tracking.ensure_month('2026-11-01')");
      await p.query(
        `INSERT INTO tracking.page_views (occurred_at, event_key, session_key, page_id) VALUES
           ('2026-10-31T10:00:00Z', 1, tracking.key64('s1'), 7),
           ('2026-11-02T10:00:00Z', 2, tracking.key64('s1'), 8),
           ('2026-11-02T10:00:00Z', 3, tracking.key64('s2'), 7)`,
      );

      await runMigrations(p, "tracking", FOLDER);

      const rows = await p.query(
        `SELECT tableoid::regclass::text AS part, occurred_at, session_key = tracking.key64('s1') AS s1,
                event_key, page_id FROM tracking.page_views ORDER BY occurred_at, event_key`,
      );
      expect(rows.rows).toEqual([
        {
          part: "tracking.page_views_m2026_10",
          occurred_at: new Date("2026-10-31T10:00:00Z"),
          s1: true,
          event_key: 1,
          page_id: 7,
        },
        {
          part: "tracking.page_views_m2026_11",
          occurred_at: new Date("2026-11-02T10:00:00Z"),
          s1: true,
          event_key: 2,
          page_id: 8,
        },
        {
          part: "tracking.page_views_m2026_11",
          occurred_at: new Date("2026-11-02T10:00:00Z"),
          s1: false,
          event_key: 3,
          page_id: 7,
        },
      ]);
      // The 8-byte columns first: no padding in the row.
      const columns = await p.query(
        `SELECT attname FROM pg_attribute WHERE attrelid = 'tracking.page_views'::regclass AND attnum > 0 ORDER BY attnum`,
      );
      expect(columns.rows.map((r) => r.attname)).toEqual([
        "occurred_at",
        "session_key",
        "event_key",
        "page_id",
      ]);
      const key = await p.query(
        `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
         WHERE i.indrelid = 'tracking.page_views'::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
      );
      expect(key.rows.map((r) => r.attname)).toEqual(["session_key", "occurred_at", "event_key"]);
      const indexes = await p.query(
        "SELECT count(*)::int AS n FROM pg_index WHERE indrelid = 'tracking.page_views_m2026_11'::regclass",
      );
      expect(indexes.rows[0].n).toBe(2); // the key and the BRIN index, nothing of before
      await expect(
        p.query(
          `INSERT INTO tracking.page_views (occurred_at, session_key, event_key, page_id)
           VALUES ('2026-11-02T10:00:00Z', tracking.key64('s2'), 3, 7)`,
        ),
      ).rejects.toThrow(/duplicate key/);
      // A month made after the migration gets the same indexes.
      await p.query("SELECT tracking.ensure_month('2026-12-01')");
      const made = await p.query(
        "SELECT count(*)::int AS n FROM pg_index WHERE indrelid = 'tracking.page_views_m2026_12'::regclass",
      );
      expect(made.rows[0].n).toBe(2);
    } finally {
      await p.end();
      await other.drop();
      rmSync(before, { recursive: true, force: true });
    }
  });

  it("keeps the visitor rows stored with last_seen, which is no longer written (0016)", async () => {
    const other = await createTestDatabase("trkmig16");
    const p = new pg.Pool({ connectionString: other.url, max: 2 });
    const before = firstMigrations(16);
    try {
      await runMigrations(p, "tracking", before);
      await p.query("SELECT tracking.ensure_month('2026-10-01')");
      await p.query(
        `INSERT INTO tracking.visitors
           (session_key, first_seen, last_seen, day, hours, added, views, landing_page_id, profile_id, sent)
         VALUES (tracking.key64('s1'), '2026-10-31T10:00:00Z', '2026-10-31T10:05:00Z', '2026-10-31', 2048, 2048, 3, 1, 1, NULL),
                (tracking.key64('s2'), '2026-10-31T11:00:00Z', '2026-10-31T11:01:00Z', '2026-10-31', 4096, 4096, 1, 2, 1, '{a,b}')`,
      );

      await runMigrations(p, "tracking", FOLDER);

      const rows = await p.query(
        `SELECT session_key = tracking.key64('s1') AS s1, first_seen, last_seen, hours, views, sent
         FROM tracking.visitors ORDER BY first_seen`,
      );
      expect(rows.rows).toEqual([
        {
          s1: true,
          first_seen: new Date("2026-10-31T10:00:00Z"),
          last_seen: new Date("2026-10-31T10:05:00Z"),
          hours: 2048,
          views: 3,
          sent: null,
        },
        {
          s1: false,
          first_seen: new Date("2026-10-31T11:00:00Z"),
          last_seen: new Date("2026-10-31T11:01:00Z"),
          hours: 4096,
          views: 1,
          sent: ["a", "b"],
        },
      ]);
      // A row written without it (as the writer now does) is 8 bytes smaller on its page.
      await p.query(
        `INSERT INTO tracking.visitors (session_key, first_seen, day, hours, added, views, landing_page_id, profile_id)
         VALUES (tracking.key64('s3'), '2026-10-31T12:00:00Z', '2026-10-31', 1, 1, 1, 1, 1)`,
      );
      const widths = await p.query(
        `SELECT pg_column_size(v.*) AS width FROM tracking.visitors v WHERE sent IS NULL ORDER BY first_seen`,
      );
      expect(widths.rows[0].width - widths.rows[1].width).toBe(8);
      // A month made once it is over gets full visitor pages; this month and later ones keep room.
      const thisMonth = "date_trunc('month', now() AT TIME ZONE 'Europe/Amsterdam')::date";
      await p.query(`SELECT tracking.ensure_month('2025-01-01'), tracking.ensure_month(${thisMonth})`);
      const fill = await p.query(
        `SELECT c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'tracking' AND c.relname IN ('visitors_m2025_01', to_char(${thisMonth}, '"visitors_m"YYYY_MM'))
         ORDER BY c.relname`,
      );
      expect(fill.rows.map((r) => r.reloptions)).toEqual([["fillfactor=100"], ["fillfactor=90"]]);
    } finally {
      await p.end();
      await other.drop();
      rmSync(before, { recursive: true, force: true });
    }
  });
});
