import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyspace, type Redis } from "@lease/platform";
import { testRedisPrefix } from "@lease/platform/testing";
import { connectRedis } from "../testing";
import { DEFAULT_THROTTLE, loginThrottle, type ThrottleOptions } from "./login-throttle";

// The sign-in brake with short windows (milliseconds instead of minutes) against real Redis.

let redis: Redis;
beforeAll(async () => {
  redis = await connectRedis();
});
afterAll(() => redis.disconnect());

const short: ThrottleOptions = {
  maxFailures: 5,
  maxAddressFailures: 8,
  windowMs: 600,
  baseLockMs: 300,
  maxLockMs: 1000,
  levelMemoryMs: 60_000,
  knownAddressMs: 60_000,
  knownAddressMax: 3,
};
const fresh = (options = short) => loginThrottle(redis, keyspace(testRedisPrefix()), options);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Throttle = ReturnType<typeof fresh>;

async function fail(t: Throttle, username: string, ip: string, times: number) {
  for (let i = 0; i < times; i++) {
    const verdict = await t.begin(username, ip);
    expect(verdict.allowed, `attempt ${i + 1} of ${username} from ${ip}`).toBe(true);
    await t.failed(username, ip);
  }
}

/** Milliseconds until the pair may try again (polls in small steps). */
async function lockedFor(t: Throttle, username: string, ip: string): Promise<number> {
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
  it("uses the documented defaults: 5 per username and address, 20 per address, 15 minutes, up to an hour", () => {
    expect(DEFAULT_THROTTLE).toMatchObject({
      maxFailures: 5,
      maxAddressFailures: 20,
      windowMs: 15 * 60_000,
      baseLockMs: 15 * 60_000,
      maxLockMs: 60 * 60_000,
    });
  });

  it("allows 5 failures per username from one address, then refuses with a Retry-After, then lets it in", async () => {
    const t = fresh();
    await fail(t, "admin", "10.0.0.1", 5);
    const verdict = await t.begin("admin", "10.0.0.1");
    expect(verdict).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    const waited = await lockedFor(t, "admin", "10.0.0.1");
    expect(waited).toBeGreaterThan(150);
    expect(waited).toBeLessThan(1000);
  });

  it("doubles the lockout of a pair on each further lockout, up to the cap", async () => {
    const t = fresh({ ...short, maxAddressFailures: 100 });
    const locks: number[] = [];
    for (let round = 0; round < 3; round++) {
      await fail(t, "admin", "10.0.0.2", 5);
      const verdict = await t.begin("admin", "10.0.0.2");
      if (verdict.allowed) throw new Error("expected a lockout");
      locks.push(verdict.retryAfterMs);
      await lockedFor(t, "admin", "10.0.0.2");
    }
    // 300 ms, 600 ms, then capped at 1000 ms instead of 1200 ms.
    expect(locks[0]).toBeGreaterThan(200);
    expect(locks[0]).toBeLessThanOrEqual(300);
    expect(locks[1]).toBeGreaterThan(500);
    expect(locks[1]).toBeLessThanOrEqual(600);
    expect(locks[2]).toBeGreaterThan(900);
    expect(locks[2]).toBeLessThanOrEqual(1000);
  });

  it("locks an address that fails across many usernames for every username", async () => {
    const t = fresh();
    for (let i = 0; i < 4; i++) await fail(t, `gok${i}`, "10.0.0.3", 2);
    const verdict = await t.begin("nog-een-naam", "10.0.0.3");
    expect(verdict.allowed).toBe(false);
    expect((await t.begin("admin", "10.0.0.3")).allowed).toBe(false);
    // Another address is not affected.
    expect((await t.begin("admin", "10.0.0.4")).allowed).toBe(true);
  });

  it("never locks the owner out: rotating addresses each get one guess, an address without failures its check", async () => {
    // Thirty addresses in turn take longer than the short window on a busy host: a window of its own.
    const window = { ...short, windowMs: 30_000, baseLockMs: 15_000, maxLockMs: 30_000 };
    const t = fresh(window);
    const attackers = Array.from({ length: 30 }, (_, i) => `198.51.100.${i + 1}`);
    for (const ip of attackers) {
      const first = await t.begin("admin", ip);
      expect(first.allowed, ip).toBe(true);
      await t.failed("admin", ip);
    }
    // Under attack now: an address that failed for the username waits for the window...
    const again = await t.begin("admin", attackers[0]!);
    expect(again.allowed).toBe(false);
    if (!again.allowed) expect(again.retryAfterMs).toBeLessThanOrEqual(window.windowMs);
    // ...and does not even reach its fifth guess; the owner's clean address is checked.
    expect((await t.begin("admin", attackers[7]!)).allowed).toBe(false);
    expect((await t.begin("admin", "203.0.113.50")).allowed).toBe(true);
    await t.succeeded("admin", "203.0.113.50");
    // Another username, from an attacker's address, is not slowed.
    expect((await t.begin("someone-else", attackers[0]!)).allowed).toBe(true);
  });

  it("counts an IPv6 /64 as one address, so rotating within it does not help", async () => {
    const t = fresh();
    for (let i = 1; i <= 5; i++) await fail(t, "admin", `2001:db8:7:7::${i.toString(16)}`, 1);
    expect((await t.begin("admin", "2001:db8:7:7:ffff::1")).allowed).toBe(false);
    expect((await t.begin("admin", "2001:db8:7:8::1")).allowed).toBe(true);
  });

  it("forgets failures when the window passes without a lockout", async () => {
    const t = fresh();
    await fail(t, "admin", "10.0.0.5", 4);
    await sleep(short.windowMs + 50);
    await fail(t, "admin", "10.0.0.5", 4);
    expect((await t.begin("admin", "10.0.0.5")).allowed).toBe(true);
  });

  it("a success clears the pair and the username and does not count against the address", async () => {
    const t = fresh();
    await fail(t, "admin", "10.0.0.6", 4);
    expect((await t.begin("admin", "10.0.0.6")).allowed).toBe(true);
    await t.succeeded("admin", "10.0.0.6");
    // The pair starts over: 4 + 3 would be past 5 otherwise.
    await fail(t, "admin", "10.0.0.6", 3);
    // 7 failures on the address; the success gave back its own attempt, so this is the 8th.
    expect((await t.begin("other", "10.0.0.6")).allowed).toBe(true);
  });

  it("says whether the address is one the username signed in from before", async () => {
    const t = fresh();
    expect(await t.begin("known-user", "10.0.3.1")).toEqual({ allowed: true, knownAddress: false });
    await t.succeeded("known-user", "10.0.3.1");
    expect(await t.begin("known-user", "10.0.3.1")).toEqual({ allowed: true, knownAddress: true });
    await t.succeeded("known-user", "10.0.3.1");
    // Known for that username only, and never for a username that does not exist.
    expect(await t.begin("another-user", "10.0.3.1")).toEqual({ allowed: true, knownAddress: false });
    expect(await t.begin("known-user", "10.0.3.2")).toEqual({ allowed: true, knownAddress: false });
  });

  it("counts an attempt refused unchecked (a full gate) against the address, never the username", async () => {
    const t = fresh();
    // More than maxFailures attempts of one pair, none checked: the pair is not locked...
    for (let i = 0; i < short.maxAddressFailures; i++) {
      expect((await t.begin("admin", "10.0.4.1")).allowed, `attempt ${i + 1}`).toBe(true);
      await t.unchecked("admin", "10.0.4.1");
    }
    // ...but the address spent its budget: the next attempt, for any username, locks it.
    expect((await t.begin("someone", "10.0.4.1")).allowed).toBe(false);
    // The username is not under attack for it: a fresh address of the owner is checked.
    expect((await t.begin("admin", "10.0.4.2")).allowed).toBe(true);
  });

  it("counts a username regardless of its letter case", async () => {
    const t = fresh();
    await fail(t, "Admin", "10.0.1.1", 3);
    await fail(t, "ADMIN", "10.0.1.1", 2);
    expect((await t.begin("admin", "10.0.1.1")).allowed).toBe(false);
  });
});
