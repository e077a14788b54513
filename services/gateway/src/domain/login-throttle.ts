import type { Keyspace, Redis } from "@lease/platform";

export interface ThrottleOptions {
  /** Failures allowed per username and per IP within the window. */
  maxFailures: number;
  windowMs: number;
  /** First IP lockout; each further one doubles, up to maxLockMs. */
  baseLockMs: number;
  maxLockMs: number;
  /** How long an IP's lockout level is remembered (for the doubling). */
  levelMemoryMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = {
  maxFailures: 5,
  windowMs: 15 * 60_000,
  baseLockMs: 15 * 60_000,
  maxLockMs: 60 * 60_000,
  levelMemoryMs: 24 * 60 * 60_000,
};

export type AttemptVerdict =
  { allowed: true } | { allowed: false; retryAfterMs: number; retryAfterSeconds: number };

/**
 * Brute-force brake for admin sign-in, kept in Redis so every gateway replica shares it.
 *
 * - Per IP: after maxFailures failures in the window the IP is locked; every further lockout of
 *   that IP doubles the wait (15 min, 30 min, 60 min cap).
 * - Per username: after maxFailures failures in the window the username is refused from every IP
 *   until that window ends. It never doubles, so an attacker elsewhere can keep the real admin
 *   out for at most one window, and that attacker's own IP is locked meanwhile.
 * - An attempt is counted before its password is checked, so a burst of parallel guesses cannot
 *   slip past the limit; a success gives the IP its attempt back and resets the username.
 */
export function loginThrottle(redis: Redis, keys: Keyspace, options: Partial<ThrottleOptions> = {}) {
  const o = { ...DEFAULT_THROTTLE, ...options };
  const k = {
    user: (u: string) => keys("login", "fails", "user", u.toLowerCase()),
    ip: (ip: string) => keys("login", "fails", "ip", ip),
    ipLock: (ip: string) => keys("login", "lock", "ip", ip),
    ipLevel: (ip: string) => keys("login", "level", "ip", ip),
  };
  const refuse = (ms: number): AttemptVerdict => ({
    allowed: false,
    retryAfterMs: ms,
    retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
  });

  /** Locks an IP unless it already is; only the lock that is set raises the doubling level. */
  async function lockIp(ip: string): Promise<void> {
    const level = Number((await redis.get(k.ipLevel(ip))) ?? 0) + 1;
    const ms = Math.min(o.baseLockMs * 2 ** (level - 1), o.maxLockMs);
    const set = await redis.set(k.ipLock(ip), String(level), "PX", ms, "NX");
    if (set !== "OK") return;
    await redis.multi().set(k.ipLevel(ip), String(level), "PX", o.levelMemoryMs).del(k.ip(ip)).exec();
  }

  /** Gives back a reserved attempt; never creates a counter that has expired meanwhile. */
  const giveBack = (key: string) =>
    redis.eval(
      "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return 0",
      1,
      key,
    );

  return {
    options: o,
    /** Reserves one attempt, or says how long to wait. */
    async begin(username: string, ip: string): Promise<AttemptVerdict> {
      const ipLockMs = await redis.pttl(k.ipLock(ip));
      if (ipLockMs > 0) return refuse(ipLockMs);
      const res = await redis
        .multi()
        .incr(k.user(username))
        .pexpire(k.user(username), o.windowMs, "NX")
        .incr(k.ip(ip))
        .pexpire(k.ip(ip), o.windowMs, "NX")
        .pttl(k.user(username))
        .exec();
      const userCount = Number(res?.[0]?.[1] ?? 0);
      const ipCount = Number(res?.[2]?.[1] ?? 0);
      const userTtl = Number(res?.[4]?.[1] ?? 0);
      if (ipCount > o.maxFailures) {
        await lockIp(ip);
        return refuse(Math.max(await redis.pttl(k.ipLock(ip)), 1));
      }
      if (userCount > o.maxFailures) {
        // Refused attempts do not count against the IP: only real password checks do.
        await giveBack(k.ip(ip));
        return refuse(userTtl > 0 ? userTtl : o.windowMs);
      }
      return { allowed: true };
    },
    /** The reserved attempt failed; the IP is locked when it reached the limit. */
    async failed(_username: string, ip: string): Promise<void> {
      const ipCount = Number((await redis.get(k.ip(ip))) ?? 0);
      if (ipCount >= o.maxFailures) await lockIp(ip);
    },
    /** The reserved attempt succeeded: the username starts over, the IP gets its attempt back. */
    async succeeded(username: string, ip: string): Promise<void> {
      await redis.del(k.user(username));
      await giveBack(k.ip(ip));
    },
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
