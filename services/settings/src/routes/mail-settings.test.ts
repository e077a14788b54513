import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "@lease/platform";
import { testEnv } from "@lease/platform/testing";
import { startSettings } from "../service";
import { startSettingsHarness, type SettingsHarness } from "../testing";

const API_KEY = "SG.another-test-key-0123456789abcdef.QRST";

let h: SettingsHarness;
let cookie: string;

beforeAll(async () => {
  h = await startSettingsHarness();
  cookie = await h.adminCookie();
});
afterAll(async () => {
  await h.close();
});

const save = (body: unknown) => h.api("/api/admin/company-settings", { method: "PUT", body, cookie });

describe("GET /internal/mail-settings", () => {
  it("refuses callers without the internal token", async () => {
    expect((await h.api("/internal/mail-settings")).status).toBe(403);
    const wrong = await h.api("/internal/mail-settings", { headers: { "x-internal-token": "x".repeat(40) } });
    expect(wrong.status).toBe(403);
  });

  it("gives the mailer the decrypted key, the sender and the public company details", async () => {
    await save({ sendgridApiKey: API_KEY, fromEmailAddress: "info@lease.nl", companyName: "Lease BV" });
    const res = await h.api("/internal/mail-settings", {
      headers: { "x-internal-token": h.env.INTERNAL_TOKEN! },
    });
    expect(await res.json()).toMatchObject({
      sendgridApiKey: API_KEY,
      fromEmailAddress: "info@lease.nl",
      company: { companyName: "Lease BV" },
    });
  });
});

describe("admin routes of settings", () => {
  it("answer 401 without a session, before looking at the body", async () => {
    const routes: [string, string][] = [
      ["GET", "/api/admin/company-settings"],
      ["PUT", "/api/admin/company-settings"],
      ["PUT", "/api/admin/theme-settings"],
      ["POST", "/api/admin/theme-settings/reset"],
    ];
    for (const [method, path] of routes) {
      const res = await h.api(path, { method, body: method === "GET" ? undefined : { companyName: "" } });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("configuration", () => {
  it("refuses to start without a 32-byte SETTINGS_ENCRYPTION_KEY, naming the variable", async () => {
    for (const key of [undefined, "", Buffer.alloc(16, 7).toString("base64"), "not base64 at all!"]) {
      const err = await startSettings(testEnv({ SETTINGS_ENCRYPTION_KEY: key })).catch((e: Error) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain("SETTINGS_ENCRYPTION_KEY");
    }
  });
});
