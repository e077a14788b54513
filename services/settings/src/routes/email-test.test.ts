import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "@lease/platform";
import { testEnv } from "@lease/platform/testing";
import { startSettings } from "../service";
import { startSettingsHarness, type SettingsHarness } from "../test-support";

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

const sendTest = () => h.api("/api/admin/email-settings/test", { method: "POST", cookie });
const save = (body: unknown) => h.api("/api/admin/company-settings", { method: "PUT", body, cookie });

describe("POST /api/admin/email-settings/test", () => {
  it("answers 409 with the Dutch message while the key or the sender is missing", async () => {
    for (const body of [
      {},
      { sendgridApiKey: API_KEY },
      { sendgridApiKey: null, fromEmailAddress: "info@lease.nl" },
    ]) {
      await save(body);
      const res = await sendTest();
      expect(res.status).toBe(409);
      expect((await res.json()).message).toBe(
        "Ontbrekende gegevens - Vul eerst SendGrid API key en afzender e-mail in.",
      );
    }
    expect(h.mailer.calls).toHaveLength(0);
  });

  it("asks the mailer, with the internal token, to send to the sender address (no fake lead)", async () => {
    await save({ sendgridApiKey: API_KEY, fromEmailAddress: "info@lease.nl" });
    const res = await sendTest();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: expect.any(String), status: "sent", to: "info@lease.nl" });
    expect(h.mailer.calls.at(-1)).toEqual({ token: h.env.INTERNAL_TOKEN, body: { to: "info@lease.nl" } });
  });

  it("answers 502 with the provider's refusal in Dutch when the test e-mail was not sent", async () => {
    h.mailer.verdict = { status: "failed", reason: "SendGrid weigerde de API key (401)." };
    try {
      const res = await sendTest();
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({
        code: "test_email_failed",
        message: "Kon geen test e-mail verzenden. SendGrid weigerde de API key (401).",
      });
    } finally {
      h.mailer.verdict = { status: "sent", reason: null };
    }
  });

  it("answers 503 when the mailer is unreachable, 502 when it refuses", async () => {
    h.mailer.status = 500;
    expect((await sendTest()).status).toBe(503);
    h.mailer.status = 400;
    expect((await sendTest()).status).toBe(502);
    h.mailer.status = 200;
    await h.mailer.close();
    const res = await sendTest();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBeTruthy();
  });
});

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
      ["POST", "/api/admin/email-settings/test"],
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
    const base = { MAILER_URL: "http://127.0.0.1:1" };
    for (const key of [undefined, "", Buffer.alloc(16, 7).toString("base64"), "not base64 at all!"]) {
      const err = await startSettings(testEnv({ ...base, SETTINGS_ENCRYPTION_KEY: key })).catch(
        (e: Error) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain("SETTINGS_ENCRYPTION_KEY");
    }
  });
});
