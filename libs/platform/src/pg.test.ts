import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPool, runMigrations, withTransaction } from "./pg";
import { createTestDatabase, type TestDatabase } from "./testing";

let db: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase("tx");
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await pool.query("CREATE TABLE t (n int)");
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe("withTransaction", () => {
  it("commits what the work did and answers its result", async () => {
    const result = await withTransaction(pool, async (client) => {
      await client.query("INSERT INTO t VALUES (1)");
      return "done";
    });
    expect(result).toBe("done");
    expect((await pool.query("SELECT n FROM t")).rows).toEqual([{ n: 1 }]);
  });

  it("rolls everything back when the work throws, passes the error on and releases the client", async () => {
    await expect(
      withTransaction(pool, async (client) => {
        await client.query("INSERT INTO t VALUES (2)");
        throw new Error("halfway");
      }),
    ).rejects.toThrow("halfway");
    expect((await pool.query("SELECT n FROM t ORDER BY n")).rows).toEqual([{ n: 1 }]);
    // Both clients of the pool (max 2) are free again: had the failed one not been released, the
    // second of these two transactions would wait for it for ever.
    const both = await Promise.all(
      [1, 2].map((n) => withTransaction(pool, (c) => c.query(`SELECT ${n} AS n`))),
    );
    expect(both.map((r) => r.rows[0])).toEqual([{ n: 1 }, { n: 2 }]);
  });
});

describe("withTransaction on a connection that dies", () => {
  it("fails the work, keeps nothing of it and hands out working clients afterwards", async () => {
    await expect(
      withTransaction(pool, async (client) => {
        client.on("error", () => undefined); // the server ends it between two queries
        const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
        await client.query("INSERT INTO t VALUES (3)");
        await pool.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
        await client.query("INSERT INTO t VALUES (4)");
      }),
    ).rejects.toThrow();
    expect((await pool.query("SELECT count(*)::int AS n FROM t WHERE n IN (3, 4)")).rows[0].n).toBe(0);
    // Neither client of the pool (max 2) is the dead one.
    const both = await Promise.all(
      [1, 2].map((n) => withTransaction(pool, (c) => c.query(`SELECT ${n} AS n`))),
    );
    expect(both.map((r) => r.rows[0])).toEqual([{ n: 1 }, { n: 2 }]);
  });
});

describe("runMigrations", () => {
  /** A migrations folder as drizzle-kit writes it: one migration creating the service's schema. */
  function migrationsOf(root: string, service: string): string {
    const folder = join(root, service);
    mkdirSync(join(folder, "meta"), { recursive: true });
    writeFileSync(
      join(folder, "meta", "_journal.json"),
      JSON.stringify({
        version: "7",
        dialect: "postgresql",
        entries: [{ idx: 0, version: "7", when: 1_700_000_000_000, tag: "0000_init", breakpoints: true }],
      }),
    );
    writeFileSync(
      join(folder, "0000_init.sql"),
      `CREATE SCHEMA "${service}";\n--> statement-breakpoint\nCREATE TABLE "${service}"."t" (n int);\n`,
    );
    return folder;
  }

  it("lets five services migrate a fresh database at the same moment, as pods starting together do", async () => {
    const root = mkdtempSync(join(tmpdir(), "migrations-"));
    const services = ["s1", "s2", "s3", "s4", "s5"];
    const folders = services.map((service) => migrationsOf(root, service));
    try {
      // Each round on a database without the shared journal schema: the race is on creating it.
      for (let round = 0; round < 4; round++) {
        const fresh = await createTestDatabase(`migrate${round}`);
        const pools = services.map(() => new pg.Pool({ connectionString: fresh.url, max: 1 }));
        try {
          const results = await Promise.allSettled(
            services.map((service, i) => runMigrations(pools[i]!, service, folders[i]!)),
          );
          expect(results.filter((r) => r.status === "rejected")).toEqual([]);
          const { rows } = await pools[0]!.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 't'",
          );
          expect(rows[0]!.n).toBe(services.length);
          // And again, as a restart does: nothing left to apply.
          await runMigrations(pools[0]!, "s1", folders[0]!);
        } finally {
          await Promise.all(pools.map((p) => p.end()));
          await fresh.drop();
        }
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("createPool", () => {
  /** A pool whose warnings are collected, and a way to end its server connections as an operator would. */
  function watchedPool() {
    const lines: string[] = [];
    const logger = pino(
      { level: "warn" },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const watched = createPool(db.url, logger, 2);
    const terminate = (pid: number) => pool.query("SELECT pg_terminate_backend($1)", [pid]);
    const pidOf = async (client: pg.PoolClient) =>
      (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    return { pool: watched, lines, terminate, pidOf };
  }

  it("says once that the connection to PostgreSQL was lost while the service runs", async () => {
    const { pool: watched, lines, terminate, pidOf } = watchedPool();
    const client = await watched.connect();
    const pid = await pidOf(client);
    const closed = new Promise((resolve) => client.once("end", resolve));
    await terminate(pid);
    await closed;
    client.release(true);
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(["postgres connection lost"]);
    await watched.end();
  });

  it("says nothing when the server ends the connections of a pool that is closing", async () => {
    const { pool: watched, lines, terminate, pidOf } = watchedPool();
    const client = await watched.connect();
    const pid = await pidOf(client);
    // end() waits for the checked-out client; the server ends it meanwhile (a dropped database).
    const ended = watched.end();
    const closed = new Promise((resolve) => client.once("end", resolve));
    await terminate(pid);
    await closed;
    client.release(true);
    await ended;
    expect(lines).toEqual([]);
  });
});
