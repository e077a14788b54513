import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANNELS } from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import {
  adminCookie,
  createTestDatabase,
  startOwnRedis,
  testEnv,
  type OwnRedis,
  type TestDatabase,
  waitFor,
} from "@lease/platform/testing";
import { startMailer } from "./service";
import { CONFIGURED, startSettingsFixture } from "./testing";

let db: TestDatabase;
let settings: Awaited<ReturnType<typeof startSettingsFixture>>;
const started: { stop(): Promise<void> }[] = [];

beforeAll(async () => {
  db = await createTestDatabase("mailready");
});
afterAll(async () => {
  for (const s of started.reverse()) await s.stop();
  await settings?.close();
  await db?.drop();
});

async function mailerOn(
  redisUrl: string,
  extra: Record<string, string> = {},
  database: TestDatabase = db,
): Promise<RunningService> {
  const env = testEnv({ DATABASE_URL: database.url, REDIS_URL: redisUrl, ...extra });
  settings ??= await startSettingsFixture(env.INTERNAL_TOKEN!);
  const svc = await startMailer({
    ...env,
    SETTINGS_URL: settings.url,
    LEADS_URL: "http://127.0.0.1:9",
    SENDGRID_API_BASE_URL: "http://127.0.0.1:9",
  });
  started.push(svc);
  return svc;
}

describe("mailer readiness", () => {
  it("fails while Redis may evict keys (maxmemory-policy not noeviction); the reason is logged, not answered", async () => {
    const redis: OwnRedis = await startOwnRedis(["--maxmemory-policy", "allkeys-lru"]);
    started.push(redis);
    const svc = await mailerOn(redis.url);
    const res = await fetch(svc.readyUrl);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(body.checks.redisEvictionPolicy).toBe("failed");
  });

  it("is ready on a noeviction Redis", async () => {
    const redis = await startOwnRedis(["--maxmemory-policy", "noeviction"]);
    started.push(redis);
    const svc = await mailerOn(redis.url);
    expect((await fetch(svc.readyUrl)).status).toBe(200);
  });
});

describe("mail settings cache", () => {
  it("keeps the settings cached and drops them on the settings-changed event", async () => {
    const redis = await startOwnRedis();
    started.push(redis);
    const extra = { MAIL_SETTINGS_CACHE_MS: "600000", REDIS_PREFIX: "cachetest" };
    const svc = await mailerOn(redis.url, extra);
    const cookie = await adminCookie(testEnv({ REDIS_URL: redis.url, ...extra }));
    // The test button: 502 while configured (the provider here is unreachable), 409 while not.
    const post = () =>
      fetch(`${svc.url}/api/admin/email-settings/test`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
      });
    expect((await post()).status).toBe(502);
    const calls = settings.calls();
    settings.set({ ...CONFIGURED, sendgridApiKey: null });
    expect((await post()).status).toBe(502); // still the cached, configured copy
    expect(settings.calls()).toBe(calls);

    const pub = new Redis(redis.url);
    try {
      await pub.publish(
        `cachetest:events:${CHANNELS.settingsChanged}`,
        JSON.stringify({ kind: "company", at: new Date().toISOString() }),
      );
    } finally {
      pub.disconnect();
    }
    await waitFor(async () => (await post()).status === 409, 5000, "the new settings");
    settings.set(CONFIGURED);
  });
});

describe("audit entries", () => {
  it("of an inbox deletion are stored with it while Redis refuses writes, and reach the audit queue once it takes them", async () => {
    // A database of its own: the mailers of the tests above still run on `db`, each with a Redis of
    // its own, and their relays would publish this test's outbox row to their own queues.
    const own = await createTestDatabase("mailaudit");
    started.push({ stop: () => own.drop() });
    const redis = await startOwnRedis(["--maxmemory-policy", "noeviction"]);
    started.push(redis);
    const extra = { REDIS_PREFIX: "audittest" };
    const svc = await mailerOn(redis.url, extra, own);
    const cookie = await adminCookie(testEnv({ REDIS_URL: redis.url, ...extra }));
    const sql = new pg.Pool({ connectionString: own.url, max: 1 });
    const direct = new Redis(redis.url);
    try {
      const { rows } = await sql.query<{ id: string }>(
        `INSERT INTO mailer.email_messages
           (source, source_id, subject, sender_name, sender_email, recipient_email, message_body, message_type)
         VALUES ('contact_form', gen_random_uuid(), 'Vraag', 'Klant', 'klant@example.nl', 'info@example.nl',
                 'Een vraag over leasen', 'contact_form') RETURNING id`,
      );
      const id = rows[0]!.id;
      // Full, with noeviction: the session still reads, every job is refused.
      await direct.call("CONFIG", "SET", "maxmemory", "1");
      const res = await fetch(`${svc.url}/api/admin/emails/${id}`, {
        method: "DELETE",
        headers: { "content-type": "application/json", cookie },
      });
      expect(res.status).toBe(204);
      const pending = await sql.query<{ payload: { action: string; target: string; eventId: string } }>(
        "SELECT payload FROM mailer.outbox WHERE published_at IS NULL",
      );
      expect(pending.rows.map((r) => [r.payload.action, r.payload.target])).toEqual([["email.deleted", id]]);

      await direct.call("CONFIG", "SET", "maxmemory", "0");
      const eventId = pending.rows[0]!.payload.eventId;
      await waitFor(
        async () => (await direct.hget(`audittest:bull:audit:${eventId}`, "name")) === "audit.record",
        20_000,
        "the audit entry in the audit queue",
      );
    } finally {
      await direct.call("CONFIG", "SET", "maxmemory", "0").catch(() => undefined);
      direct.disconnect();
      await sql.end();
    }
  });
});
