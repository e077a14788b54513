import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "./logger";

export type { Redis };

/**
 * Connections are kept apart by role: a subscriber cannot run commands, and BullMQ needs
 * `maxRetriesPerRequest: null` while request paths must fail fast when Redis is down.
 */
export type RedisRole = "commands" | "subscriber" | "bullmq";

const ROLE_OPTIONS: Record<RedisRole, RedisOptions> = {
  // Fail at once while disconnected, so a request path can skip Redis instead of hanging.
  // Auto-pipelining sends every command issued in one event-loop turn in one write: under a burst
  // of visits that is one syscall (and one Redis read) for many hits instead of one each.
  commands: {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    enableAutoPipelining: true,
  },
  subscriber: { maxRetriesPerRequest: null, connectTimeout: 2000 },
  bullmq: { maxRetriesPerRequest: null, enableOfflineQueue: true, connectTimeout: 2000 },
};

export function createRedis(url: string, role: RedisRole, logger: Logger): Redis {
  const redis = new Redis(url, {
    ...ROLE_OPTIONS[role],
    lazyConnect: false,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
  });
  let down = false;
  redis.on("error", (err: Error) => {
    if (!down) logger.warn({ role, err: err.message }, "redis unavailable");
    down = true;
  });
  redis.on("ready", () => {
    if (down) logger.info({ role }, "redis back");
    down = false;
  });
  return redis;
}

export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (
    /Stream isn't writeable|Connection is closed|enableOfflineQueue|MaxRetriesPerRequest|Reached the max retries|ECONNREFUSED.*6379|connect ETIMEDOUT/i.test(
      err.message,
    ) || err.name === "MaxRetriesPerRequestError"
  );
}

/** Builds namespaced Redis keys and channel names: `${prefix}:${parts.join(":")}`. */
export function keyspace(prefix: string) {
  return (...parts: (string | number)[]) => [prefix, ...parts].join(":");
}
export type Keyspace = ReturnType<typeof keyspace>;

export async function pingRedis(redis: Redis): Promise<void> {
  if (redis.status !== "ready") throw new Error(`redis ${redis.status}`);
  await redis.ping();
}

export async function closeRedis(redis: Redis): Promise<void> {
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
