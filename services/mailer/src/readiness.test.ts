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

async function mailerOn(redisUrl: string, extra: Record<string, string> = {}): Promise<RunningService> {
  const env = testEnv({ DATABASE_URL: db.url, REDIS_URL: redisUrl, ...extra });
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
    const res = await fetch(`${svc.url}/readyz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(body.checks.redisEvictionPolicy).toBe("failed");
  });

  it("is ready on a noeviction Redis", async () => {
    const redis = await startOwnRedis(["--maxmemory-policy", "noeviction"]);
    started.push(redis);
    const svc = await mailerOn(redis.url);
    expect((await fetch(`${svc.url}/readyz`)).status).toBe(200);
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
