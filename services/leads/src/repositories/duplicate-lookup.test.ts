import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import type { RunningService } from "@lease/platform";
import { startLeads } from "../service";
import { NEWEST_DUPLICATE_SQL } from "./lease-requests";

// Every quote runs the duplicate lookup inside its insert; it must stay a couple of index probes,
// however many leads the table holds.
let db: TestDatabase;
let svc: RunningService;
let sql: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase("leads_dup");
  svc = await startLeads(testEnv({ DATABASE_URL: db.url })); // migrates the schema
  sql = new pg.Pool({ connectionString: db.url, max: 1 });
  // The database is dropped WITH (FORCE) at the end; a connection still closing then must not crash the run.
  sql.on("error", () => undefined);
  await sql.query(`
    INSERT INTO leads.lease_requests (car_url, contact_number, email, email_key, phone_key, created_at)
    SELECT 'https://www.example.nl/' || i, '06' || (10000000 + i), 'lead' || i || '@example.nl',
           'lead' || i || '@example.nl', '06' || (10000000 + i), now() - (i || ' seconds')::interval
      FROM generate_series(1, 20000) AS i`);
  await sql.query("ANALYZE leads.lease_requests");
});

afterAll(async () => {
  await sql?.end();
  await svc?.stop();
  await db?.drop();
});

interface PlanNode {
  "Node Type": string;
  "Actual Rows": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

async function plan(email: string, phone: string): Promise<PlanNode[]> {
  const { rows } = await sql.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${NEWEST_DUPLICATE_SQL("$1", "$2")}`,
    [email, phone],
  );
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    node.Plans?.forEach(walk);
  };
  walk(rows[0]!["QUERY PLAN"][0].Plan);
  return nodes;
}

describe("the duplicate lookup of a new quote", () => {
  it("probes the e-mail and phone indexes instead of walking recent leads", async () => {
    for (const [email, phone] of [
      ["nobody@example.nl", "0699999999"], // a new customer: nothing to find
      ["lead15000@example.nl", "0699999999"], // an e-mail seen before
      ["nobody@example.nl", "0610005000"], // a phone seen before
    ] as const) {
      const nodes = await plan(email, phone);
      const scans = nodes.filter((n) => n["Node Type"].includes("Scan"));
      expect(scans.length).toBe(2);
      for (const scan of scans) {
        expect(scan["Node Type"]).toMatch(/Index/);
        expect(scan["Rows Removed by Filter"] ?? 0).toBe(0);
        expect(scan["Actual Rows"]).toBeLessThanOrEqual(1);
      }
    }
  });

  it("finds the newest earlier lead by e-mail or by phone", async () => {
    const newest = async (email: string, phone: string) =>
      (await sql.query<{ id: string }>(NEWEST_DUPLICATE_SQL("$1", "$2"), [email, phone])).rows[0]?.id;
    const idOf = async (email: string) =>
      (await sql.query<{ id: string }>("SELECT id FROM leads.lease_requests WHERE email = $1", [email]))
        .rows[0]!.id;
    expect(await newest("nobody@example.nl", "0699999999")).toBeUndefined();
    expect(await newest("lead15000@example.nl", "0699999999")).toBe(await idOf("lead15000@example.nl"));
    expect(await newest("nobody@example.nl", "0610005000")).toBe(await idOf("lead5000@example.nl"));
    // Both match: the newer one (lead 10 is 10 s old, lead 20 is 20 s old).
    expect(await newest("lead20@example.nl", "0610000010")).toBe(await idOf("lead10@example.nl"));
  });
});
