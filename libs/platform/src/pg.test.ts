import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withTransaction } from "./pg";
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
