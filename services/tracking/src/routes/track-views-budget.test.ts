import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { TRACK_BATCH_PATH, InternalTrackBatchResult, type InternalTrackHit } from "@lease/contracts";
import { INTERNAL_TOKEN_HEADER } from "@lease/platform";
import { BROWSER_UA, ManualClock, metric, sessionId, startHarness, type Harness } from "../testing";

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
