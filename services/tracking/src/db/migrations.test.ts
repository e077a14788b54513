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
});
