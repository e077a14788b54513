import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { JOBS, JOB_BACKOFF_CAP_MS, JOB_RETRY_MS, QUEUES, cappedBackoffMs } from "@lease/contracts";
import { auditEvent } from "./audit";
import { createLogger } from "./logger";
import { createQueueClient, createWorker, failedJobsReport, retryFailedJobs } from "./queue";
import { closeRedis, createRedis } from "./redis";
import { baseRedisUrl, testRedisPrefix, waitFor } from "./testing";

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

// Every job carries data: it retries for a day with a capped backoff, and one that fails even then
// (or at once, e.g. unreadable data) says why at error level and stays in the failed set, from
// where `npm run admin -- jobs retry` moves it back.
describe("retries and the failed set", () => {
  it("every job of the catalog retries for at least a day, no wait longer than the cap", () => {
    for (const [name, spec] of Object.entries(JOBS)) {
      let waited = 0;
      for (let made = 1; made < spec.attempts; made++) {
        const wait = cappedBackoffMs(made, spec.backoff.delay);
        expect(wait, name).toBeLessThanOrEqual(JOB_BACKOFF_CAP_MS);
        waited += wait;
      }
      expect(waited, name).toBeGreaterThanOrEqual(JOB_RETRY_MS);
      // ...and not much more: one wait at the cap at most beyond the day.
      expect(waited - JOB_BACKOFF_CAP_MS, name).toBeLessThan(JOB_RETRY_MS);
    }
    expect([1, 2, 3, 10, 11, 12, 150].map((n) => cappedBackoffMs(n, 1000))).toEqual([
      1000, 2000, 4000, 512_000, 600_000, 600_000, 600_000,
    ]);
  });

  it("waits the capped backoff after a failure, logs a final failure at error level, reports and retries the failed set", async () => {
    const prefix = testRedisPrefix("queue-retry");
    const lines: { level: number; msg: string; err?: string; job?: string }[] = [];
    const log = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const bull = createRedis(baseRedisUrl(), "bullmq", log);
    const client = createQueueClient(bull, prefix);
    let failing = true;
    const seen: string[] = [];
    const worker = createWorker({
      connection: bull,
      redisPrefix: prefix,
      queue: QUEUES.audit,
      handlers: {
        "audit.record": async (data) => {
          seen.push(data.eventId);
          if (failing) throw new Error("gateway database away");
        },
      },
      logger: log,
    });
    try {
      // Through the catalog: the first failure waits its base delay (1 s), then tries again.
      const event = auditEvent("admin", "lead.deleted", randomUUID());
      await client.enqueue("audit.record", event, { jobId: event.eventId });
      const q = client.raw(QUEUES.audit);
      // The job is read once its state is delayed: read before, it can hold the attempt not yet
      // counted (the failure's script moves it while the read is on its way).
      const delayed = await waitFor(
        async () => {
          if ((await q.getJobState(event.eventId)) !== "delayed") return undefined;
          const job = await q.getJob(event.eventId);
          return job && (await q.getJobState(event.eventId)) === "delayed" ? job : undefined;
        },
        5000,
        "the job waiting for its retry",
      );
      expect(delayed.attemptsMade).toBe(1);
      expect(delayed.delay).toBe(JOBS["audit.record"].backoff.delay);
      expect(lines.some((l) => l.msg === "job failed; retried" && l.level === 40)).toBe(true);

      // A job of a newer version (queued during a rolling deploy) is not failed for good by an
      // older worker: it waits its backoff like any failure, for a replica that knows it.
      const future = randomUUID();
      await q.add(
        "audit.future",
        { eventId: future },
        { jobId: future, attempts: 5, backoff: { type: "exponential", delay: 60_000 } },
      );
      const waiting = await waitFor(
        async () => ((await q.getJobState(future)) === "delayed" ? q.getJob(future) : undefined),
        5000,
        "the unknown job waiting for its retry",
      );
      expect(waiting!.attemptsMade).toBe(1);
      expect(waiting!.failedReason).toBe(
        "job audit.future is unknown to this version; left for a newer replica",
      );
      await waiting!.remove();

      // Two jobs that fail for good at once: data no handler can read, and one given a single attempt.
      const bad = randomUUID();
      await q.add("audit.record", { eventId: "not-a-uuid" }, { jobId: bad });
      const once = auditEvent("admin", "lead.deleted", randomUUID());
      await q.add("audit.record", once, { jobId: once.eventId, attempts: 1 });
      await waitFor(async () => (await q.getFailedCount()) === 2, 5000, "both jobs in the failed set");
      const errors = lines.filter((l) => l.level === 50);
      expect(errors.map((l) => l.err).sort()).toEqual([
        "gateway database away",
        "invalid data for job audit.record",
      ]);
      expect(errors.every((l) => /failed for good/.test(l.msg))).toBe(true);

      const [report] = await failedJobsReport(client, [QUEUES.audit]);
      expect(report).toMatchObject({ queue: QUEUES.audit, failed: 2 });
      expect(report!.groups.map((g) => [g.job, g.reason, g.count]).sort()).toEqual([
        ["audit.record", "gateway database away", 1],
        ["audit.record", "invalid data for job audit.record", 1],
      ]);

      // Fixed: the retry moves both back; the readable one now completes, the unreadable one fails again.
      failing = false;
      expect(await retryFailedJobs(client, QUEUES.audit)).toBe(2);
      await waitFor(
        async () => (await q.getJobState(once.eventId)) === "completed",
        5000,
        "the retried job completed",
      );
      await waitFor(async () => (await q.getFailedCount()) === 1, 5000, "the unreadable job failed again");
      expect(seen.filter((id) => id === once.eventId).length).toBe(2);
    } finally {
      await worker.close();
      await client.close();
      await closeRedis(bull);
    }
  }, 20_000);
});

// A job on a cron pattern (the weekly summary): every replica upserts the same scheduler at start.
describe("a scheduled job", () => {
  it("is one scheduler however often it is upserted, its jobs retried like the catalog's", async () => {
    const prefix = testRedisPrefix("queue-schedule");
    const log = createLogger("test", "silent");
    const bull = createRedis(baseRedisUrl(), "bullmq", log);
    const queues = [createQueueClient(bull, prefix), createQueueClient(bull, prefix)];
    try {
      const repeat = { id: "weekly-summary", pattern: "0 8 * * 1", tz: "Europe/Amsterdam" };
      const nexts = await Promise.all(queues.map((q) => q.schedule("leads.weekly-summary", {}, repeat)));
      expect(nexts[0]).toEqual(nexts[1]);
      const raw = queues[0]!.raw(QUEUES.leads);
      expect(await raw.getJobSchedulersCount()).toBe(1);
      const delayed = await raw.getDelayed();
      expect(delayed).toHaveLength(1);
      expect(delayed[0]!.timestamp + delayed[0]!.opts.delay!).toBe(nexts[0]!.getTime());
      expect(delayed[0]!.opts).toMatchObject({
        attempts: JOBS["leads.weekly-summary"].attempts,
        backoff: JOBS["leads.weekly-summary"].backoff,
      });
    } finally {
      for (const q of queues) await q.raw(QUEUES.leads).obliterate({ force: true });
      for (const q of queues) await q.close();
      await closeRedis(bull);
    }
  });
});
