import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import type { RunningService } from "@lease/platform";
import { startLeads } from "./service";
import { postJson, validLead } from "./testing";
import { startTcpProxy } from "@lease/platform/testing";

// The service reaches Postgres through a TCP proxy the test can cut: deterministic, and the
// service sees exactly what it would see if the database host went away.

let db: TestDatabase;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let svc: RunningService;
let sql: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase("leadspg");
  const direct = new URL(db.url);
  proxy = await startTcpProxy(direct.hostname, Number(direct.port || 5432));
  const viaProxy = new URL(db.url);
  viaProxy.port = String(proxy.port);
  svc = await startLeads(testEnv({ DATABASE_URL: viaProxy.toString() }));
  sql = new pg.Pool({ connectionString: db.url, max: 1 });
});
afterAll(async () => {
  await svc?.stop();
  await proxy?.close();
  await sql?.end();
  await db?.drop();
});

const count = async () =>
  Number((await sql.query("SELECT count(*) AS n FROM leads.lease_requests")).rows[0].n);

describe("with Postgres unreachable", () => {
  it("answers 503 with Retry-After (never 500) and writes nothing; accepts again once it is back", async () => {
    expect((await postJson(`${svc.url}/api/lease-requests`, validLead)).status).toBe(201);
    expect(await count()).toBe(1);

    proxy.cut();
    for (let i = 0; i < 3; i++) {
      const res = await postJson(`${svc.url}/api/lease-requests`, validLead, `203.0.113.${10 + i}`);
      expect(res.status).toBe(503);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await res.json()) as { code: string }).code).toBe("service_unavailable");
    }
    const ready = await fetch(svc.readyUrl);
    expect(ready.status).toBe(503);

    proxy.restore();
    expect(await count()).toBe(1);
    const res = await postJson(`${svc.url}/api/lease-requests`, validLead, "203.0.113.99");
    expect(res.status).toBe(201);
    expect(await count()).toBe(2);
  });
});
