import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, createPool, type RunningService } from "@lease/platform";
import { startSettings } from "./service";
import { startSettingsHarness, type SettingsHarness } from "./testing";

// Rotating SETTINGS_ENCRYPTION_KEY: the old key goes to SETTINGS_ENCRYPTION_KEY_PREVIOUS for one
// rollout, the stored SendGrid key moves to the new key at start, then the old key can go.
const API_KEY = "SG.rotation-abcdefghijklmnopqrstuvwxyz.0123456789-ROTA";

let h: SettingsHarness;
const started: RunningService[] = [];
beforeAll(async () => {
  h = await startSettingsHarness();
});
afterAll(async () => {
  for (const svc of started) await svc.stop();
  await h?.close();
});

async function startWith(keys: { current: string; previous?: string }): Promise<RunningService> {
  const svc = await startSettings({
    ...h.env,
    SETTINGS_ENCRYPTION_KEY: keys.current,
    SETTINGS_ENCRYPTION_KEY_PREVIOUS: keys.previous ?? "",
  });
  started.push(svc);
  return svc;
}

async function providerKey(svc: RunningService): Promise<string | null> {
  const res = await fetch(`${svc.url}/internal/mail-settings`, {
    headers: { "x-internal-token": h.env.INTERNAL_TOKEN! },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sendgridApiKey: string | null }).sendgridApiKey;
}

async function storedCiphertext(): Promise<string> {
  const pool = createPool(h.db.url, createLogger("test", "silent"), 1);
  try {
    return (await pool.query("SELECT sendgrid_api_key_encrypted AS k FROM settings.company_settings")).rows[0]
      .k;
  } finally {
    await pool.end();
  }
}

describe("rotating the settings encryption key", () => {
  it("re-encrypts the stored provider key at start, after which the old key can go", async () => {
    const cookie = await h.adminCookie();
    const saved = await h.api("/api/admin/company-settings", {
      method: "PUT",
      cookie,
      body: { sendgridApiKey: API_KEY },
    });
    expect(saved.status).toBe(200);
    const before = await storedCiphertext();
    const oldKey = h.env.SETTINGS_ENCRYPTION_KEY!;
    const newKey = randomBytes(32).toString("base64");

    // The rollout: new key, old key as previous.
    const rotating = await startWith({ current: newKey, previous: oldKey });
    expect(await providerKey(rotating)).toBe(API_KEY);
    const after = await storedCiphertext();
    expect(after).not.toBe(before);
    expect(after).not.toContain("ROTA");

    // The next rollout drops the old key: the provider key is still there.
    const rotated = await startWith({ current: newKey });
    expect(await providerKey(rotated)).toBe(API_KEY);
    const admin = await fetch(`${rotated.url}/api/admin/company-settings`, { headers: { cookie } });
    expect(((await admin.json()) as { sendgridApiKey: string }).sendgridApiKey).toBe("SG.…ROTA");

    // A start with the old key alone can no longer read it, and changes nothing.
    const stale = await startWith({ current: oldKey });
    expect(await providerKey(stale)).toBeNull();
    expect(await storedCiphertext()).toBe(after);
    // Both the mailer and the panel are told it is unreadable (not "no key", not a masked "SG.…").
    const internal = await fetch(`${stale.url}/internal/mail-settings`, {
      headers: { "x-internal-token": h.env.INTERNAL_TOKEN! },
    });
    expect(await internal.json()).toMatchObject({ sendgridApiKey: null, sendgridApiKeyUnreadable: true });
    const panel = await fetch(`${stale.url}/api/admin/company-settings`, { headers: { cookie } });
    expect(await panel.json()).toMatchObject({ sendgridApiKey: null, sendgridApiKeyUnreadable: true });
    expect(
      await (await fetch(`${rotated.url}/api/admin/company-settings`, { headers: { cookie } })).json(),
    ).toMatchObject({ sendgridApiKeyUnreadable: false });
  });

  it("refuses a malformed previous key at start, naming the variable", async () => {
    const err = await startSettings({ ...h.env, SETTINGS_ENCRYPTION_KEY_PREVIOUS: "c2hvcnQ=" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain("SETTINGS_ENCRYPTION_KEY_PREVIOUS");
  });
});
