import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, createRedis, keyspace, type Redis } from "@lease/platform";
import { baseRedisUrl, testRedisPrefix } from "@lease/platform/testing";
import { BacklogFullError, LiveVisitors, type Hit } from "./live-visitors";

// The stream's backlog bound: while Postgres is away events pile up in Redis; at the bound new
// hits are refused (the route answers 503) and no accepted event is ever trimmed away.
let redis: Redis;
const prefix = testRedisPrefix("lvtest");
const keys = keyspace(prefix);
beforeAll(async () => {
  redis = createRedis(baseRedisUrl(), "commands", createLogger("test", "silent"));
  if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
});
afterAll(async () => {
  const found = await redis.keys(`${prefix}:*`);
  if (found.length > 0) await redis.del(...found);
  redis.disconnect();
});

const hit = (i: number): Hit => ({
  sessionId: `session-bl${i}-1700000000000`,
  page: "/",
  userAgent: "Mozilla/5.0",
  ip: "145.53.1.77",
  city: "Amsterdam",
  country: "NL",
  at: Date.now(),
});

describe("the stream backlog bound", () => {
  it("refuses hits once the backlog is full and keeps every event it accepted", async () => {
    const live = new LiveVisitors(redis, keys, 300_000, 10);
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
