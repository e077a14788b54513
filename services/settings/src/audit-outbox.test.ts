import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUES } from "@lease/contracts";
import { createLogger, createQueueClient, createRedis, type QueueClient, type Redis } from "@lease/platform";
import {
  startOwnRedis,
  startTestService,
  waitFor,
  type OwnRedis,
  type TestService,
} from "@lease/platform/testing";
import { startSettings } from "./service";

// A save's audit entry is stored with the save (settings.outbox, same transaction) and relayed to
// the audit queue, so a Redis that refuses the job (full, with noeviction: sessions still read,
// every write refused; or away for a moment) delays the entry and loses none. Before, the entry
// was sent after the save and, with Redis refusing it, only logged as lost.

const logger = createLogger("test", "silent");
let own: OwnRedis;
let t: TestService;
let redis: Redis;
let queue: QueueClient;
let sql: pg.Pool;

beforeAll(async () => {
  own = await startOwnRedis(["--maxmemory-policy", "noeviction"]);
  t = await startTestService(startSettings, {
    label: "setoutbox",
    env: {
      REDIS_URL: own.url,
      INTERNAL_TOKEN: `internal-${randomBytes(24).toString("hex")}`,
      SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    },
  });
  redis = createRedis(own.url, "bullmq", logger);
  queue = createQueueClient(redis, t.env.REDIS_PREFIX!);
  sql = new pg.Pool({ connectionString: t.db.url, max: 2 });
}, 60_000);
afterAll(async () => {
  await redis?.call("CONFIG", "SET", "maxmemory", "0").catch(() => undefined);
  await sql?.end();
  await t?.stop();
  await queue?.close();
  redis?.disconnect();
  await own?.stop();
});

const auditJobs = async () =>
  (await queue.raw(QUEUES.audit).getJobs(["waiting", "delayed", "active", "completed"])).filter(
    (j) => j.name === "audit.record",
  );

describe("audit entries of settings saves", () => {
  it("are accepted with the save while Redis refuses writes, and reach the audit queue once it takes them again", async () => {
    const cookie = await t.adminCookie();
    await redis.call("CONFIG", "SET", "maxmemory", "1");
    // Redis refuses every job now (the sessions, read-only, still check).
    await expect(queue.raw(QUEUES.audit).add("audit.record", {})).rejects.toThrow(/OOM/);

    const res = await fetch(`${t.url}/api/admin/company-settings`, {
      method: "PUT",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ companyName: "Outbox Lease BV", facebookPixelId: "123456789012345" }),
    });
    expect(res.status).toBe(200);
    const { rows } = await sql.query<{
      id: string;
      payload: { action: string; detail: string; eventId: string };
    }>("SELECT id, payload FROM settings.outbox WHERE job_name = 'audit.record' ORDER BY payload->>'action'");
    expect(rows.map((r) => [r.payload.action, r.payload.detail])).toEqual([
      ["settings.company_changed", "companyName"],
      ["settings.pixels_changed", "facebookPixelId"],
    ]);
    // The relay tries meanwhile (nudged by the save) and keeps the rows.
    await waitFor(async () => {
      const { rows: pending } = await sql.query("SELECT 1 FROM settings.outbox WHERE published_at IS NULL");
      return pending.length === 2 && (await auditJobs()).length === 0;
    }, 5000);

    await redis.call("CONFIG", "SET", "maxmemory", "0");
    const jobs = await waitFor(
      async () => {
        const found = await auditJobs();
        return found.length === 2 ? found : undefined;
      },
      20_000,
      "both audit entries in the audit queue",
    );
    expect(new Set(jobs.map((j) => j.id))).toEqual(new Set(rows.map((r) => r.payload.eventId)));
    expect(jobs.map((j) => j.data.action).sort()).toEqual([
      "settings.company_changed",
      "settings.pixels_changed",
    ]);
    await waitFor(
      async () =>
        (await sql.query("SELECT 1 FROM settings.outbox WHERE published_at IS NULL")).rows.length === 0,
      5000,
      "the outbox rows marked published",
    );
  }, 60_000);
});
