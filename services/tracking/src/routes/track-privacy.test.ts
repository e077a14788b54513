import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_PAGE, type ActiveVisitor, type VisitorStats } from "@lease/contracts";
import { anonymousVisitorId } from "../domain/anonymous-id";
import { dayStart } from "../domain/calendar";
import { BROWSER_UA, metric, sessionId, startHarness, type Harness } from "../testing";

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
    const over = () => metric(h.svc.metricsUrl, "tracking_hits_total", 'kind="visit",outcome="over_budget"');
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
