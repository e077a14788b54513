import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOBS, QUEUES } from "@lease/contracts";
import { auditEvent, sendAuditEvents } from "./audit";
import { createLogger } from "./logger";
import { createQueueClient, type QueueClient } from "./queue";
import { createRedis, type Redis } from "./redis";
import { baseRedisUrl, freePort, testRedisPrefix } from "./testing";

// Settings and the mailer send their audit entries straight to the queue after the change: an
// entry lands once per event id, and a Redis that does not answer never holds the admin's change.

describe("audit entries from a service without an outbox", () => {
  let bull: Redis;
  let queue: QueueClient;
  const prefix = testRedisPrefix("audit");

  beforeAll(() => {
    bull = createRedis(baseRedisUrl(), "bullmq", createLogger("test", "silent"));
    queue = createQueueClient(bull, prefix);
  });
  afterAll(async () => {
    await queue.raw(QUEUES.audit).obliterate({ force: true });
    await queue.close();
    bull.disconnect();
  });

  it("builds an entry the catalog accepts, with a fresh event id and the moment", () => {
    const a = auditEvent("admin", "settings.theme_changed", null, "primaryColor");
    const b = auditEvent("admin", "settings.theme_changed", null, "primaryColor");
    expect(JOBS["audit.record"].schema.parse(a)).toEqual(a);
    expect(a.eventId).not.toBe(b.eventId);
    expect(Date.now() - Date.parse(a.at)).toBeLessThan(5_000);
    expect(() => JOBS["audit.record"].schema.parse({ ...a, actor: "x".repeat(101) })).toThrow();
  });

  it("queues each event once under its event id, however often it is sent", async () => {
    const event = auditEvent("admin", "email.deleted", "f3a1c2d4-0000-4000-8000-000000000001");
    const log = createLogger("test", "silent");
    await sendAuditEvents(queue, [event], log);
    await sendAuditEvents(queue, [event], log);
    const jobs = await queue.raw(QUEUES.audit).getJobs(["waiting", "delayed", "active"]);
    const mine = jobs.filter((j) => j.id === event.eventId);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.name).toBe("audit.record");
    expect(mine[0]!.data).toMatchObject(event);
  });

  it("gives up after its timeout when Redis does not answer, and logs the entry without its detail", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const dead = createRedis(
      `redis://127.0.0.1:${await freePort()}`,
      "bullmq",
      createLogger("test", "silent"),
    );
    const deadQueue = createQueueClient(dead, prefix);
    try {
      const started = Date.now();
      await sendAuditEvents(
        deadQueue,
        [auditEvent("admin", "settings.email_changed", null, "sendgridApiKey")],
        pino({ level: "warn" }, sink),
        300,
      );
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(lines.join("")).toContain("audit entry not queued");
      expect(lines.join("")).toContain("settings.email_changed");
      expect(lines.join("")).not.toContain("sendgridApiKey");
    } finally {
      dead.disconnect();
      await deadQueue.close().catch(() => undefined);
    }
  });
});
