// The beacon ingest (track.ts): POST /internal/track/batch, the gateway's coalesced beacons, as
// counted visits and heartbeats, without analytics consent, on paths the site lacks and within
// the per-address and per-client budgets. Each part has a tracking service of its own.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ActiveVisitor,
  type VisitorStats,
  TRACK_BATCH_PATH,
  type InternalTrackHit,
  OTHER_PAGE,
  InternalTrackBatchResult,
} from "@lease/contracts";
import { startHarness, sessionId, type Harness, BROWSER_UA, metric, ManualClock } from "../testing";
import { INTERNAL_TOKEN_HEADER } from "@lease/platform";
import pg from "pg";
import { anonymousVisitorId } from "../domain/anonymous-id";
import { dayStart } from "../domain/calendar";

describe("POST /internal/track/batch", () => {
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
      expect((await active()).find((v) => v.id === third)).toMatchObject({
        ipAddress: "2a02:a440:1234::/48",
      });
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
  });
});

describe("POST /internal/track/batch", () => {
  // The gateway's coalesced beacons: one call, one answer per hit, each exactly what the hit's own
  // POST /api/track/* would have answered.

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
  const batch = (hits: unknown[], token = h.env.INTERNAL_TOKEN!, body?: string) =>
    fetch(`${h.svc.url}${TRACK_BATCH_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", [INTERNAL_TOKEN_HEADER]: token },
      body: body ?? JSON.stringify({ hits }),
    });
  const hit = (kind: InternalTrackHit["kind"], body: unknown, extra: Partial<InternalTrackHit> = {}) => ({
    kind,
    body: typeof body === "string" ? body : JSON.stringify(body),
    ip: "145.53.1.1",
    userAgent: BROWSER_UA,
    ...extra,
  });

  describe("the gateway's coalesced beacons", () => {
    it("refuses a caller without the internal token, before reading the body", async () => {
      const before = await stats();
      const visit = hit("visit", { sessionId: sessionId(), page: "/" });
      expect((await batch([visit], "")).status).toBe(403);
      expect((await batch([visit], "x".repeat(h.env.INTERNAL_TOKEN!.length))).status).toBe(403);
      expect(await stats()).toEqual(before);
    });

    it("answers each hit as its own route would: 204, or the same 400 body", async () => {
      const before = await stats();
      const good = sessionId();
      const beat = sessionId();
      const invalid = { sessionId: "abc", page: "no-slash" };
      const res = await batch([
        hit("visit", { sessionId: good, page: "/financiele-lease" }),
        hit("visit", "{not json"),
        hit("visit", invalid),
        hit("heartbeat", { sessionId: beat }),
        hit("visit", ""),
      ]);
      expect(res.status).toBe(200);
      const { results } = (await res.json()) as InternalTrackBatchResult;
      expect(results.map((r) => r.status)).toEqual([204, 400, 400, 204, 400]);

      const alone = async (body: string) => {
        const r = await h.visit(body);
        return { status: r.status, error: await r.json() };
      };
      expect(results[1]).toEqual(await alone("{not json"));
      expect(results[2]).toEqual(await alone(JSON.stringify(invalid)));
      expect(results[2]!.error!.fields!.map((f) => f.path)).toEqual(["sessionId", "page"]);
      expect(results[4]).toEqual(await alone(""));

      const after = await stats();
      // The visit makes a visitor of the day; a heartbeat keeps a visitor active but is no page view.
      expect(after.todayTotal).toBe(before.todayTotal + 1);
      expect(after.topPages).toContainEqual({ page: "/financiele-lease", views: 1 });
    });

    it("takes the visitor's address, user agent and cookie from each hit", async () => {
      const before = await stats();
      const visitor = sessionId();
      const res = await batch([
        hit("visit", { sessionId: visitor, page: "/over-ons" }, { ip: "145.53.1.1" }),
        hit(
          "visit",
          { sessionId: sessionId(), page: "/bot" },
          { userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
        ),
        hit("visit", { sessionId: sessionId(), page: "/staff" }, { cookie: await h.adminCookie() }),
      ]);
      const { results } = (await res.json()) as InternalTrackBatchResult;
      expect(results.map((r) => r.status)).toEqual([204, 204, 204]);
      expect((await stats()).todayTotal).toBe(before.todayTotal + 1);
      const list = await h.get<ActiveVisitor[]>("/api/admin/active-visitors");
      expect(list.find((v) => v.id === visitor)).toMatchObject({
        page: "/over-ons",
        ipAddress: "145.53.1.0/24",
        city: "Weert",
        country: "NL",
      });
    });

    it("answers a hit nested 2,500 levels deep around a NUL with the same 400 as alone, and keeps the rest", async () => {
      const deep = '{"a":'.repeat(2500) + '"\\u0000"' + "}".repeat(2500);
      const good = sessionId();
      const res = await batch([hit("visit", deep), hit("visit", { sessionId: good, page: "/" })]);
      expect(res.status).toBe(200);
      const { results } = (await res.json()) as InternalTrackBatchResult;
      expect(results.map((r) => r.status)).toEqual([400, 204]);
      expect(results[0]!.error!.code).toBe("too_deep");
      const alone = await h.visit(deep);
      expect({ status: alone.status, error: await alone.json() }).toEqual(results[0]);
    });

    it("answers a hit holding a NUL character (raw or escaped) with its own 400, and keeps the rest", async () => {
      const good = sessionId();
      const res = await batch([
        hit("visit", `{"sessionId":"${sessionId()}","page":"/\\u0000"}`),
        hit("visit", "\u0000"),
        hit("visit", JSON.stringify({ sessionId: sessionId(), page: "/\0" })),
        hit("visit", { sessionId: good, page: "/" }),
      ]);
      expect(res.status).toBe(200);
      const { results } = (await res.json()) as InternalTrackBatchResult;
      expect(results.map((r) => r.status)).toEqual([400, 400, 400, 204]);
      expect(results.map((r) => r.error?.code)).toEqual([
        "invalid_character",
        "invalid_json",
        "invalid_character",
        undefined,
      ]);
    });

    it("refuses a malformed batch as a whole with 400 and counts nothing", async () => {
      const before = await stats();
      for (const hits of [[], [{ kind: "click", body: "{}", ip: "1.2.3.4" }], [{ kind: "visit" }]]) {
        const res = await batch(hits);
        expect(res.status, JSON.stringify(hits)).toBe(400);
        expect(((await res.json()) as { code: string }).code).toBe("validation_failed");
      }
      expect((await batch([], undefined, "{")).status).toBe(400);
      expect(await stats()).toEqual(before);
    });
  });
});

describe("POST /internal/track/batch", () => {
  // Visits without analytics consent, made-up paths and the per-address budget, through the service.
  let h: Harness;
  let redis: Redis;
  let db: pg.Pool;
  beforeAll(async () => {
    h = await startHarness({ BUDGET_NEW_SESSIONS_PER_MINUTE: "20", BUDGET_HITS_PER_MINUTE: "1000" });
    redis = new Redis(h.env.REDIS_URL!);
    db = new pg.Pool({ connectionString: h.db.url, max: 1 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await db?.end();
    await h?.close();
  });

  const stats = async () => {
    await h.settle();
    return h.get<VisitorStats>("/api/admin/visitor-stats");
  };
  const active = () => h.get<ActiveVisitor[]>("/api/admin/active-visitors");
  const saltOf = (day: string) => redis.get(`${h.env.REDIS_PREFIX}:tracking:salt:${day}`);
  /** A fresh minute each time, well inside it: each test has the budget to itself. */
  let minute = Math.floor(Date.parse("2026-11-18T10:00:00Z") / 60_000);
  const nextMinute = () => {
    minute += 2;
    h.clock.ms = minute * 60_000 + 5000;
  };

  describe("a visit without analytics consent", () => {
    it("is counted under an id the server derives from the day's salt, address and browser, shown without either", async () => {
      nextMinute();
      const from = { "x-forwarded-for": "145.53.1.77" };
      const before = await stats();
      expect((await h.visit({ page: "/financiele-lease", referrer: "" }, from)).status).toBe(204);
      expect((await h.visit({ page: "/over-ons" }, from)).status).toBe(204);
      expect((await h.heartbeat({}, from)).status).toBe(204);
      const salt = await saltOf("2026-11-18");
      expect(salt).toMatch(/^[0-9a-f]{64}$/);
      const id = anonymousVisitorId(salt!, "145.53.1.77", BROWSER_UA);
      const mine = (await active()).filter((v) => v.id === id);
      expect(mine).toEqual([
        expect.objectContaining({
          page: "/over-ons",
          anonymous: true,
          ipAddress: "",
          userAgent: "",
          city: "Weert",
          country: "NL",
        }),
      ]);
      // Redis holds neither the address nor the user agent for it.
      const hash = JSON.stringify(await redis.hgetall(`${h.env.REDIS_PREFIX}:tracking:visitor:${id}`));
      expect(hash).not.toContain("145.53");
      expect(hash).not.toContain("Chrome");
      const after = await stats();
      expect(after.todayTotal).toBe(before.todayTotal + 1);
      // Another browser behind the same address is another visitor.
      await h.visit({ page: "/" }, { ...from, "user-agent": `${BROWSER_UA} Edg/131.0` });
      expect((await stats()).todayTotal).toBe(before.todayTotal + 2);
    });

    it("gets a new id after Amsterdam midnight; the day's salt expires with its day", async () => {
      h.clock.ms = Date.parse("2026-11-19T22:59:00Z"); // 23:59 in Amsterdam
      const from = { "x-forwarded-for": "145.53.1.80" };
      await h.visit({ page: "/" }, from);
      const salt = await saltOf("2026-11-19");
      const ttl = await redis.pttl(`${h.env.REDIS_PREFIX}:tracking:salt:2026-11-19`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(dayStart("2026-11-20") - h.clock.ms);
      h.clock.ms = Date.parse("2026-11-19T23:01:00Z"); // 00:01 the next day
      await h.visit({ page: "/" }, from);
      const next = await saltOf("2026-11-20");
      expect(next).not.toBe(salt);
      const ids = (await active()).map((v) => v.id);
      expect(ids).toContain(anonymousVisitorId(salt!, "145.53.1.80", BROWSER_UA));
      expect(ids).toContain(anonymousVisitorId(next!, "145.53.1.80", BROWSER_UA));
    });

    it("with consent keeps the browser's own id, the address block and the user agent", async () => {
      nextMinute();
      const id = sessionId();
      await h.visit({ sessionId: id, page: "/" }, { "x-forwarded-for": "145.53.1.90" });
      expect((await active()).find((v) => v.id === id)).toMatchObject({
        anonymous: false,
        ipAddress: "145.53.1.0/24",
        userAgent: BROWSER_UA,
      });
    });
  });

  describe("paths the site does not have", () => {
    it("are recorded as one other page in the live list, the top pages and the database", async () => {
      nextMinute();
      const made = ["/wp-login.php", "/.env", "/aanbieding-van-de-aanvaller", "/over-ons/../admin"];
      const ids = made.map(() => sessionId());
      await Promise.all(made.map((page, i) => h.visit({ sessionId: ids[i], page: `${page}?utm_source=x` })));
      const live = await active();
      for (const id of ids) expect(live.find((v) => v.id === id)?.page).toBe(OTHER_PAGE);
      const { topPages } = await stats();
      expect(topPages.find((p) => p.page === OTHER_PAGE)?.views).toBeGreaterThanOrEqual(made.length);
      const paths = (await db.query<{ path: string }>("SELECT path FROM tracking.pages")).rows.map(
        (r) => r.path,
      );
      for (const page of made) expect(paths).not.toContain(page);
      expect(paths.some((p) => p.includes("aanvaller") || p.includes("utm"))).toBe(false);
    });
  });

  describe("the per-address budget", () => {
    it("answers every beacon 204 but records only the budget's new sessions of a minute, counted in a metric", async () => {
      nextMinute();
      const over = () =>
        metric(h.svc.metricsUrl, "tracking_hits_total", 'kind="visit",outcome="over_budget"');
      const overBefore = await over();
      const activeBefore = (await stats()).currentActive;
      const from = { "x-forwarded-for": "198.51.100.7" };
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => h.visit({ sessionId: sessionId(), page: "/" }, from)),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(50).fill(204));
      expect((await stats()).currentActive).toBe(activeBefore + 20);
      expect((await over()) - overBefore).toBe(30);
      // Another address of the same /24 shares the budget; another /24 has its own.
      expect(
        (await h.visit({ sessionId: sessionId(), page: "/" }, { "x-forwarded-for": "198.51.100.8" })).status,
      ).toBe(204);
      expect((await over()) - overBefore).toBe(31);
      await h.visit({ sessionId: sessionId(), page: "/" }, { "x-forwarded-for": "198.51.101.8" });
      expect((await stats()).currentActive).toBe(activeBefore + 21);
    });
  });
});

describe("POST /internal/track/batch", () => {
  // What one client adds to the stored page views: a session and an address block get what a real
  // visitor (or an office of them) could produce in a minute; the rest is answered 204 like any
  // beacon, counted as over_budget and never stored.
  let h: Harness;
  let db: pg.Pool;
  beforeAll(async () => {
    h = await startHarness({}, new ManualClock(Date.parse("2026-11-18T10:00:01Z")));
    db = new pg.Pool({ connectionString: h.db.url, max: 2 });
  });
  afterAll(async () => {
    await db?.end();
    await h?.close();
  });

  /** Page views as the gateway forwards a burst of them: up to 100 hits a batch, from `ip`. */
  async function burst(views: { sessionId: string; page: string }[], ip: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < views.length; i += 100) {
      const hits = views.slice(i, i + 100).map((body): InternalTrackHit => ({
        kind: "visit",
        body: JSON.stringify(body),
        ip,
        userAgent: BROWSER_UA,
      }));
      const res = await fetch(`${h.svc.url}${TRACK_BATCH_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", [INTERNAL_TOKEN_HEADER]: h.env.INTERNAL_TOKEN! },
        body: JSON.stringify({ hits }),
      });
      statuses.push(...InternalTrackBatchResult.parse(await res.json()).results.map((r) => r.status));
      // 3,000 views in 9 s: 300 ms per hundred.
      h.clock.advance(300);
    }
    return statuses;
  }
  const overBudget = () =>
    metric(h.svc.metricsUrl, "tracking_hits_total", 'kind="visit",outcome="over_budget"');
  const stored = async (sessions: string[]) => {
    await h.settle();
    const r = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM tracking.page_views WHERE session_key = ANY(SELECT tracking.key64(s) FROM unnest($1::text[]) s)",
      [sessions],
    );
    return Number(r.rows[0]!.n);
  };

  describe("the page views one client can store", () => {
    it("stores 60 of one session's 3,000 page views in 9 s, and counts the rest as over budget", async () => {
      const before = await overBudget();
      const id = sessionId();
      const pages = ["/", "/financiele-lease", "/over-ons"];
      const statuses = await burst(
        Array.from({ length: 3000 }, (_, i) => ({ sessionId: id, page: pages[i % 3]! })),
        "145.53.7.20",
      );
      expect(new Set(statuses)).toEqual(new Set([204]));
      expect(await stored([id])).toBe(60);
      expect((await overBudget()) - before).toBe(2940);
      // The next minute the session is a reader again.
      h.clock.ms = Date.parse("2026-11-18T10:01:01Z");
      await burst([{ sessionId: id, page: "/" }], "145.53.7.20");
      expect(await stored([id])).toBe(61);
    });

    it("stores 1,500 page views a minute of one address block however many sessions it rotates through", async () => {
      h.clock.ms = Date.parse("2026-11-18T10:05:01Z");
      const before = await overBudget();
      // 100 sessions of 30 page views each, from addresses all over one /24.
      const sessions = Array.from({ length: 100 }, () => sessionId());
      const views = Array.from({ length: 3000 }, (_, i) => ({ sessionId: sessions[i % 100]!, page: "/" }));
      await burst(views, "198.51.100.23");
      expect(await stored(sessions)).toBe(1500);
      expect((await overBudget()) - before).toBe(1500);
      // Another block has a budget of its own.
      const other = sessionId();
      await burst([{ sessionId: other, page: "/" }], "198.51.101.23");
      expect(await stored([other])).toBe(1);
    });
  });
});
