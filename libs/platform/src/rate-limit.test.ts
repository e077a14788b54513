import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpError } from "@lease/platform";
import { createLogger, createRedis, keyspace, type Redis } from "@lease/platform";
import { startOwnRedis, type OwnRedis } from "@lease/platform/testing";
import { memoryWindows, redisRateLimiter } from "./rate-limit";

// A rate limit (the quote and contact forms', the inbound mail webhook's) never holds a request back
// on Redis: a Redis that is gone, restarting or hanging costs a hit at most one short timeout, after
// which the limit is kept in memory (bounded).

const log = createLogger("test", "silent");
const status = async (p: Promise<void>) => {
  try {
    await p;
    return 201;
  } catch (err) {
    return (err as HttpError).status;
  }
};

describe("the in-memory windows", () => {
  it("count per key within the window, then start again", () => {
    const m = memoryWindows(2, 60, 100);
    expect([m.hit("a", 0), m.hit("a", 1000), m.hit("b", 1000)]).toEqual([undefined, undefined, undefined]);
    expect(m.hit("a", 2000)).toBe(58); // over the limit: seconds left of a's window
    expect(m.hit("a", 60_000)).toBeUndefined(); // a new window
  });

  it("keep at most their bound, dropping the oldest window", () => {
    const m = memoryWindows(1, 60, 3);
    for (const key of ["a", "b", "c", "d", "e"]) m.hit(key, 0);
    expect(m.size).toBe(3);
    expect(m.hit("e", 1)).toBeDefined(); // kept: still over its limit
    expect(m.hit("a", 1)).toBeUndefined(); // dropped: counted afresh
    for (let i = 0; i < 50_000; i++) m.hit(`flood-${i}`, 2);
    expect(m.size).toBe(3);
  });
});

describe("the Redis limiter while Redis is away", () => {
  let own: OwnRedis;
  let redis: Redis;
  beforeAll(async () => {
    own = await startOwnRedis();
    redis = createRedis(own.url, "commands", log);
    await new Promise((resolve) => redis.once("ready", resolve));
  });
  afterAll(async () => {
    own.thaw();
    redis.disconnect();
    await own.stop();
  });

  it("keeps the limit in Redis, in memory while Redis hangs or is gone (never waiting on it), and in Redis again after", async () => {
    let clock = 1_000_000;
    const limiter = redisRateLimiter(redis, keyspace("rl-test"), 2, 600, {
      redisTimeoutMs: 200,
      redisRetryMs: 2000,
      now: () => clock,
    });
    // Bounded by far more than the timeout: a hit that waited on Redis would hang until it came back.
    const hit = (ip: string) =>
      Promise.race([
        status(limiter.hit("lease-request", ip, log)),
        new Promise<string>((r) => setTimeout(() => r("waited on Redis"), 10_000).unref()),
      ]);
    expect([await hit("1.1.1.1"), await hit("1.1.1.1"), await hit("1.1.1.1")]).toEqual([201, 201, 429]);
    expect(await redis.get("rl-test:ratelimit:lease-request:1.1.1.1")).toBe("3");

    own.freeze(); // connected, but no answer: a hung or overloaded Redis
    try {
      expect(await Promise.all([hit("2.2.2.2"), hit("2.2.2.2")])).toEqual([201, 201]);
      expect(await hit("2.2.2.2")).toBe(429); // the limit still holds, in memory
    } finally {
      own.thaw();
    }
    await own.stop(); // gone: refused connections
    clock += 5000;
    expect([await hit("3.3.3.3"), await hit("3.3.3.3"), await hit("3.3.3.3")]).toEqual([201, 201, 429]);

    // An IPv6 line is one party: its /64 shares one limit, whatever address of it sends.
    expect([
      await hit("2001:db8:1:2::1"),
      await hit("2001:db8:1:2:ffff::9"),
      await hit("2001:db8:1:2:abcd:1:2:3"),
      await hit("2001:db8:1:3::1"),
    ]).toEqual([201, 201, 429, 201]);

    await own.start();
    await new Promise((resolve) => (redis.status === "ready" ? resolve(null) : redis.once("ready", resolve)));
    clock += 5000;
    expect(await hit("4.4.4.4")).toBe(201);
    expect(await redis.get("rl-test:ratelimit:lease-request:4.4.4.4")).toBe("1");
  }, 30_000);
});
