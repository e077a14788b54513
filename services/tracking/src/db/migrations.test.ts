import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { runMigrations } from "@lease/platform";
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

    await runMigrations(pool, "tracking", FOLDER);

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
});
