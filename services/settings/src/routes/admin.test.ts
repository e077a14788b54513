// The panel's settings routes (admin.ts): the company details with the SendGrid key (stored
// encrypted, shown masked), conversions via the server, the theme and its reset, the
// settings-changed event each change publishes; each refuses a request without a session.
import { describe, expect, it } from "vitest";
import {
  CHANNELS,
  PUBLIC_COMPANY_SETTINGS_KEYS,
  SettingsChangedEvent,
  THEME_DEFAULTS,
} from "@lease/contracts";
import { createLogger, createPool, createRedis, keyspace, subscribeEvent } from "@lease/platform";
import { baseRedisUrl, waitFor } from "@lease/platform/testing";
import { useSettingsHarness } from "../testing";
import { generateKeyPairSync } from "node:crypto";

const API_KEY = "SG.test-key-abcdefghijklmnopqrstuvwxyz.0123456789-WXYZ";

const h = useSettingsHarness();

const put = (path: string, body: unknown) => h.api(path, { method: "PUT", body, cookie: h.cookie });

describe("GET /api/admin/company-settings · PUT /api/admin/company-settings · PUT /api/admin/theme-settings · POST /api/admin/theme-settings/reset", () => {
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
});

describe("GET /api/admin/company-settings · PUT /api/admin/company-settings", () => {
  describe("company settings (admin)", () => {
    it("updates partially: fields not sent keep their stored values", async () => {
      let res = await put("/api/admin/company-settings", {
        companyName: "Lease Partners BV",
        city: "Utrecht",
        kvkNumber: "1234 5678",
        phoneNumber: "030 123 4567",
      });
      expect(res.status).toBe(200);
      res = await put("/api/admin/company-settings", { city: "Amsterdam" });
      const body = await res.json();
      expect(body).toMatchObject({
        companyName: "Lease Partners BV",
        city: "Amsterdam",
        kvkNumber: "12345678",
        phoneNumber: "030 123 4567",
      });
      expect(body.updatedAt).not.toBeNull();
      const pub = await (await h.api("/api/company-settings")).json();
      expect(pub).toMatchObject({ companyName: "Lease Partners BV", city: "Amsterdam" });
    });

    it("clears a field sent as an empty string", async () => {
      await put("/api/admin/company-settings", { description: "Tijdelijk" });
      const body = await (await put("/api/admin/company-settings", { description: "" })).json();
      expect(body.description).toBeNull();
    });

    it("refuses invalid input with Dutch messages and changes nothing", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ companyName: "" }, "Bedrijfsnaam is verplicht"],
        [{ mobileAbbreviation: "x".repeat(16) }, "Maximaal 15 tekens"],
        [{ kvkNumber: "1234" }, "KvK-nummer bestaat uit 8 cijfers"],
        [{ btwNumber: "BE123" }, "Gebruik een BTW-nummer als NL123456789B01"],
        [{ emailAddress: "geen-mail" }, "Voer een geldig e-mailadres in"],
        [{ website: "javascript:alert(1)" }, "Voer een geldige website URL in"],
        [{ phoneNumber: "12" }, "Voer een geldig telefoonnummer in"],
      ];
      for (const [body, message] of cases) {
        const res = await put("/api/admin/company-settings", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        const err = await res.json();
        expect(err.code).toBe("validation_failed");
        expect(err.fields[0].message).toBe(message);
      }
      const stored = await (await h.api("/api/admin/company-settings", { cookie: h.cookie })).json();
      expect(stored.companyName).toBe("Lease Partners BV");
    });

    it("refuses hostile pixel ids (they end up in script tags on every page)", async () => {
      const hostile = [
        { facebookPixelId: "123');alert(1);//" },
        { facebookPixelId: "<script>1</script>" },
        { snapchatPixelId: 'abc"onload=alert(1)' },
        { snapchatPixelId: "x".repeat(36) },
        { tiktokPixelId: "C4ABC</script><script>alert(1)" },
        { tiktokPixelId: "ABC" },
      ];
      for (const body of hostile) {
        const res = await put("/api/admin/company-settings", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      const ok = await put("/api/admin/company-settings", {
        facebookPixelId: "1234567890123456",
        snapchatPixelId: "7f1c1e1a-4a7e-4c3e-9a59-3b7e3f1d2c4b",
        tiktokPixelId: "c4abcdefghijklmnop12",
      });
      expect(ok.status).toBe(200);
      const pub = await (await h.api("/api/company-settings")).json();
      expect(pub.tiktokPixelId).toBe("C4ABCDEFGHIJKLMNOP12");
      expect(pub.facebookPixelId).toBe("1234567890123456");
    });

    it("refuses unknown fields", async () => {
      const res = await put("/api/admin/company-settings", { isAdmin: true });
      expect(res.status).toBe(400);
    });

    it("creates one row even when many first saves race", async () => {
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => put("/api/admin/company-settings", { city: `Stad ${i}` })),
      );
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          put("/api/admin/theme-settings", { cardRadius: i % 2 ? "8px" : "16px" }),
        ),
      );
      const pool = createPool(h.db.url, createLogger("test", "silent"), 1);
      try {
        const { rows } = await pool.query(
          "SELECT (SELECT count(*) FROM settings.company_settings)::int AS c, (SELECT count(*) FROM settings.theme_settings)::int AS t",
        );
        expect(rows[0]).toEqual({ c: 1, t: 1 });
      } finally {
        await pool.end();
      }
    });
  });

  describe("the SendGrid key", () => {
    it("is stored encrypted, shown masked, and kept when the masked value is sent back", async () => {
      let res = await put("/api/admin/company-settings", {
        sendgridApiKey: API_KEY,
        fromEmailAddress: "info@lease.nl",
      });
      expect(res.status).toBe(200);
      let body = await res.json();
      expect(body.sendgridApiKey).toBe("SG.…WXYZ");
      expect(body.fromEmailAddress).toBe("info@lease.nl");

      // The e-mail form sends everything back, the key as it was shown.
      res = await put("/api/admin/company-settings", { ...body, fromEmailAddress: "sales@lease.nl" });
      expect(res.status).toBe(200);
      body = await res.json();
      expect(body.sendgridApiKey).toBe("SG.…WXYZ");

      const pool = createPool(h.db.url, createLogger("test", "silent"), 1);
      try {
        const first = (
          await pool.query("SELECT sendgrid_api_key_encrypted AS k FROM settings.company_settings")
        ).rows[0].k;
        expect(first).not.toContain(API_KEY);
        expect(first).not.toContain("WXYZ");
        expect(Buffer.from(first, "base64").toString("latin1")).not.toContain("WXYZ");
        // A new write of the same key gets a new IV: the stored text differs.
        await put("/api/admin/company-settings", { sendgridApiKey: API_KEY });
        const second = (
          await pool.query("SELECT sendgrid_api_key_encrypted AS k FROM settings.company_settings")
        ).rows[0].k;
        expect(second).not.toBe(first);
        const dump = JSON.stringify((await pool.query("SELECT * FROM settings.company_settings")).rows);
        expect(dump).not.toContain(API_KEY);
      } finally {
        await pool.end();
      }

      const internal = await h.api("/internal/mail-settings", {
        headers: { "x-internal-token": h.env.INTERNAL_TOKEN! },
      });
      expect(internal.status).toBe(200);
      expect((await internal.json()).sendgridApiKey).toBe(API_KEY);
    });

    it("never appears in any public answer", async () => {
      await put("/api/admin/company-settings", {
        sendgridApiKey: API_KEY,
        fromEmailAddress: "geheim@lease.nl",
      });
      for (const path of ["/api/company-settings", "/api/theme-settings"]) {
        const res = await h.api(path);
        const text = await res.text();
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain("WXYZ");
        expect(text).not.toContain("geheim@lease.nl");
        expect(text).not.toMatch(/sendgrid|fromEmail/i);
      }
      const pub = await (await h.api("/api/company-settings")).json();
      expect(Object.keys(pub).sort()).toEqual([...PUBLIC_COMPANY_SETTINGS_KEYS].sort());
    });

    it("is cleared with null", async () => {
      const body = await (await put("/api/admin/company-settings", { sendgridApiKey: null })).json();
      expect(body.sendgridApiKey).toBeNull();
    });
  });
});

describe("GET /api/admin/conversion-settings · PUT /api/admin/conversion-settings", () => {
  describe("conversions via the server (admin)", () => {
    const TOKEN = "snap-secret-token-0123456789";
    const get = async () =>
      await (await h.api("/api/admin/conversion-settings", { cookie: h.cookie })).json();

    it("refuses a platform switched on without a pixel id or a token, naming what is missing", async () => {
      await put("/api/admin/company-settings", { snapchatPixelId: "" });
      const bare = await put("/api/admin/conversion-settings", { snapchat: { enabled: true } });
      expect(bare.status).toBe(400);
      expect((await bare.json()).message).toBe(
        "Snapchat: conversies kunnen pas aan met een Pixel ID (bij Social Media Pixels) en een toegangstoken; zonder wordt er niets verstuurd",
      );
      const tokenOnly = await put("/api/admin/conversion-settings", {
        snapchat: { enabled: true, accessToken: TOKEN },
      });
      expect(tokenOnly.status).toBe(400);
      expect((await tokenOnly.json()).fields).toEqual([
        {
          path: "snapchat.enabled",
          message:
            "Snapchat: conversies kunnen pas aan met een Pixel ID (bij Social Media Pixels); zonder wordt er niets verstuurd",
        },
      ]);
      // Refused as a whole: not even the token was stored.
      expect((await get()).snapchat).toEqual({ enabled: false, tokenSet: false, pixelIdSet: false });
    });

    it("switches on with both, and a token removed switches it off with it", async () => {
      await put("/api/admin/company-settings", { snapchatPixelId: "4c0d7a4e-3a55-4a8e-9b6e-0d3c2f1e9a77" });
      const on = await put("/api/admin/conversion-settings", {
        snapchat: { enabled: true, accessToken: TOKEN },
      });
      expect(on.status).toBe(200);
      expect((await get()).snapchat).toEqual({ enabled: true, tokenSet: true, pixelIdSet: true });
      const tokenAlone = await put("/api/admin/conversion-settings", { snapchat: { accessToken: null } });
      expect(tokenAlone.status).toBe(400);
      const removed = await put("/api/admin/conversion-settings", {
        snapchat: { enabled: false, accessToken: null },
      });
      expect(removed.status).toBe(200);
      expect((await get()).snapchat).toEqual({ enabled: false, tokenSet: false, pixelIdSet: true });
      await put("/api/admin/company-settings", { snapchatPixelId: "" });
    });
  });
});

describe("PUT /api/admin/theme-settings · POST /api/admin/theme-settings/reset", () => {
  describe("theme settings (admin)", () => {
    it("updates partially and resets to the theme defaults", async () => {
      let res = await put("/api/admin/theme-settings", { primaryColor: "#2563EB", buttonRadius: "9999px" });
      expect(res.status).toBe(200);
      res = await put("/api/admin/theme-settings", { accentColor: "#059669" });
      expect(await res.json()).toMatchObject({
        primaryColor: "#2563EB",
        accentColor: "#059669",
        buttonRadius: "9999px",
      });
      const pub = await (await h.api("/api/theme-settings")).json();
      expect(pub).toMatchObject({ primaryColor: "#2563EB", accentColor: "#059669" });

      res = await h.api("/api/admin/theme-settings/reset", { method: "POST", cookie: h.cookie });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject(THEME_DEFAULTS);
      expect(await (await h.api("/api/theme-settings")).json()).toMatchObject(THEME_DEFAULTS);
    });

    it("refuses hostile colours and radii that are not in the lists", async () => {
      const hostile = [
        { primaryColor: "red" },
        { primaryColor: "#FFF" },
        { primaryColor: "#EA580C; background:url(javascript:alert(1))" },
        { textPrimary: "expression(alert(1))" },
        { buttonRadius: "5px" },
        { cardRadius: "9999px" },
        { cardRadius: "12px;}body{display:none" },
      ];
      for (const body of hostile) {
        const res = await put("/api/admin/theme-settings", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        const err = await res.json();
        expect([
          "Gebruik een kleur in het formaat #RRGGBB",
          "Kies een van de beschikbare afrondingen",
        ]).toContain(err.fields[0].message);
      }
      expect(await (await h.api("/api/theme-settings")).json()).toMatchObject(THEME_DEFAULTS);
    });
  });
});

describe("PUT /api/admin/company-settings · PUT /api/admin/theme-settings · POST /api/admin/theme-settings/reset", () => {
  describe("settings-changed", () => {
    it("is published on every company and theme change", async () => {
      const logger = createLogger("test", "silent");
      const sub = createRedis(baseRedisUrl(), "subscriber", logger);
      const events: SettingsChangedEvent[] = [];
      try {
        await subscribeEvent(
          sub,
          keyspace(h.env.REDIS_PREFIX!),
          CHANNELS.settingsChanged,
          SettingsChangedEvent,
          (e) => events.push(e),
          logger,
        );
        await put("/api/admin/company-settings", { city: "Rotterdam" });
        await put("/api/admin/theme-settings", { primaryColor: "#7C3AED" });
        await h.api("/api/admin/theme-settings/reset", { method: "POST", cookie: h.cookie });
        await waitFor(() => events.length >= 3, 2000, "three settings events", 20);
        expect(events.map((e) => e.kind)).toEqual(["company", "theme", "theme"]);
        // A refused update announces nothing.
        await put("/api/admin/theme-settings", { primaryColor: "nope" });
        await new Promise((r) => setTimeout(r, 100));
        expect(events).toHaveLength(3);
      } finally {
        sub.disconnect();
      }
    });
  });
});

describe("GET /api/admin/conversion-settings · PUT /api/admin/conversion-settings", () => {
  // Google's conversion settings beside Meta's, TikTok's and Snapchat's: the Google Ads
  // account, each event's conversion action, and credentials (a service account's JSON key or an
  // OAuth client) stored encrypted, answered only as credentialsSet, in clear only internally.

  const h = useSettingsHarness();

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

  const put = (body: unknown) =>
    h.api("/api/admin/conversion-settings", { method: "PUT", body, cookie: h.cookie });
  const internal = async () =>
    (
      await h.api("/internal/conversion-settings", { headers: { "x-internal-token": h.env.INTERNAL_TOKEN! } })
    ).json();

  describe("Google's conversion settings", () => {
    it("are off and empty at first", async () => {
      const res = await h.api("/api/admin/conversion-settings", { cookie: h.cookie });
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
});
