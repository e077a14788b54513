import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THEME_DEFAULTS } from "@lease/contracts";
import { ConfigError, type RunningService } from "@lease/platform";
import { createTestDatabase, freePort, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startSettings } from "@lease/settings";
import { startGateway } from "@lease/gateway";
import { createAdmin, type TestResponse } from "../../services/gateway/src/testing";

// "Done when": an admin signs in through the gateway, sees /api/admin/me, changes company and
// theme settings that the public endpoints then serve, and signs out — with the real settings service.

const UUID = /^[0-9a-f-]{36}$/;
const PASSWORD = "een-sterk-wachtwoord-2024";
let db: TestDatabase;
let settings: RunningService;
let gateway: RunningService;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  db = await createTestDatabase("journey");
  const dead = `http://127.0.0.1:${await freePort()}`;
  const settingsPort = await freePort();
  env = testEnv({
    DATABASE_URL: db.url,
    LEADS_URL: dead,
    TRACKING_URL: dead,
    MAILER_URL: dead,
    SETTINGS_URL: `http://127.0.0.1:${settingsPort}`,
    SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    WEB_DIST_DIR: "/nonexistent",
  });
  settings = await startSettings({ ...env, PORT: String(settingsPort) });
  gateway = await startGateway(env);
  await createAdmin(db.url, "beheer", PASSWORD);
});

afterAll(async () => {
  await gateway.stop();
  await settings.stop();
  await db.drop();
});

describe("admin journey through the gateway", () => {
  it("signs in, edits company and theme settings that the public then sees, and signs out", async () => {
    let cookie = "";
    const call = async (method: string, path: string, body?: unknown): Promise<TestResponse> => {
      const res = await fetch(`${gateway.url}${path}`, {
        method,
        headers: { origin: gateway.url, "content-type": "application/json", cookie },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const set = /admin_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "");
      if (set) cookie = `admin_session=${set[1]}`;
      return res;
    };

    expect((await call("POST", "/api/admin/login", { username: "beheer", password: PASSWORD })).status).toBe(
      200,
    );
    expect(await (await call("GET", "/api/admin/me")).json()).toMatchObject({
      admin: { id: expect.stringMatching(UUID), username: "beheer" },
    });

    const company = await call("PUT", "/api/admin/company-settings", {
      companyName: "Lease Direct BV",
      mobileAbbreviation: "LDBV",
      sendgridApiKey: "SG.journey-key-0123456789abcdef.ABCD",
      fromEmailAddress: "offerte@leasedirect.nl",
    });
    expect(company.status).toBe(200);
    expect(company.headers.get("cache-control")).toBe("no-store");
    expect((await company.json()).sendgridApiKey).toBe("SG.…ABCD");

    const theme = await call("PUT", "/api/admin/theme-settings", {
      primaryColor: "#2563EB",
      accentColor: "#059669",
    });
    expect(theme.status).toBe(200);

    const publicCompany = await fetch(`${gateway.url}/api/company-settings`);
    expect(publicCompany.headers.get("cache-control")).toBe("public, no-cache");
    const publicText = await publicCompany.text();
    expect(JSON.parse(publicText)).toMatchObject({
      companyName: "Lease Direct BV",
      mobileAbbreviation: "LDBV",
    });
    expect(publicText).not.toContain("journey-key");
    expect(publicText).not.toContain("offerte@leasedirect.nl");
    const etag = publicCompany.headers.get("etag")!;
    expect(
      (await fetch(`${gateway.url}/api/company-settings`, { headers: { "if-none-match": etag } })).status,
    ).toBe(304);

    const publicTheme = (await (await fetch(`${gateway.url}/api/theme-settings`)).json()) as Record<
      string,
      string
    >;
    expect(publicTheme).toMatchObject({
      ...THEME_DEFAULTS,
      primaryColor: "#2563EB",
      accentColor: "#059669",
    });

    const loggedIn = cookie;
    expect((await call("POST", "/api/admin/logout")).status).toBe(204);
    cookie = loggedIn;
    expect((await call("GET", "/api/admin/me")).status).toBe(401);
    expect((await call("PUT", "/api/admin/theme-settings", { primaryColor: "#000000" })).status).toBe(401);
    const direct = await fetch(`${settings.url}/api/admin/company-settings`, {
      headers: { cookie: loggedIn },
    });
    expect(direct.status).toBe(401);
  });

  it("refuses to start with a JWT secret shorter than 32 characters, naming it", async () => {
    const err = await startGateway({ ...env, JWT_SECRET: "too-short-secret" }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain("JWT_SECRET");
  });
});
