import { withTimeout } from "./app";
import { addressBlock } from "./client-ip";
import { HttpError } from "./errors";
import type { Logger } from "./logger";
import type { Keyspace, Redis } from "./redis";

export const RATE_LIMIT_MESSAGE =
  "U heeft te veel aanvragen verstuurd. Probeer het over enkele minuten opnieuw.";

export interface RateLimiter {
  /** Counts one submission; throws 429 with Retry-After when over the limit. Never waits on a Redis that is away. */
  hit(bucket: string, clientIp: string, log: Logger): Promise<void>;
}

export interface RateLimiterOptions {
  /** The longest a hit waits for Redis before it is counted in memory instead (ms). */
  redisTimeoutMs?: number;
  /** After Redis failed or was slow, hits are counted in memory this long before Redis is tried again (ms). */
  redisRetryMs?: number;
  /** The in-memory fallback's bound: client windows it keeps at most (the oldest go first). */
  memoryEntries?: number;
  /** What a refused client reads (Dutch); the forms' message by default. */
  message?: string;
  now?: () => number;
}

/**
 * A fixed window per client address, counted in memory: the fallback while Redis is away. At most
 * `maxEntries` windows are kept; a new one beyond that drops the oldest (windows are kept in the
 * order they began, so the oldest is also the first to expire), so no flood of addresses grows it.
 * Per process: with several replicas a client may get the limit once per replica while it applies.
 */
export function memoryWindows(limit: number, windowSeconds: number, maxEntries: number) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    /** Counts one hit of `key`; answers the seconds until its window ends when over the limit. */
    hit(key: string, now: number): number | undefined {
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        windows.delete(key); // re-inserted at the end: the order stays the order windows began
        w = { count: 0, resetAt: now + windowSeconds * 1000 };
        windows.set(key, w);
        for (const oldest of windows.keys()) {
          if (windows.size <= maxEntries) break;
          windows.delete(oldest);
        }
      }
      w.count++;
      return w.count > limit ? Math.max(1, Math.ceil((w.resetAt - now) / 1000)) : undefined;
    },
    get size() {
      return windows.size;
    },
  };
}

/**
 * Fixed window per client address (an IPv6 address by its /64) in Redis, shared by every replica. The lead path never waits on Redis:
 * while the connection is not ready, after a failed or slow call (over `redisTimeoutMs`, e.g. a
 * Redis that hangs or restarts) and for `redisRetryMs` after one, hits are counted in memory
 * (memoryWindows, bounded), so a lead is never refused or delayed because Redis is away.
 */
export function redisRateLimiter(
  redis: Redis,
  keys: Keyspace,
  limit: number,
  windowSeconds: number,
  opts: RateLimiterOptions = {},
): RateLimiter {
  const timeoutMs = opts.redisTimeoutMs ?? 200;
  const retryMs = opts.redisRetryMs ?? 2000;
  const now = opts.now ?? Date.now;
  const memory = memoryWindows(limit, windowSeconds, opts.memoryEntries ?? 10_000);
  let skipRedisUntil = 0;
  let inMemory = false;

  const tooMany = (retryAfter: number) =>
    new HttpError(429, "rate_limited", opts.message ?? RATE_LIMIT_MESSAGE, undefined, {
      "Retry-After": String(retryAfter),
    });

  /** The count and seconds left of the key's window in Redis; undefined when Redis cannot say now. */
  async function fromRedis(key: string, log: Logger): Promise<{ count: number; ttl: number } | undefined> {
    if (now() < skipRedisUntil) return undefined;
    if (redis.status !== "ready") {
      if (!inMemory) log.warn({ status: redis.status }, "rate limit counted in memory: redis not connected");
      inMemory = true;
      return undefined;
    }
    try {
      const result = await withTimeout(
        redis.multi().incr(key).expire(key, windowSeconds, "NX").ttl(key).exec(),
        timeoutMs,
      );
      if (inMemory) log.info("rate limit counted in Redis again");
      inMemory = false;
      return { count: Number(result?.[0]?.[1]), ttl: Number(result?.[2]?.[1]) };
    } catch (err) {
      skipRedisUntil = now() + retryMs;
      if (!inMemory)
        log.warn({ err: (err as Error).message }, "rate limit counted in memory: redis unavailable");
      inMemory = true;
      return undefined;
    }
  }

  return {
    async hit(bucket, clientIp, log) {
      // Per party: an IPv4 address, an IPv6 /64 (a line holds a whole /64 and can rotate through it).
      const key = keys("ratelimit", bucket, addressBlock(clientIp));
      const counted = await fromRedis(key, log);
      if (!counted) {
        const retryAfter = memory.hit(key, now());
        if (retryAfter !== undefined) throw tooMany(retryAfter);
        return;
      }
      if (counted.count > limit) throw tooMany(counted.ttl > 0 ? counted.ttl : windowSeconds);
    },
  };
}
