import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, createPool } from "@lease/platform";
import { startSettingsHarness, type SettingsHarness } from "../testing";

// Google's conversion settings beside Meta's, TikTok's and Snapchat's: the Google Ads
// account, each event's conversion action, and credentials (a service account's JSON key or an
// OAuth client) stored encrypted, answered only as credentialsSet, in clear only internally.

let h: SettingsHarness;
let cookie: string;

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PEM = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const KEY_FILE = JSON.stringify({
  type: "service_account",
  project_id: "lease-test",
  private_key_id: "abc123",
  private_key: PEM,
  client_email: "conversies@lease-test.iam.gserviceaccount.com",
  token_uri: "https://oauth2.googleapis.com/token",
});

beforeAll(async () => {
  h = await startSettingsHarness();
  cookie = await h.adminCookie();
});
afterAll(async () => {
  await h.close();
});

const put = (body: unknown) => h.api("/api/admin/conversion-settings", { method: "PUT", body, cookie });
const internal = async () =>
  (
    await h.api("/internal/conversion-settings", { headers: { "x-internal-token": h.env.INTERNAL_TOKEN! } })
  ).json();

describe("Google's conversion settings", () => {
  it("are off and empty at first", async () => {
    const res = await h.api("/api/admin/conversion-settings", { cookie });
    expect((await res.json()).google).toEqual({
      enabled: false,
      customerId: null,
      conversionActions: { lead: null, offerte: null, getekend: null },
      credentialsSet: false,
      credentialsKind: null,
    });
  });

  it("store a service account key encrypted and never answer it back", async () => {
    const res = await put({
      google: {
        enabled: true,
        customerId: "123-456-7890",
        conversionActions: { lead: "111", offerte: "222", getekend: "333" },
        credentials: { serviceAccountKey: KEY_FILE },
      },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("PRIVATE KEY");
    expect(JSON.parse(text).google).toEqual({
      enabled: true,
      customerId: "1234567890",
      conversionActions: { lead: "111", offerte: "222", getekend: "333" },
      credentialsSet: true,
      credentialsKind: "serviceAccount",
    });
    const pool = createPool(h.db.url, createLogger("test", "silent"), 1);
    try {
      const dump = JSON.stringify((await pool.query("SELECT * FROM settings.company_settings")).rows);
      expect(dump).not.toContain("PRIVATE KEY");
      expect(dump).not.toContain("conversies@lease-test");
    } finally {
      await pool.end();
    }
    const clear = await internal();
    expect(clear.google).toEqual({
      enabled: true,
      customerId: "1234567890",
      conversionActions: { lead: "111", offerte: "222", getekend: "333" },
      credentials: {
        kind: "serviceAccount",
        clientEmail: "conversies@lease-test.iam.gserviceaccount.com",
        privateKey: PEM,
      },
      credentialsUnreadable: false,
    });
  });

  it("keep what is not sent, and take an OAuth client instead (the developer token is not kept)", async () => {
    const res = await put({
      google: {
        conversionActions: { offerte: null },
        credentials: {
          clientId: "123-abc.apps.googleusercontent.com",
          clientSecret: "GOCSPX-geheim",
          refreshToken: "1//refresh-token",
          developerToken: "dev-token-not-needed",
        },
      },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).google).toMatchObject({
      enabled: true,
      customerId: "1234567890",
      conversionActions: { lead: "111", offerte: null, getekend: "333" },
      credentialsKind: "oauthClient",
    });
    const clear = await internal();
    expect(clear.google.credentials).toEqual({
      kind: "oauthClient",
      clientId: "123-abc.apps.googleusercontent.com",
      clientSecret: "GOCSPX-geheim",
      refreshToken: "1//refresh-token",
    });
    expect(JSON.stringify(clear)).not.toContain("dev-token-not-needed");
  });

  it("refuse a wrong customer id, action id or key file with Dutch messages and change nothing", async () => {
    const cases: [unknown, string][] = [
      [{ customerId: "12345" }, "10 cijfers"],
      [{ conversionActions: { lead: "abc" } }, "bestaat uit cijfers"],
      [{ credentials: { serviceAccountKey: "{niet json" } }, "geen geldige JSON"],
      [{ credentials: { serviceAccountKey: JSON.stringify({ type: "user" }) } }, "serviceaccount"],
      [{ credentials: { serviceAccountKey: "x".repeat(10_001) } }, "10.000 tekens"],
      [{ credentials: { clientId: "a" } }, "Het clientgeheim"],
      [{ credentials: "sleutel" }, "serviceAccountKey"],
      [{ other: true }, ""],
    ];
    for (const [google, message] of cases) {
      const res = await put({ google });
      expect(res.status, JSON.stringify(google).slice(0, 80)).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(message);
    }
    expect((await internal()).google.customerId).toBe("1234567890");
  });

  it("are removed with null", async () => {
    const res = await put({ google: { credentials: null, customerId: null, enabled: false } });
    expect((await res.json()).google).toMatchObject({
      enabled: false,
      customerId: null,
      credentialsSet: false,
      credentialsKind: null,
    });
    expect((await internal()).google.credentials).toBeNull();
  });

  it("cannot be switched on without a customer id and credentials", async () => {
    const res = await put({ google: { enabled: true } });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(
      "Google: conversies kunnen pas aan met een klant-ID van Google Ads en inloggegevens; zonder wordt er niets verstuurd",
    );
    expect((await internal()).google.enabled).toBe(false);
  });
});
