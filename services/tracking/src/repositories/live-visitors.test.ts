import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, createRedis, keyspace, type Redis } from "@lease/platform";
import { baseRedisUrl, testRedisPrefix } from "@lease/platform/testing";
import { BacklogFullError, LiveVisitors, type Hit } from "./live-visitors";

let redis: Redis;
const prefixes: string[] = [];
/** A keyspace of its own per test, so each one measures only its own keys. */
const freshKeys = () => {
  const prefix = testRedisPrefix(`lv${prefixes.length}`);
  prefixes.push(prefix);
  return { prefix, keys: keyspace(prefix) };
};
beforeAll(async () => {
  redis = createRedis(baseRedisUrl(), "commands", createLogger("test", "silent"));
  if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
});
afterAll(async () => {
  for (const prefix of prefixes) {
    const found = await redis.keys(`${prefix}:*`);
    if (found.length > 0) await redis.del(...found);
  }
  redis.disconnect();
});

const NOW = Date.now();
const hit = (i: number, over: Partial<Hit> = {}): Hit => ({
  sessionId: `session-bl${i}-1700000000000`,
  page: { path: "/", withQuery: "/" },
  userAgent: "Mozilla/5.0",
  ipPrefix: "145.53.1.0/24",
  anonymous: false,
  block: "145.53.1.0/24",
  sourceTag: "tag-1",
  city: "Amsterdam",
  country: "NL",
  at: NOW,
  ...over,
});

/** Bytes Redis holds for the keys under a prefix (MEMORY USAGE, every key sampled whole). */
async function bytesUnder(prefix: string): Promise<number> {
  let total = 0;
  for (const key of await redis.keys(`${prefix}:*`))
    total += Number(await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0"));
  return total;
}

describe("the stream backlog bound", () => {
  // While Postgres is away events pile up in Redis; at the bound new hits are refused (the route
  // answers 503) and no accepted event is ever trimmed away.
  it("refuses hits once the backlog is full and keeps every event it accepted", async () => {
    const { keys } = freshKeys();
    const live = new LiveVisitors(redis, keys, { activeWindowMs: 300_000, backlogMax: 10 });
    for (let i = 0; i < 10; i++) await live.record(hit(i));
    expect(await redis.xlen(live.streamKey)).toBe(10);

    await expect(live.record(hit(10))).rejects.toBeInstanceOf(BacklogFullError);
    // Nothing of the refused hit was written: not in the stream, not among the visitors.
    const entries = await redis.xrange(live.streamKey, "-", "+");
    expect(entries.map(([, fields]) => fields[fields.indexOf("s") + 1])).toEqual(
      Array.from({ length: 10 }, (_, i) => `session-bl${i}-1700000000000`),
    );
    expect(await redis.exists(keys("tracking", "visitor", hit(10).sessionId))).toBe(0);

    // Once the writer has caught up (it deletes what it wrote), hits are taken again.
    await redis.xdel(live.streamKey, ...entries.slice(0, 5).map(([id]) => id));
    await live.record(hit(11));
    expect(await redis.xlen(live.streamKey)).toBe(6);
  });
});

describe("the per-address budget", () => {
  it("records at most the budget's new sessions per address block and minute, and nothing of the rest", async () => {
    const { keys } = freshKeys();
    const live = new LiveVisitors(redis, keys, {
      activeWindowMs: 300_000,
      budget: { newSessionsPerMinute: 50, hitsPerMinute: 1000 },
    });
    const minute = Math.floor(NOW / 60_000) * 60_000;
    const flood = await Promise.all(
      Array.from({ length: 400 }, (_, i) => live.record(hit(i, { at: minute + 1000 }))),
    );
    expect(flood.filter(Boolean)).toHaveLength(50);
    expect(await redis.zcard(keys("tracking", "active"))).toBe(50);
    expect(await redis.xlen(live.streamKey)).toBe(50);
    expect(await redis.keys(keys("tracking", "visitor", "*"))).toHaveLength(50);
    // The recorded sessions go on (a page view of a known session is no new session) ...
    expect(await live.record(hit(0, { at: minute + 2000 }))).toBe(true);
    // ... another block has a budget of its own, also with the same address in IPv6 form elsewhere,
    expect(await live.record(hit(1000, { block: "145.53.2.0/24", at: minute + 2000 }))).toBe(true);
    // and the next minute brings a new budget.
    expect(await live.record(hit(2000, { at: minute + 61_000 }))).toBe(true);
  });

  it("counts page views and heartbeats against the block's hits of the minute", async () => {
    const { keys } = freshKeys();
    const live = new LiveVisitors(redis, keys, {
      activeWindowMs: 300_000,
      budget: { newSessionsPerMinute: 10, hitsPerMinute: 30 },
    });
    const minute = Math.floor(NOW / 60_000) * 60_000 + 1000;
    const views = await Promise.all(Array.from({ length: 20 }, () => live.record(hit(1, { at: minute }))));
    const beats = await Promise.all(
      Array.from({ length: 20 }, () => live.record(hit(1, { page: undefined, at: minute }))),
    );
    expect([...views, ...beats].filter(Boolean)).toHaveLength(30);
    expect(await redis.xlen(live.streamKey)).toBe(30);
    // A refused hit that would have started a session does not use up a new session either.
    expect(await live.record(hit(2, { at: minute }))).toBe(false);
    expect(await live.record(hit(3, { block: "2a02:a440:1:2::/64", at: minute }))).toBe(true);
  });

  it("grows Redis by a bounded amount whatever the size of a one-address flood", async () => {
    // 20 MB for 100,000 beacons is the promise; with the default budget a flood of 5,000 must
    // stay under its share (1 MB), and a flood twice that size must not grow Redis further.
    const { prefix, keys } = freshKeys();
    const live = new LiveVisitors(redis, keys, { activeWindowMs: 300_000 });
    const at = Math.floor(NOW / 60_000) * 60_000 + 1000;
    const ua =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0";
    const flood = (from: number, n: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          live.record(
            hit(from + i, { userAgent: ua, page: { path: "(overig)", withQuery: "(overig)" }, at }),
          ),
        ),
      );
    const first = await flood(0, 5000);
    const afterFirst = await bytesUnder(prefix);
    const second = await flood(5000, 10_000);
    const afterSecond = await bytesUnder(prefix);
    expect(first.filter(Boolean)).toHaveLength(300);
    expect(second.filter(Boolean)).toHaveLength(0);
    expect(afterFirst).toBeLessThan(1024 * 1024);
    expect(afterSecond - afterFirst).toBeLessThan(4096);
    // Every key it left is bounded: a time to live, or (the active set, the stream) a size bound.
    for (const key of await redis.keys(`${prefix}:*`)) {
      const bounded = key === keys("tracking", "active") || key === live.streamKey;
      if (!bounded) expect(await redis.pttl(key), key).toBeGreaterThan(0);
    }
  });
});

describe("the live set's size bound", () => {
  it("keeps at most the bound's sessions: the ones seen longest ago leave, with their hashes", async () => {
    const { keys } = freshKeys();
    const live = new LiveVisitors(redis, keys, { activeWindowMs: 300_000, activeMax: 20 });
    for (let i = 0; i < 50; i++) await live.record(hit(i, { block: `10.0.${i}.0/24`, at: NOW + i }));
    const kept = await redis.zrange(keys("tracking", "active"), 0, -1);
    expect(kept).toEqual(Array.from({ length: 20 }, (_, i) => hit(30 + i).sessionId));
    expect(await redis.keys(keys("tracking", "visitor", "*"))).toHaveLength(20);
    expect((await live.active(NOW + 50, 0, 200)).map((v) => v.id)).toHaveLength(20);
  });
});

describe("the live list a page at a time", () => {
  it("answers `limit` from `offset`, most recently seen first, and counts them all", async () => {
    const { keys } = freshKeys();
    const live = new LiveVisitors(redis, keys, { activeWindowMs: 300_000 });
    for (let i = 0; i < 60; i++) await live.record(hit(i, { block: `10.1.${i}.0/24`, at: NOW + i }));
    const ids = async (offset: number, limit: number) =>
      (await live.active(NOW + 60, offset, limit)).map((v) => v.id);
    const newest = Array.from({ length: 60 }, (_, i) => hit(59 - i).sessionId);
    expect(await ids(0, 25)).toEqual(newest.slice(0, 25));
    expect(await ids(25, 25)).toEqual(newest.slice(25, 50));
    expect(await ids(50, 25)).toEqual(newest.slice(50));
    expect(await ids(75, 25)).toEqual([]);
    expect(await live.currentActive(NOW + 60)).toBe(60);
  });
});
