import { afterAll, describe, expect, it } from "vitest";
import { QUEUES } from "@lease/contracts";
import { createLogger } from "./logger";
import { createQueueClient, createWorker } from "./queue";
import { closeRedis, createRedis } from "./redis";
import { baseRedisUrl, testRedisPrefix } from "./testing";

// A service stopped right after it started (a test restarting it, a deploy rolled back at once)
// closes its worker and queues while their connections may still be starting, then quits the
// shared BullMQ connection. Nothing of that may end as an unhandled rejection ("Connection is
// closed"): Node would crash the process on it, and vitest fails the run.

describe("a worker and a queue closed while they start", () => {
  const prefix = testRedisPrefix("queue-close");
  const log = createLogger("test", "silent");
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  process.on("unhandledRejection", onUnhandled);
  afterAll(() => {
    process.off("unhandledRejection", onUnhandled);
  });

  it("shuts down without an unhandled rejection, however soon after the start", async () => {
    for (let i = 0; i < 30; i++) {
      const bull = createRedis(baseRedisUrl(), "bullmq", log);
      const worker = createWorker({
        connection: bull,
        redisPrefix: prefix,
        queue: QUEUES.audit,
        handlers: { "audit.record": async () => undefined },
        logger: log,
      });
      const queue = createQueueClient(bull, prefix);
      queue.raw(QUEUES.audit);
      // The moments that matter: the shared connection just connected or just ready (the
      // worker's blocking connection then still in its ready check), or a few turns later.
      if (i % 3 === 0) await new Promise((resolve) => bull.once("ready", resolve));
      else if (i % 3 === 1) await new Promise((resolve) => bull.once("connect", resolve));
      else for (let t = 0; t < i; t++) await new Promise((resolve) => setImmediate(resolve));
      // The order of a service's stop: its hooks (worker, then queues), then the kit's connections.
      await worker.close();
      await queue.close();
      await closeRedis(bull);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(unhandled.map((e) => (e as Error).message)).toEqual([]);
  });
});
