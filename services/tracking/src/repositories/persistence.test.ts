import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { VisitorSeries } from "@lease/contracts";
import { Redis } from "ioredis";
import {
  baseRedisUrl,
  startOwnRedis,
  startTcpProxy,
  testRedisPrefix,
  waitFor,
  type OwnRedis,
} from "@lease/platform/testing";
import { STREAM_GROUP } from "../jobs/stream-writer";
import { metric, startHarness, sessionId, type Harness } from "../testing";

let h: Harness;
let db: pg.Pool;
beforeAll(async () => {
  h = await startHarness({ FLUSH_INTERVAL_MS: "300" });
  db = new pg.Pool({ connectionString: h.db.url, max: 2 });
});
afterAll(async () => {
  await db?.end();
  await h?.close();
});

const countRows = async (sql: string, params: unknown[] = []) =>
  Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n);

describe("page views in Postgres", () => {
  it("turns N visits into N page-view rows with far fewer INSERT statements", async () => {
    const n = 300;
    const before = await metric(
      h.svc.metricsUrl,
      "tracking_db_insert_statements_total",
      'table="page_views"',
    );
    const ids = Array.from({ length: 30 }, sessionId);
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        h.visit(
          { sessionId: ids[i % ids.length], page: "/operationele-lease" },
          { "x-forwarded-for": "145.53.1.77" },
        ),
      ),
    );
    const ofTheseSessions = `session_key IN (SELECT tracking.key64(s) FROM unnest($1::text[]) AS s)`;
    const pageViews = () =>
      countRows(`SELECT count(*) AS n FROM tracking.page_views WHERE ${ofTheseSessions}`, [ids]);
    await waitFor(async () => (await pageViews()) === n, 5000, `${n} page views`, 50);
    expect(await pageViews()).toBe(n);
    const inserts =
      (await metric(h.svc.metricsUrl, "tracking_db_insert_statements_total", 'table="page_views"')) - before;
    expect(inserts).toBeGreaterThan(0);
    // One statement per flush (every 100 ms here), however many visits it carries: a loaded host
    // that spreads the 300 visits over a second or two makes more flushes, never one per visit.
    expect(inserts).toBeLessThanOrEqual(n / 10);
    expect(
      await countRows(
        `SELECT count(*) AS n FROM tracking.visitors v JOIN tracking.pages p ON p.id = v.landing_page_id
         WHERE p.path = '/operationele-lease' AND ${ofTheseSessions}`,
        [ids],
      ),
    ).toBe(30);
    // Written events leave Redis: the stream only holds what is not in Postgres yet.
    const redis = new Redis(h.env.REDIS_URL!);
    try {
      const streamKey = `${h.env.REDIS_PREFIX}:tracking:stream`;
      await waitFor(async () => (await redis.xlen(streamKey)) === 0, 5000, "an empty stream", 50);
      expect(await redis.xlen(streamKey)).toBe(0);
      // /metrics reports the backlog against its bound, for alerting before hits are refused.
      expect(await metric(h.svc.metricsUrl, "tracking_stream_backlog")).toBe(0);
      expect(await metric(h.svc.metricsUrl, "tracking_stream_backlog_max")).toBe(200_000);
    } finally {
      redis.disconnect();
    }
  });

  it("never writes an IP address to Postgres, not even truncated; keeps country, device and channel", async () => {
    const id = sessionId();
    await h.visit({ sessionId: id, page: "/privacy-beleid" }, { "x-forwarded-for": "145.53.1.77" });
    await h.visit(
      { sessionId: sessionId(), page: "/voorwaarden" },
      { "x-forwarded-for": "2a02:a440:1234:5678:9abc:def0:1:2" },
    );
    await h.settle();
    const row = (
      await db.query(
        `SELECT pr.country, pr.device, pr.browser, pr.os, pr.channel, p.path AS page
         FROM tracking.visitors v JOIN tracking.pages p ON p.id = v.landing_page_id
         JOIN tracking.profiles pr ON pr.id = v.profile_id
         WHERE v.session_key = tracking.key64($1)`,
        [id],
      )
    ).rows[0];
    expect(row).toEqual({
      channel: "Direct",
      country: "NL",
      device: "desktop",
      browser: "Chrome",
      os: "Windows",
      page: "/privacy-beleid",
    });
    const dump = await db.query(
      `SELECT row_to_json(v)::text AS j FROM tracking.visitors v
       UNION ALL SELECT row_to_json(p)::text FROM tracking.profiles p
       UNION ALL SELECT row_to_json(p)::text FROM tracking.pages p`,
    );
    const all = dump.rows.map((r: { j: string }) => r.j).join("\n");
    expect(all).not.toContain("145.53.1");
    expect(all).not.toContain("2a02:a440");
  });

  it("stores nothing of a heartbeat: the visitor row stays that of its page view", async () => {
    const id = sessionId();
    await h.visit({ sessionId: id, page: "/fleet-management" });
    h.clock.advance(30_000);
    await h.heartbeat({ sessionId: id });
    await h.settle();
    const row = (
      await db.query(
        `SELECT v.first_seen, v.views, p.path AS page FROM tracking.visitors v
         JOIN tracking.pages p ON p.id = v.landing_page_id WHERE v.session_key = tracking.key64($1)`,
        [id],
      )
    ).rows[0];
    expect(row.first_seen.getTime()).toBe(h.clock.now() - 30_000);
    expect(row.page).toBe("/fleet-management");
    expect(row.views).toBe(1);
    expect(
      await countRows(
        "SELECT count(*) AS n FROM tracking.page_views WHERE session_key = tracking.key64($1)",
        [id],
      ),
    ).toBe(1);
  });

  it("serves unique visitors and page views per hour from Postgres", async () => {
    const at = h.clock.now();
    const res = await h.get<VisitorSeries>("/api/admin/visitor-series?range=24h");
    expect(res.range).toBe("24h");
    expect(res.buckets).toHaveLength(24);
    const last = res.buckets.at(-1)!;
    expect(Date.parse(last.start)).toBeLessThanOrEqual(at);
    expect(last.pageViews).toBeGreaterThanOrEqual(300);
    expect(last.visitors).toBeGreaterThanOrEqual(30);
    const days = await h.get<VisitorSeries>("/api/admin/visitor-series?range=30d");
    expect(days.buckets).toHaveLength(30);
    expect(days.buckets.at(-1)!.pageViews).toBeGreaterThanOrEqual(last.pageViews);
    const bad = await fetch(`${h.svc.url}/api/admin/visitor-series?range=1y`, {
      headers: { cookie: await h.adminCookie() },
    });
    expect(bad.status).toBe(400);
  });

  it("buckets the 7-day series by Amsterdam day", async () => {
    const saved = h.clock.ms;
    const [a, b] = [sessionId(), sessionId()];
    try {
      for (const [at, id, page] of [
        ["2027-03-30T21:30:00Z", a, "/"],
        ["2027-03-30T22:30:00Z", a, "/"],
        ["2027-03-31T09:00:00Z", a, "/over-ons"],
        ["2027-03-31T10:00:00Z", b, "/"],
      ] as const) {
        h.clock.ms = Date.parse(at);
        await h.visit({ sessionId: id, page });
      }
      h.clock.ms = Date.parse("2027-03-31T12:00:00Z"); // summer time since 28 March: UTC+2
      await h.settle();
      const res = await h.get<VisitorSeries>("/api/admin/visitor-series?range=7d");
      expect(res.buckets).toHaveLength(7);
      expect(res.buckets.at(-1)).toEqual({ start: "2027-03-30T22:00:00.000Z", visitors: 2, pageViews: 3 });
      expect(res.buckets.at(-2)).toEqual({ start: "2027-03-29T22:00:00.000Z", visitors: 1, pageViews: 1 });
      expect(res.buckets[0]!.start).toBe("2027-03-24T23:00:00.000Z"); // still winter time: UTC+1
    } finally {
      h.clock.ms = saved;
    }
  });
});

describe("Redis outage", () => {
  let redis: OwnRedis;
  let own: Harness;
  beforeAll(async () => {
    redis = await startOwnRedis();
    own = await startHarness({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await redis.start().catch(() => undefined);
    await own?.close();
    await redis?.stop();
  });

  it("answers 503 with Retry-After (never a false 204) and counts the dropped hit", async () => {
    expect((await own.visit({ sessionId: sessionId(), page: "/" })).status).toBe(204);
    await redis.stop();
    const res = await own.visit({ sessionId: sessionId(), page: "/" });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBeTruthy();
    expect((await own.heartbeat({ sessionId: sessionId() })).status).toBe(503);
    expect(await metric(own.svc.metricsUrl, "tracking_hits_total", 'kind="visit",outcome="dropped"')).toBe(1);
    expect(
      await metric(own.svc.metricsUrl, "tracking_hits_total", 'kind="heartbeat",outcome="dropped"'),
    ).toBe(1);
  });
});

/** A page-view event as the record script writes it, straight into `stream`. */
const addEvent = (redis: Redis, stream: string, session: string, at: string, page: string) =>
  redis.xadd(stream, "*", "s", session, "t", String(Date.parse(at)), "p", page, "v", "1", "r", "", "u", "ua");

describe("stream durability", () => {
  it("writes at once the events whose delivery Redis logged but never answered (killed mid-reply)", async () => {
    const prefix = testRedisPrefix("treply");
    const target = new URL(baseRedisUrl());
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    const redis = new Redis(baseRedisUrl());
    const stream = `${prefix}:tracking:stream`;
    let own: Harness | undefined;
    try {
      // Idle entries are claimed after 30 s: not what this test waits for. A read blocks 1 s.
      const env = {
        ...h.env,
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
        REDIS_PREFIX: prefix,
        STREAM_CLAIM_IDLE_MS: "30000",
        FLUSH_INTERVAL_MS: "1000",
      };
      own = await startHarness(env, h.clock, { env, db: h.db });
      await new Promise((r) => setTimeout(r, 300)); // the writer's read is blocked in Redis now
      proxy.swallowReplies();
      const id = await addEvent(redis, stream, "session-midreply-1", "2026-11-18T09:30:00Z", "/mid-reply");
      // Delivered to the writer (pending under its name), its answer lost on the way.
      await waitFor(
        async () => ((await redis.xpending(stream, STREAM_GROUP)) as [number])[0] === 1,
        5000,
        "the event delivered",
        20,
      );
      proxy.dropConnections();
      const written = () =>
        countRows(
          `SELECT count(*) AS n FROM tracking.page_views
           WHERE event_key = tracking.key32($1) AND occurred_at = '2026-11-18T09:30:00Z'`,
          [id],
        );
      await waitFor(
        async () => (await written()) === 1,
        5000,
        "the page view written after the reconnect",
        50,
      );
      expect(await written()).toBe(1);
      expect(((await redis.xpending(stream, STREAM_GROUP)) as [number])[0]).toBe(0);
    } finally {
      await own?.svc.stop();
      await proxy.close();
      await redis.del(stream);
      redis.disconnect();
    }
  });

  it("writes events a crashed replica had read but never acknowledged", async () => {
    const prefix = testRedisPrefix("tclaim");
    const redis = new Redis(baseRedisUrl());
    const stream = `${prefix}:tracking:stream`;
    let other: Harness | undefined;
    try {
      await redis.xgroup("CREATE", stream, STREAM_GROUP, "0", "MKSTREAM");
      const fields = ["s", "session-crash1-1700000000000", "t", String(Date.parse("2026-11-18T09:00:00Z"))];
      const id = await redis.xadd(
        stream,
        "*",
        ...fields,
        "p",
        "/crashed",
        "v",
        "1",
        "r",
        "",
        "u",
        "ua",
        "i",
        "",
        "ci",
        "",
        "co",
        "",
      );
      await redis.call(
        "XREADGROUP",
        "GROUP",
        STREAM_GROUP,
        "crashed-pod",
        "COUNT",
        10,
        "STREAMS",
        stream,
        ">",
      );
      await new Promise((r) => setTimeout(r, 250));
      other = await startHarness({ REDIS_PREFIX: prefix, STREAM_CLAIM_IDLE_MS: "200" }, h.clock, {
        env: { ...h.env, REDIS_PREFIX: prefix, STREAM_CLAIM_IDLE_MS: "200" },
        db: h.db,
      });
      const written = () =>
        countRows(
          `SELECT count(*) AS n FROM tracking.page_views
           WHERE event_key = tracking.key32($1) AND occurred_at = '2026-11-18T09:00:00Z'`,
          [id],
        );
      await waitFor(async () => (await written()) === 1, 5000, "the claimed page view written", 50);
      expect(await written()).toBe(1);
      const pending = (await redis.xpending(stream, STREAM_GROUP)) as [number, ...unknown[]];
      expect(pending[0]).toBe(0);
    } finally {
      await other?.svc.stop();
      await redis.del(stream);
      redis.disconnect();
    }
  });
});
