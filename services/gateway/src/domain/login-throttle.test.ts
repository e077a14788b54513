import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyspace, type Redis } from "@lease/platform";
import { testRedisPrefix } from "@lease/platform/testing";
import { connectRedis } from "../test-support";
import { DEFAULT_THROTTLE, loginThrottle } from "./login-throttle";

// The lockout rules with short windows (milliseconds instead of minutes) against real Redis.

let redis: Redis;
beforeAll(async () => {
  redis = await connectRedis();
});
afterAll(() => redis.disconnect());

const short = { maxFailures: 5, windowMs: 600, baseLockMs: 300, maxLockMs: 1000, levelMemoryMs: 60_000 };
const fresh = (options = short) => loginThrottle(redis, keyspace(testRedisPrefix()), options);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fail(t: ReturnType<typeof fresh>, username: string, ip: string, times: number) {
  for (let i = 0; i < times; i++) {
    const verdict = await t.begin(username, ip);
    expect(verdict.allowed).toBe(true);
    await t.failed(username, ip);
  }
}

/** Milliseconds until the IP may try again (polls in small steps). */
async function lockedFor(t: ReturnType<typeof fresh>, username: string, ip: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const verdict = await t.begin(username, ip);
    if (verdict.allowed) {
      // Hand the reserved attempt back, as a successful sign-in would.
      await t.succeeded(username, ip);
      return Date.now() - started;
    }
    await sleep(20);
  }
}

describe("login throttle", () => {
  it("uses the issue's numbers by default: 5 failures in 15 minutes, lockouts up to an hour", () => {
    expect(DEFAULT_THROTTLE).toMatchObject({ maxFailures: 5, windowMs: 15 * 60_000, maxLockMs: 60 * 60_000 });
  });

  it("allows 5 failures, then refuses with a Retry-After in seconds, and lets the IP in after the lockout", async () => {
    const t = fresh();
    await fail(t, "admin", "10.0.0.1", 5);
    const verdict = await t.begin("admin", "10.0.0.1");
    expect(verdict).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    const waited = await lockedFor(t, "admin", "10.0.0.1");
    expect(waited).toBeGreaterThan(150);
    expect(waited).toBeLessThan(1000);
  });

  it("doubles the IP lockout on each further lockout, up to the cap", async () => {
    // A window shorter than the lockouts, so the username lock never hides the IP's.
    const t = fresh({ ...short, windowMs: 200 });
    const locks: number[] = [];
    for (let round = 0; round < 3; round++) {
      // Another username each round: only the IP's own history should matter.
      await fail(t, `user${round}`, "10.0.0.2", 5);
      const verdict = await t.begin(`user${round}`, "10.0.0.2");
      if (verdict.allowed) throw new Error("expected a lockout");
      locks.push(verdict.retryAfterMs);
      await lockedFor(t, `user${round}`, "10.0.0.2");
    }
    // 300 ms, 600 ms, then capped at 1000 ms instead of 1200 ms.
    expect(locks[0]).toBeGreaterThan(200);
    expect(locks[0]).toBeLessThanOrEqual(300);
    expect(locks[1]).toBeGreaterThan(500);
    expect(locks[1]).toBeLessThanOrEqual(600);
    expect(locks[2]).toBeGreaterThan(900);
    expect(locks[2]).toBeLessThanOrEqual(1000);
  });

  it("keeps the username locked from other IPs only until its window ends", async () => {
    const t = fresh();
    await fail(t, "admin", "10.0.0.3", 5);
    const elsewhere = await t.begin("admin", "10.0.0.4");
    expect(elsewhere.allowed).toBe(false);
    // The attacker's IP is locked too, so it cannot renew the username lock at once.
    expect((await t.begin("admin", "10.0.0.3")).allowed).toBe(false);
    const waited = await lockedFor(t, "admin", "10.0.0.4");
    expect(waited).toBeLessThanOrEqual(short.windowMs + 100);
  });

  it("forgets failures when the window passes without a lockout", async () => {
    const t = fresh();
    await fail(t, "admin", "10.0.0.5", 4);
    await sleep(short.windowMs + 50);
    await fail(t, "admin", "10.0.0.5", 4);
    expect((await t.begin("admin", "10.0.0.5")).allowed).toBe(true);
  });

  it("a success resets the username and does not count against the IP", async () => {
    const t = fresh();
    await fail(t, "admin", "10.0.0.6", 4);
    expect((await t.begin("admin", "10.0.0.6")).allowed).toBe(true);
    await t.succeeded("admin", "10.0.0.6");
    await fail(t, "other", "10.0.0.7", 4);
    await fail(t, "admin", "10.0.0.7", 0);
    expect((await t.begin("admin", "10.0.0.8")).allowed).toBe(true);
  });

  it("counts a username regardless of its letter case", async () => {
    const t = fresh();
    await fail(t, "Admin", "10.0.1.1", 3);
    await fail(t, "ADMIN", "10.0.1.2", 2);
    expect((await t.begin("admin", "10.0.1.3")).allowed).toBe(false);
  });
});
