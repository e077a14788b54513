import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActiveVisitor, VisitorStats } from "@lease/contracts";
import { startHarness, sessionId, type Harness } from "../testing";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

// Day and week counts come from the rollups the stream writer keeps: read them once it caught up.
const stats = async () => {
  await h.settle();
  return h.get<VisitorStats>("/api/admin/visitor-stats");
};
const active = () => h.get<ActiveVisitor[]>("/api/admin/active-visitors");

// The beacons come as the gateway forwards them (startHarness: one hit per batch to the ingest
// route); the gateway's own part (address, headers, body limits) is tested in
// services/gateway/src/routes/beacons.test.ts.
describe("visit and heartbeat ingest", () => {
  it("answers a valid visit 204 without a cookie and counts it", async () => {
    const before = await stats();
    const res = await h.visit({
      sessionId: sessionId(),
      page: "/zakelijke-lease",
      referrer: "https://google.nl/",
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.text()).toBe("");
    const after = await stats();
    expect(after.currentActive).toBe(before.currentActive + 1);
    expect(after.todayTotal).toBe(before.todayTotal + 1);
    expect(after.thisWeekTotal).toBe(before.thisWeekTotal + 1);
    expect(after.topPages).toContainEqual({ page: "/zakelijke-lease", views: 1 });
  });

  it("refuses bad input with 400 and never counts it", async () => {
    const before = await stats();
    const bad: unknown[] = [
      { sessionId: "abc", page: "/" },
      { sessionId: `session-${"a".repeat(90)}-1700000000000`, page: "/" },
      { sessionId: sessionId(), page: "no-slash" },
      { sessionId: sessionId(), page: `/${"a".repeat(512)}` },
      { sessionId: sessionId(), page: "/", referrer: "x".repeat(1025) },
      { sessionId: sessionId(), page: "/\n" },
      { sessionId: sessionId(), page: "/", extra: 1 },
      [],
      "null",
    ];
    for (const body of bad) {
      const res = await h.visit(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe("validation_failed");
    }
    expect((await h.heartbeat({ sessionId: "session-x" })).status).toBe(400);
    expect(await stats()).toEqual(before);
  });

  it("does not count bots or a signed-in admin, but still answers 204", async () => {
    const before = await stats();
    const bot = await h.visit(
      { sessionId: sessionId(), page: "/bot-page" },
      { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
    );
    expect(bot.status).toBe(204);
    const admin = await h.visit(
      { sessionId: sessionId(), page: "/admin" },
      { cookie: await h.adminCookie() },
    );
    expect(admin.status).toBe(204);
    const hb = await h.heartbeat(
      { sessionId: sessionId() },
      { "user-agent": "curl/8.0 python-requests/2.31" },
    );
    expect(hb.status).toBe(204);
    expect(await stats()).toEqual(before);
  });

  it("shows the visitor with city, country and the forwarded address's block (never the address) in the live list, newest first", async () => {
    const first = sessionId();
    const second = sessionId();
    await h.visit({ sessionId: first, page: "/over-ons" }, { "x-forwarded-for": "145.53.1.1" });
    h.clock.advance(1000);
    await h.visit({ sessionId: second, page: "/" }, { "x-forwarded-for": "10.1.2.3" });
    const list = await active();
    const i1 = list.findIndex((v) => v.id === first);
    const i2 = list.findIndex((v) => v.id === second);
    expect(i2).toBeLessThan(i1);
    expect(list[i1]).toMatchObject({
      page: "/over-ons",
      city: "Weert",
      country: "NL",
      ipAddress: "145.53.1.0/24",
      anonymous: false,
    });
    expect(list[i2]).toMatchObject({ page: "/", city: "", country: "", ipAddress: "10.1.2.0/24" });
    expect(list[i1]!.userAgent).toContain("Chrome");
    const third = sessionId();
    await h.visit(
      { sessionId: third, page: "/" },
      { "x-forwarded-for": "2a02:a440:1234:5678:9abc:def0:1:2" },
    );
    expect((await active()).find((v) => v.id === third)).toMatchObject({ ipAddress: "2a02:a440:1234::/48" });
    // Not even Redis holds the full address.
    const redis = new Redis(h.env.REDIS_URL!);
    try {
      for (const id of [first, second, third]) {
        const hash = JSON.stringify(await redis.hgetall(`${h.env.REDIS_PREFIX}:tracking:visitor:${id}`));
        expect(hash).toContain("lastSeen");
        expect(hash).not.toMatch(/145\.53\.1\.1\b|10\.1\.2\.3|9abc/);
      }
    } finally {
      redis.disconnect();
    }
  });

  it("keeps a session active with heartbeats and drops it 5 minutes after the last one", async () => {
    const id = sessionId();
    await h.visit({ sessionId: id, page: "/fleet-management" });
    const base = (await stats()).currentActive;
    h.clock.advance(4 * 60_000);
    await h.heartbeat({ sessionId: id });
    h.clock.advance(4 * 60_000);
    expect((await active()).find((v) => v.id === id)).toMatchObject({ page: "/fleet-management" });
    h.clock.advance(60_001);
    expect((await active()).some((v) => v.id === id)).toBe(false);
    expect((await stats()).currentActive).toBeLessThan(base);
  });

  it("rolls today's total over at midnight Amsterdam time and the week's on Monday", async () => {
    h.clock.ms = Date.parse("2026-11-21T22:30:00Z"); // Saturday 23:30 in Amsterdam
    await h.visit({ sessionId: sessionId(), page: "/" });
    const saturday = await stats();
    h.clock.ms = Date.parse("2026-11-21T23:30:00Z"); // Sunday 00:30 in Amsterdam, same ISO week
    const sunday = await stats();
    expect(sunday.todayTotal).toBe(0);
    expect(sunday.topPages).toEqual([]);
    expect(sunday.thisWeekTotal).toBe(saturday.thisWeekTotal);
    await h.visit({ sessionId: sessionId(), page: "/" });
    expect((await stats()).thisWeekTotal).toBe(saturday.thisWeekTotal + 1);
    h.clock.ms = Date.parse("2026-11-22T23:00:00Z"); // Monday 00:00 in Amsterdam
    const monday = await stats();
    expect(monday.todayTotal).toBe(0);
    expect(monday.thisWeekTotal).toBe(0);
  });

  it("counts one visitor once however many pages it views, and ranks today's top pages", async () => {
    h.clock.ms = Date.parse("2026-11-24T09:00:00Z");
    const id = sessionId();
    for (const page of ["/", "/financiele-lease", "/financiele-lease", "/over-ons"])
      await h.visit({ sessionId: id, page });
    const s = await stats();
    expect(s.todayTotal).toBe(1);
    expect(s.topPages[0]).toEqual({ page: "/financiele-lease", views: 2 });
    expect(s.topPages).toHaveLength(3);
  });

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
