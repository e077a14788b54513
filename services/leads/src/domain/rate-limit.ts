import type { Keyspace, Logger, Redis } from "@lease/platform";
import { HttpError, withTimeout } from "@lease/platform";

export const RATE_LIMIT_MESSAGE =
  "U heeft te veel aanvragen verstuurd. Probeer het over enkele minuten opnieuw.";

export interface RateLimiter {
  /** Counts one submission; throws 429 with Retry-After when over the limit. Skipped while Redis is down. */
  hit(bucket: string, clientIp: string, log: Logger): Promise<void>;
}

/** Fixed window per client IP in Redis. A Redis outage never refuses a lead: the limit is skipped. */
export function redisRateLimiter(
  redis: Redis,
  keys: Keyspace,
  limit: number,
  windowSeconds: number,
): RateLimiter {
  return {
    async hit(bucket, clientIp, log) {
      const key = keys("ratelimit", bucket, clientIp);
      let count: number;
      let ttl: number;
      try {
        const result = await withTimeout(
          redis.multi().incr(key).expire(key, windowSeconds, "NX").ttl(key).exec(),
          500,
        );
        count = Number(result?.[0]?.[1]);
        ttl = Number(result?.[2]?.[1]);
      } catch (err) {
        log.warn({ err: (err as Error).message }, "rate limit skipped: redis unavailable");
        return;
      }
      if (count > limit) {
        throw new HttpError(429, "rate_limited", RATE_LIMIT_MESSAGE, undefined, {
          "Retry-After": String(ttl > 0 ? ttl : windowSeconds),
        });
      }
    },
  };
}
