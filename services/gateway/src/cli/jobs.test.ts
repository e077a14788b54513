import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUES } from "@lease/contracts";
import {
  auditEvent,
  closeRedis,
  createLogger,
  createQueueClient,
  createRedis,
  createWorker,
  type QueueClient,
  type Redis,
} from "@lease/platform";
import { baseRedisUrl, runProcess, testEnv, waitFor } from "@lease/platform/testing";
import { entryArgs } from "../../../../scripts/lib/ts-entry.mjs";

// `npm run admin -- jobs failed | jobs retry [QUEUE]` as a user runs it: the admin CLI's cached
// bundle in a real process, against the queues of a real Redis.

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const env = testEnv();
const logger = createLogger("test", "silent");
let cli: string[];
let bull: Redis;
let queue: QueueClient;

beforeAll(async () => {
  cli = await entryArgs(fileURLToPath(new URL("./admin.ts", import.meta.url)));
  bull = createRedis(baseRedisUrl(), "bullmq", logger);
  queue = createQueueClient(bull, env.REDIS_PREFIX!);
});
afterAll(async () => {
  await queue.close();
  await closeRedis(bull);
});

const run = (args: string[]) =>
  runProcess(process.execPath, [...cli, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, REDIS_URL: baseRedisUrl(), REDIS_PREFIX: env.REDIS_PREFIX },
    stdin: "",
  });

describe("admin CLI: jobs", () => {
  it("lists the failed jobs per queue with their reasons, and moves them back to waiting", async () => {
    // Two audit entries that failed for good (one attempt each, the gateway's database away).
    const events = [auditEvent("admin", "lead.deleted", randomUUID()), auditEvent("admin", "email.deleted")];
    const worker = createWorker({
      connection: bull,
      redisPrefix: env.REDIS_PREFIX!,
      queue: QUEUES.audit,
      handlers: {
        "audit.record": async () => {
          throw new Error("relation gateway.audit_log is unavailable");
        },
      },
      logger,
    });
    const q = queue.raw(QUEUES.audit);
    for (const e of events) await q.add("audit.record", e, { jobId: e.eventId, attempts: 1 });
    await waitFor(async () => (await q.getFailedCount()) === 2, 10_000, "two failed audit jobs");
    await worker.close();

    const listed = await run(["jobs", "failed"]);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain("audit: 2 failed");
    expect(listed.out).toMatch(/2 × audit\.record: relation gateway\.audit_log is unavailable \(last \d{4}-/);
    expect(listed.out).toContain("mail: 0 failed");

    expect((await run(["jobs", "retry", "geen-wachtrij"])).code).toBe(2);
    expect((await run(["jobs", "verwijder"])).code).toBe(2);
    const retried = await run(["jobs", "retry", "audit"]);
    expect(retried.code).toBe(0);
    expect(retried.out).toContain("audit: 2 failed jobs moved back to waiting");
    expect(await q.getFailedCount()).toBe(0);
    const states = await Promise.all(events.map((e) => q.getJobState(e.eventId)));
    expect(states).toEqual(["waiting", "waiting"]);
    // Their attempts start again: the whole retry period of the catalog.
    expect((await q.getJob(events[0]!.eventId))?.attemptsMade).toBe(0);
    expect((await run(["jobs", "failed"])).out).toContain("audit: 0 failed");
  }, 60_000);

  it("says so when Redis cannot be reached", async () => {
    const res = await runProcess(process.execPath, [...cli, "jobs", "failed"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, REDIS_URL: "redis://127.0.0.1:1", REDIS_PREFIX: env.REDIS_PREFIX },
      stdin: "",
    });
    expect(res.code).toBe(1);
    expect(res.err).toContain("cannot reach Redis at redis://127.0.0.1:1");
  }, 30_000);
});
