import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  TRACK_BATCH_PATH,
  type ActiveVisitor,
  type InternalTrackBatchResult,
  type InternalTrackHit,
  type VisitorStats,
} from "@lease/contracts";
import { INTERNAL_TOKEN_HEADER } from "@lease/platform";
import { BROWSER_UA, sessionId, startHarness, type Harness } from "../testing";

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

describe("POST /internal/track/batch", () => {
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
