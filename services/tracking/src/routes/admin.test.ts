// The panel's visitor figures (admin.ts): the live list of active visitors, paged, and every read
// behind a session. The figures themselves are read throughout track.test.ts, after its beacons.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActiveVisitor } from "@lease/contracts";
import { startHarness, sessionId, type Harness } from "../testing";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("GET /api/admin/active-visitors", () => {
  it("pages the active visitors, counts them all in X-Total-Count, and refuses a page beyond the bound", async () => {
    h.clock.ms = Date.now();
    for (let i = 0; i < 3; i++) await h.visit({ sessionId: sessionId(), page: "/" });
    const read = async (query: string) =>
      fetch(`${h.svc.url}/api/admin/active-visitors${query}`, { headers: { cookie: await h.adminCookie() } });
    const all = await read("");
    const total = Number(all.headers.get("x-total-count"));
    const everyone = (await all.json()) as ActiveVisitor[];
    expect(total).toBeGreaterThanOrEqual(3);
    expect(everyone).toHaveLength(Math.min(total, 200));
    const second = await read("?offset=1&limit=2");
    expect(second.status).toBe(200);
    expect(second.headers.get("x-total-count")).toBe(String(total));
    expect(((await second.json()) as ActiveVisitor[]).map((v) => v.id)).toEqual(
      everyone.slice(1, 3).map((v) => v.id),
    );
    for (const query of ["?limit=201", "?limit=0", "?offset=-1", "?offset=50001", "?limit=abc"])
      expect((await read(query)).status, query).toBe(400);
  });
});

describe("GET /api/admin/visitor-stats · GET /api/admin/active-visitors · GET /api/admin/visitor-series", () => {
  it("keeps the admin reads behind a session", async () => {
    for (const path of [
      "/api/admin/visitor-stats",
      "/api/admin/active-visitors",
      "/api/admin/visitor-series",
    ]) {
      expect((await fetch(`${h.svc.url}${path}`)).status).toBe(401);
    }
  });
});
