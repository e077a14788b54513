import { Writable } from "node:stream";
import { pino } from "pino";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDatabase,
  createLogger,
  createPool,
  type Redis,
  type RunningService,
  type SessionDeps,
} from "@lease/platform";
import { createTestDatabase, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";
import { adminsRepository } from "../repositories/admins";
import { totpCode } from "../domain/totp";
import { connectRedis, createAdmin, gatewayOnlyEnv, sessionDepsFor, type TestResponse } from "../testing";

// The team over HTTP against real Postgres and Redis: admins managed by admins, a
// one-time password replaced at the first sign-in, one's own password change ending the other
// sessions, and two-factor sign-in with TOTP and recovery codes.

const UUID = /^[0-9a-f-]{36}$/;
const PASSWORD = "correct horse battery staple";
const logLines: Record<string, unknown>[] = [];
let db: TestDatabase;
let gw: RunningService;
let env: NodeJS.ProcessEnv;
let redis: Redis;
let deps: SessionDeps;
let sql: pg.Pool;
let origin: string;
let adminCookie: string;

function call(
  path: string,
  init: {
    method?: string;
    body?: unknown;
    cookie?: string;
    ip?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { origin, "content-type": "application/json", ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  headers["x-forwarded-for"] = init.ip ?? "192.0.2.10";
  return fetch(`${gw.url}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}
const cookieOf = (res: TestResponse) => {
  const token = /admin_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  return token ? `admin_session=${token}` : undefined;
};
const login = (username: string, password: string, ip?: string) =>
  call("/api/admin/login", { method: "POST", body: { username, password }, ip });

/** Signs in with the password alone (no second step expected); the session cookie. */
async function signIn(username: string, password: string, ip?: string): Promise<string> {
  const res = await login(username, password, ip);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ admin: { id: expect.stringMatching(UUID), username } });
  return cookieOf(res)!;
}

async function createUser(username: string): Promise<{ id: string; oneTimePassword: string }> {
  const res = await call("/api/admin/users", { method: "POST", body: { username }, cookie: adminCookie });
  expect(res.status).toBe(201);
  const body = await res.json();
  return { id: body.user.id, oneTimePassword: body.oneTimePassword };
}

/** A new admin through the panel, signed in once with their own password. */
async function activeUser(username: string, password: string): Promise<{ id: string; cookie: string }> {
  const { id, oneTimePassword } = await createUser(username);
  const first = await (await login(username, oneTimePassword)).json();
  const res = await call("/api/admin/login/new-password", {
    method: "POST",
    body: { ticket: first.ticket, newPassword: password },
  });
  expect(res.status).toBe(200);
  return { id, cookie: cookieOf(res)! };
}

beforeAll(async () => {
  db = await createTestDatabase("gwteam");
  env = await gatewayOnlyEnv(db.url, { TRUSTED_PROXIES: "127.0.0.1", TOTP_ISSUER: "Zakelijk Lease Centrum" });
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  gw = await startGateway(env, { logger: pino({ level: "info" }, sink) });
  origin = gw.url;
  redis = await connectRedis();
  deps = sessionDepsFor(env, redis);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  await createAdmin(db.url, "admin", PASSWORD);
  adminCookie = await signIn("admin", PASSWORD, "192.0.2.1");
});

afterAll(async () => {
  await gw.stop();
  await sql.end();
  redis.disconnect();
  await db.drop();
});

describe("admins managed in the panel", () => {
  it("lists the admins, never a password or secret", async () => {
    const res = await call("/api/admin/users", { cookie: adminCookie });
    expect(res.status).toBe(200);
    const body = await res.json();
    const me = body.items.find((u: { username: string }) => u.username === "admin");
    expect(me).toMatchObject({ disabled: false, mustChangePassword: false, totpEnabled: false });
    expect(me.lastLoginAt).not.toBeNull();
    expect(Object.keys(me).sort()).toEqual(
      [
        "createdAt",
        "disabled",
        "id",
        "lastLoginAt",
        "mustChangePassword",
        "takesNewLeads",
        "totpEnabled",
        "username",
      ].sort(),
    );
  });

  it("is admin-only and CSRF-protected", async () => {
    expect((await call("/api/admin/users")).status).toBe(401);
    const noSession = await call("/api/admin/users", { method: "POST", body: { username: "x" } });
    expect(noSession.status).toBe(401);
    const crossSite = await call("/api/admin/users", {
      method: "POST",
      body: { username: "evil" },
      cookie: adminCookie,
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    const form = await call("/api/admin/users", {
      method: "POST",
      body: { username: "form" },
      cookie: adminCookie,
      headers: { "content-type": "text/plain" },
    });
    expect(form.status).toBe(415);
    expect((await sql.query("SELECT 1 FROM gateway.admins WHERE username IN ('evil','form')")).rowCount).toBe(
      0,
    );
  });

  it("creates an admin with a one-time password shown once; a taken or bad username is refused in Dutch", async () => {
    const res = await call("/api/admin/users", {
      method: "POST",
      body: { username: "tweede" },
      cookie: adminCookie,
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.user).toMatchObject({ username: "tweede", mustChangePassword: true, disabled: false });
    expect(body.oneTimePassword.length).toBeGreaterThanOrEqual(16);
    const [row] = (await sql.query("SELECT password FROM gateway.admins WHERE username = 'tweede'")).rows;
    expect(row.password).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(logLines)).not.toContain(body.oneTimePassword);

    const again = await call("/api/admin/users", {
      method: "POST",
      body: { username: "tweede" },
      cookie: adminCookie,
    });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe('Er bestaat al een beheerder "tweede"');
    const bad = await call("/api/admin/users", {
      method: "POST",
      body: { username: "met spatie" },
      cookie: adminCookie,
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields[0]).toEqual({
      path: "username",
      message: "Gebruik 1 tot 100 letters, cijfers of . _ @ -",
    });
  });

  it("signs in with the one-time password only to choose an own password", async () => {
    const { oneTimePassword } = await createUser("nieuw");
    const first = await login("nieuw", oneTimePassword);
    expect(first.status).toBe(200);
    expect(first.headers.get("set-cookie")).toBeNull();
    const step = await first.json();
    expect(step.next).toBe("new_password");
    // The ticket is no session.
    expect((await call("/api/admin/me", { cookie: `admin_session=${step.ticket}` })).status).toBe(401);

    const newPassword = (password: string) =>
      call("/api/admin/login/new-password", {
        method: "POST",
        body: { ticket: step.ticket, newPassword: password },
      });
    const short = await newPassword("kort");
    expect(short.status).toBe(400);
    expect((await short.json()).fields[0].message).toBe("Het wachtwoord moet minimaal 12 tekens hebben");
    const same = await newPassword(oneTimePassword);
    expect(same.status).toBe(400);
    expect((await same.json()).fields[0].message).toBe("Kies een ander wachtwoord dan het huidige");

    const done = await newPassword("mijn eigen wachtwoord");
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({
      admin: { id: expect.stringMatching(UUID), username: "nieuw" },
    });
    expect((await call("/api/admin/me", { cookie: cookieOf(done) })).status).toBe(200);
    // The ticket was spent; the one-time password is gone; the own one signs in at once.
    expect((await newPassword("nog een ander wachtwoord")).status).toBe(401);
    expect((await login("nieuw", oneTimePassword, "192.0.2.30")).status).toBe(401);
    await signIn("nieuw", "mijn eigen wachtwoord");
  });

  it("refuses to disable or remove oneself (409, Dutch)", async () => {
    const [me] = (await sql.query("SELECT id FROM gateway.admins WHERE username = 'admin'")).rows;
    const disable = await call(`/api/admin/users/${me.id}`, {
      method: "PATCH",
      body: { disabled: true },
      cookie: adminCookie,
    });
    expect(disable.status).toBe(409);
    expect((await disable.json()).message).toBe("Je kunt je eigen account niet uitschakelen");
    const remove = await call(`/api/admin/users/${me.id}`, { method: "DELETE", cookie: adminCookie });
    expect(remove.status).toBe(409);
    expect((await remove.json()).message).toBe("Je kunt je eigen account niet verwijderen");
    const unknown = await call("/api/admin/users/00000000-0000-4000-8000-000000000000", {
      method: "DELETE",
      cookie: adminCookie,
    });
    expect(unknown.status).toBe(404);
    expect((await call("/api/admin/users/geen-id", { method: "DELETE", cookie: adminCookie })).status).toBe(
      400,
    );
  });

  it("disabling ends the admin's sessions at once and stops their sign-in until enabled again", async () => {
    const { id, cookie } = await activeUser("uitzetten", "uitzetten wachtwoord");
    expect((await call("/api/admin/me", { cookie })).status).toBe(200);
    const res = await call(`/api/admin/users/${id}`, {
      method: "PATCH",
      body: { disabled: true },
      cookie: adminCookie,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).disabled).toBe(true);
    // The ended session is told why (the open panel says so on the sign-in page).
    const ended = await call("/api/admin/me", { cookie });
    expect(ended.status).toBe(401);
    expect(await ended.json()).toEqual({
      code: "account_disabled",
      message:
        "Je account is uitgeschakeld door een andere beheerder. Vraag een beheerder om het weer in te schakelen.",
    });
    // Right or wrong password, the same answer: it never tells a disabled account's password is right.
    const refused = await login("uitzetten", "uitzetten wachtwoord");
    const wrong = await login("uitzetten", "niet het wachtwoord", "192.0.2.31");
    expect([refused.status, wrong.status]).toEqual([401, 401]);
    expect(await refused.json()).toEqual(await wrong.json());

    const enable = await call(`/api/admin/users/${id}`, {
      method: "PATCH",
      body: { disabled: false },
      cookie: adminCookie,
    });
    expect(enable.status).toBe(200);
    await signIn("uitzetten", "uitzetten wachtwoord");
  });

  it("removing ends the admin's sessions; the name is never given again, in any case", async () => {
    const { id, cookie } = await activeUser("weg", "weg wachtwoord 123");
    const res = await call(`/api/admin/users/${id}`, { method: "DELETE", cookie: adminCookie });
    expect(res.status).toBe(204);
    const ended = await call("/api/admin/me", { cookie });
    expect(ended.status).toBe(401);
    expect((await ended.json()).code).toBe("account_removed");
    expect((await sql.query("SELECT 1 FROM gateway.admins WHERE id = $1", [id])).rowCount).toBe(0);
    for (const name of ["weg", "WEG"]) {
      const again = await call("/api/admin/users", {
        method: "POST",
        body: { username: name },
        cookie: adminCookie,
      });
      expect(again.status).toBe(409);
      expect((await again.json()).message).toBe(
        `De naam "${name}" was van een verwijderde beheerder en wordt niet opnieuw gebruikt. Kies een andere naam.`,
      );
    }
  });

  it("usernames are unique regardless of case", async () => {
    await createUser("SEC-NOTE");
    const twin = await call("/api/admin/users", {
      method: "POST",
      body: { username: "sec-note" },
      cookie: adminCookie,
    });
    expect(twin.status).toBe(409);
    expect((await twin.json()).message).toBe('Er bestaat al een beheerder "sec-note"');
  });

  it("a one-time password stops working after 72 hours", async () => {
    const { oneTimePassword } = await createUser("laat");
    const [row] = (
      await sql.query("SELECT one_time_password_expires_at AS at FROM gateway.admins WHERE username = 'laat'")
    ).rows;
    const hours = (row.at.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);
    await sql.query(
      "UPDATE gateway.admins SET one_time_password_expires_at = now() - interval '1 minute' WHERE username = 'laat'",
    );
    const res = await login("laat", oneTimePassword, "192.0.2.44");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      code: "one_time_password_expired",
      message:
        "Dit eenmalige wachtwoord is verlopen (het werkt 72 uur). Vraag een andere beheerder om een nieuw wachtwoord.",
    });
  });

  it("never leaves no active admin: the last active one cannot be disabled or removed", async () => {
    const pool = createPool(db.url, createLogger("test", "silent"), 1);
    try {
      const repo = adminsRepository(createDatabase(pool));
      await sql.query("UPDATE gateway.admins SET disabled_at = now() WHERE username <> 'admin'");
      const [me] = (await sql.query("SELECT id FROM gateway.admins WHERE username = 'admin'")).rows;
      // Another actor (e.g. one disabled in the same moment) still cannot take the last one out.
      expect(await repo.setDisabled("someone-else", me.id, true)).toEqual({
        ok: false,
        reason: "last_active",
      });
      expect(await repo.removeById("someone-else", me.id)).toEqual({ ok: false, reason: "last_active" });
    } finally {
      await sql.query("UPDATE gateway.admins SET disabled_at = NULL");
      await pool.end();
    }
    // Two admins disabling each other at once: one wins, the other is refused; one stays active.
    const a = await activeUser("wederzijds-a", "wederzijds wachtwoord a");
    const b = await activeUser("wederzijds-b", "wederzijds wachtwoord b");
    await sql.query(
      "UPDATE gateway.admins SET disabled_at = now() WHERE username NOT IN ('wederzijds-a', 'wederzijds-b')",
    );
    try {
      const [ab, ba] = await Promise.all([
        call(`/api/admin/users/${b.id}`, { method: "PATCH", body: { disabled: true }, cookie: a.cookie }),
        call(`/api/admin/users/${a.id}`, { method: "PATCH", body: { disabled: true }, cookie: b.cookie }),
      ]);
      expect([ab.status, ba.status].filter((s) => s === 200)).toHaveLength(1);
      const loser = ab.status === 200 ? ba : ab;
      // Refused as the last active admin, or already signed out by the winner.
      expect([401, 409]).toContain(loser.status);
      if (loser.status === 409)
        expect((await loser.json()).message).toBe(
          "De laatste actieve beheerder kan niet worden uitgeschakeld",
        );
      const active = await sql.query(
        "SELECT 1 FROM gateway.admins WHERE disabled_at IS NULL AND username LIKE 'wederzijds-%'",
      );
      expect(active.rowCount).toBe(1);
    } finally {
      await sql.query("UPDATE gateway.admins SET disabled_at = NULL");
    }
  });
});

describe("one's own password", () => {
  it("needs the current password, then ends every other session and renews this one", async () => {
    await activeUser("wissel", "eerste wachtwoord!");
    const here = await signIn("wissel", "eerste wachtwoord!");
    const elsewhere = await signIn("wissel", "eerste wachtwoord!", "198.51.100.40");
    const change = (body: unknown) =>
      call("/api/admin/account/password", { method: "PUT", body, cookie: here });

    const wrong = await change({ currentPassword: "niet goed", newPassword: "tweede wachtwoord!" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).fields).toEqual([
      { path: "currentPassword", message: "Het huidige wachtwoord klopt niet" },
    ]);
    const missing = await change({ newPassword: "tweede wachtwoord!" });
    expect(missing.status).toBe(400);
    expect((await missing.json()).fields[0].message).toBe("Huidig wachtwoord is verplicht");

    const ended: unknown[] = [];
    const subscriber = await connectRedis();
    await subscriber.subscribe(deps.keys("events", "sessions-ended"));
    subscriber.on("message", (_channel, message) => ended.push(JSON.parse(message)));
    try {
      const res = await change({ currentPassword: "eerste wachtwoord!", newPassword: "tweede wachtwoord!" });
      expect(res.status).toBe(200);
      const renewed = cookieOf(res)!;
      expect((await call("/api/admin/me", { cookie: renewed })).status).toBe(200);
      expect((await call("/api/admin/me", { cookie: here })).status).toBe(401);
      expect((await call("/api/admin/me", { cookie: elsewhere })).status).toBe(401);
      await expect.poll(() => ended.length).toBeGreaterThan(0);
    } finally {
      subscriber.disconnect();
    }
    expect((await login("wissel", "eerste wachtwoord!", "192.0.2.41")).status).toBe(401);
    await signIn("wissel", "tweede wachtwoord!");
    expect(JSON.stringify(logLines)).not.toContain("tweede wachtwoord!");
  });
});

describe("two-factor sign-in (TOTP)", () => {
  /** Turns it on (password, then a first code); the session is renewed: the new cookie. */
  async function enable(
    cookie: string,
    currentPassword: string,
  ): Promise<{ secret: string; codes: string[]; cookie: string }> {
    const setup = await call("/api/admin/account/totp/setup", {
      method: "POST",
      body: { currentPassword },
      cookie,
    });
    expect(setup.status).toBe(200);
    const { secret, uri } = await setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(uri);
    expect(url.protocol).toBe("otpauth:");
    expect(url.searchParams.get("secret")).toBe(secret);
    const confirm = await call("/api/admin/account/totp/confirm", {
      method: "POST",
      body: { code: totpCode(secret) },
      cookie,
    });
    expect(confirm.status).toBe(200);
    return { secret, codes: (await confirm.json()).codes, cookie: cookieOf(confirm)! };
  }

  it("is set up with the password, a QR URI and a first code; gives ten recovery codes; the secret is stored sealed", async () => {
    const { cookie: first } = await activeUser("tfa", "tfa wachtwoord 123");
    let cookie = first;
    expect(await (await call("/api/admin/account", { cookie })).json()).toEqual({
      username: "tfa",
      totpEnabled: false,
      recoveryCodesLeft: 0,
      notifyEmail: null,
      overdueEmail: false,
      weeklySummary: false,
    });
    // A session alone does not start it: the password is asked.
    const noPassword = await call("/api/admin/account/totp/setup", { method: "POST", body: {}, cookie });
    expect(noPassword.status).toBe(400);
    expect((await noPassword.json()).fields[0].message).toBe("Huidig wachtwoord is verplicht");
    const wrongPassword = await call("/api/admin/account/totp/setup", {
      method: "POST",
      body: { currentPassword: "niet het wachtwoord" },
      cookie,
    });
    expect(wrongPassword.status).toBe(400);
    expect((await wrongPassword.json()).message).toBe("Het huidige wachtwoord klopt niet");
    const setup = await (
      await call("/api/admin/account/totp/setup", {
        method: "POST",
        body: { currentPassword: "tfa wachtwoord 123" },
        cookie,
      })
    ).json();
    // The issuer is configured (TOTP_ISSUER), never taken from the Host header.
    expect(decodeURIComponent(setup.uri)).toMatch(/^otpauth:\/\/totp\/Zakelijk Lease Centrum:tfa\?/);
    const wrong = await call("/api/admin/account/totp/confirm", {
      method: "POST",
      body: { code: "000000" },
      cookie,
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).fields[0].path).toBe("code");
    const notDigits = await call("/api/admin/account/totp/confirm", {
      method: "POST",
      body: { code: "abc" },
      cookie,
    });
    expect((await notDigits.json()).fields[0].message).toBe("Vul de 6 cijfers uit je authenticator-app in");

    const enabled = await enable(cookie, "tfa wachtwoord 123");
    const { secret, codes } = enabled;
    // Turning it on ends every other session of the admin; this one goes on with a new cookie.
    expect((await call("/api/admin/me", { cookie })).status).toBe(401);
    cookie = enabled.cookie;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await (await call("/api/admin/account", { cookie })).json()).toEqual({
      username: "tfa",
      totpEnabled: true,
      recoveryCodesLeft: 10,
      notifyEmail: null,
      overdueEmail: false,
      weeklySummary: false,
    });
    const [row] = (await sql.query("SELECT totp_secret FROM gateway.admins WHERE username = 'tfa'")).rows;
    expect(row.totp_secret).toMatch(/^v1\./);
    expect(row.totp_secret).not.toContain(secret);
    const stored = (await sql.query("SELECT code_hash FROM gateway.admin_recovery_codes")).rows.map(
      (r) => r.code_hash,
    );
    for (const code of codes) expect(stored.join()).not.toContain(code);
    // Never handed out again.
    const again = await call("/api/admin/account/totp/setup", {
      method: "POST",
      body: { currentPassword: "tfa wachtwoord 123" },
      cookie,
    });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe("Tweestapsverificatie staat al aan");
    const users = await (await call("/api/admin/users", { cookie: adminCookie })).json();
    expect(users.items.find((u: { username: string }) => u.username === "tfa").totpEnabled).toBe(true);
    expect(JSON.stringify(users)).not.toContain(secret);
    expect(JSON.stringify(logLines)).not.toContain(secret);
  });

  it("asks for the code after the password; a code signs in once; a recovery code once", async () => {
    const enabled = await enable(
      (await activeUser("tfa-login", "tfa login wachtwoord")).cookie,
      "tfa login wachtwoord",
    );
    const { secret, codes, cookie } = enabled;
    const first = await login("tfa-login", "tfa login wachtwoord", "192.0.2.60");
    expect(first.status).toBe(200);
    expect(first.headers.get("set-cookie")).toBeNull();
    const step = await first.json();
    expect(step.next).toBe("totp");
    const code = (ticket: string, value: string, ip = "192.0.2.60") =>
      call("/api/admin/login/totp", { method: "POST", body: { ticket, code: value }, ip });

    const wrong = await code(step.ticket, "123456");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      code: "invalid_code",
      message: "Onjuiste code. Probeer het opnieuw.",
    });
    // The confirm step used the current code: the next one (within the drift) signs in.
    const next = totpCode(secret, Date.now() + 30_000);
    const ok = await code(step.ticket, next);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      admin: { id: expect.stringMatching(UUID), username: "tfa-login" },
    });
    expect((await call("/api/admin/me", { cookie: cookieOf(ok) })).status).toBe(200);
    // The ticket is spent, and the same code does not sign in twice: it says so.
    expect((await code(step.ticket, next)).status).toBe(401);
    const second = await (await login("tfa-login", "tfa login wachtwoord", "192.0.2.61")).json();
    const reused = await code(second.ticket, next, "192.0.2.61");
    expect(reused.status).toBe(401);
    expect(await reused.json()).toEqual({
      code: "used_code",
      message: "Deze code is al gebruikt. Wacht op de volgende code.",
    });

    const recovery = await code(second.ticket, codes[0]!.toUpperCase(), "192.0.2.61");
    expect(recovery.status).toBe(200);
    const third = await (await login("tfa-login", "tfa login wachtwoord", "192.0.2.62")).json();
    expect((await code(third.ticket, codes[0]!, "192.0.2.62")).status).toBe(401);
    expect((await (await call("/api/admin/account", { cookie })).json()).recoveryCodesLeft).toBe(9);
    // No log field holds the code (a bare 6-digit search could hit a timestamp).
    expect(JSON.stringify(logLines)).not.toContain(`"${next}"`);
    expect(JSON.stringify(logLines)).not.toContain(codes[0]);
    expect(JSON.stringify(logLines)).not.toContain(step.ticket);
  });

  it("brakes the code step like the password: wrong codes lock the username for that address", async () => {
    const { cookie } = await activeUser("tfa-rem", "tfa rem wachtwoord");
    const { secret } = await enable(cookie, "tfa rem wachtwoord");
    const ip = "203.0.113.70";
    const step = await (await login("tfa-rem", "tfa rem wachtwoord", ip)).json();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call("/api/admin/login/totp", {
        method: "POST",
        body: { ticket: step.ticket, code: "000000" },
        ip,
      });
      statuses.push(res.status);
    }
    // The fifth wrong code locks the username for this address (and ends the ticket).
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    // The right password again clears nothing: that address stays locked for the username.
    const again = await login("tfa-rem", "tfa rem wachtwoord", ip);
    expect(again.status).toBe(429);
    expect(again.headers.get("retry-after")).toMatch(/^\d+$/);
    // The owner, from an address of their own, still gets to the code step and in.
    const owner = await (await login("tfa-rem", "tfa rem wachtwoord", "192.0.2.71")).json();
    const ok = await call("/api/admin/login/totp", {
      method: "POST",
      body: { ticket: owner.ticket, code: totpCode(secret, Date.now() + 30_000) },
      ip: "192.0.2.71",
    });
    expect(ok.status).toBe(200);
  });

  it("a ticket takes five wrong codes at most; a made-up ticket is refused", async () => {
    const { cookie } = await activeUser("tfa-ticket", "tfa ticket wachtwoord");
    await enable(cookie, "tfa ticket wachtwoord");
    const step = await (await login("tfa-ticket", "tfa ticket wachtwoord", "192.0.2.80")).json();
    let last: TestResponse | undefined;
    // A different address per try: only the ticket's own count ends it.
    for (let i = 0; i < 5; i++)
      last = await call("/api/admin/login/totp", {
        method: "POST",
        body: { ticket: step.ticket, code: "000000" },
        ip: `192.0.2.${81 + i}`,
      });
    expect(await last!.json()).toEqual({
      code: "login_expired",
      message: "Te vaak een onjuiste code. Log opnieuw in.",
    });
    expect(await redis.exists(deps.keys("login", "ticket", step.ticket))).toBe(0);
    const madeUp = await call("/api/admin/login/totp", {
      method: "POST",
      body: { ticket: "A".repeat(43), code: "000000" },
    });
    expect(madeUp.status).toBe(401);
    expect((await madeUp.json()).message).toBe("Je inlogpoging is verlopen. Log opnieuw in.");
    expect(await redis.exists(deps.keys("login", "ticket", "A".repeat(43)))).toBe(0);
  });

  it("is turned off with the current password and a code or recovery code", async () => {
    const { cookie, codes } = await enable(
      (await activeUser("tfa-uit", "tfa uit wachtwoord")).cookie,
      "tfa uit wachtwoord",
    );
    const wrong = await call("/api/admin/account/totp/disable", {
      method: "POST",
      body: { currentPassword: "fout", code: codes[0] },
      cookie,
    });
    expect(wrong.status).toBe(400);
    const noCode = await call("/api/admin/account/totp/disable", {
      method: "POST",
      body: { currentPassword: "tfa uit wachtwoord" },
      cookie,
    });
    expect(noCode.status).toBe(400);
    expect((await noCode.json()).fields[0]).toEqual({
      path: "code",
      message: "Vul een code uit je authenticator-app of een herstelcode in",
    });
    const wrongCode = await call("/api/admin/account/totp/disable", {
      method: "POST",
      body: { currentPassword: "tfa uit wachtwoord", code: "000000" },
      cookie,
    });
    expect(wrongCode.status).toBe(400);
    expect((await wrongCode.json()).fields[0].path).toBe("code");
    expect((await (await call("/api/admin/account", { cookie })).json()).totpEnabled).toBe(true);
    const off = await call("/api/admin/account/totp/disable", {
      method: "POST",
      body: { currentPassword: "tfa uit wachtwoord", code: codes[1] },
      cookie,
    });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({
      username: "tfa-uit",
      totpEnabled: false,
      recoveryCodesLeft: 0,
      // The account's notice choices are untouched by two-factor sign-in.
      notifyEmail: null,
      overdueEmail: false,
      weeklySummary: false,
    });
    await signIn("tfa-uit", "tfa uit wachtwoord");
  });

  it("bounds wrong codes per account across every address: then only a recovery code signs in; audited and counted", async () => {
    const { secret, codes } = await enable(
      (await activeUser("tfa-veel", "tfa veel wachtwoord")).cookie,
      "tfa veel wachtwoord",
    );
    const metric = async () => {
      const text = await (await fetch(gw.metricsUrl)).text();
      const line = text
        .split("\n")
        .find((l) => /^gateway_admin_login_attempts_total\{(?=.*step="code")(?=.*outcome="failure")/.test(l));
      return Number(line?.split(" ").pop() ?? NaN);
    };
    const failuresBefore = await metric();
    const tryCode = async (ip: string, code: string) => {
      const step = await (await login("tfa-veel", "tfa veel wachtwoord", ip)).json();
      expect(step.next).toBe("totp");
      return call("/api/admin/login/totp", { method: "POST", body: { ticket: step.ticket, code }, ip });
    };
    // Twenty addresses, one wrong code each: ten are checked, the rest refused unchecked.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await tryCode(`198.51.100.${i + 1}`, "000000")).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual(Array(10).fill(429));
    // Even the right app code waits now, from a fresh address; a recovery code signs in.
    const right = await tryCode("198.51.100.50", totpCode(secret, Date.now() + 30_000));
    expect(right.status).toBe(429);
    expect((await right.json()).message).toMatch(
      /^Te veel onjuiste codes voor dit account\. Gebruik een herstelcode/,
    );
    expect(right.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await tryCode("198.51.100.51", codes[0]!)).status).toBe(200);

    const rows = (
      await sql.query(
        "SELECT action, actor, actor_id, detail FROM gateway.audit_log WHERE target = 'tfa-veel' AND action LIKE 'login.%' ORDER BY at",
      )
    ).rows;
    const [account] = (await sql.query("SELECT id FROM gateway.admins WHERE username = 'tfa-veel'")).rows;
    expect(rows.filter((r) => r.action === "login.code_failed")).toHaveLength(10);
    const locks = rows.filter((r) => r.action === "login.locked");
    expect(locks).toHaveLength(1);
    expect(locks[0].detail).toBe("adres 198.51.100.10; code; account: alleen nog een herstelcode");
    for (const row of rows) expect(row).toMatchObject({ actor: "tfa-veel", actor_id: account.id });
    expect(JSON.stringify(rows)).not.toContain("000000");
    expect((await metric()) - failuresBefore).toBe(10);
  });

  it("failed passwords of existing accounts are audited, at most 20 an hour; unknown names never", async () => {
    await activeUser("gokdoel", "gokdoel wachtwoord");
    for (let i = 0; i < 22; i++)
      expect((await login("gokdoel", `fout ${i}`, `203.0.113.${100 + i}`)).status).toBe(401);
    for (let i = 0; i < 3; i++)
      expect((await login(`bestaat-niet-${i}`, "fout", `203.0.113.${100 + i}`)).status).toBe(401);
    const rows = (
      await sql.query("SELECT actor, detail FROM gateway.audit_log WHERE action = 'login.failed' ORDER BY at")
    ).rows;
    expect(rows.filter((r) => r.actor === "gokdoel")).toHaveLength(20);
    expect(rows.some((r) => String(r.actor).startsWith("bestaat-niet"))).toBe(false);
    expect(rows.find((r) => r.actor === "gokdoel").detail).toBe("adres 203.0.113.100");
    expect(JSON.stringify(rows)).not.toContain("fout ");
  });

  it("another admin resets a lost second factor in Gebruikers: audited, the admin's sessions end", async () => {
    const { id } = await activeUser("tfa-kwijt", "tfa kwijt wachtwoord");
    const { cookie } = await enable(
      cookieOf(await login("tfa-kwijt", "tfa kwijt wachtwoord", "192.0.2.90"))!,
      "tfa kwijt wachtwoord",
    );
    const reset = await call(`/api/admin/users/${id}/totp/reset`, {
      method: "POST",
      body: {},
      cookie: adminCookie,
    });
    expect(reset.status).toBe(200);
    expect((await reset.json()).totpEnabled).toBe(false);
    // The ended session is told why, as a disabled account's is.
    const ended = await call("/api/admin/me", { cookie });
    expect(ended.status).toBe(401);
    expect(await ended.json()).toEqual({
      code: "account_totp_reset",
      message:
        "Je tweestapsverificatie is gereset door een andere beheerder. Log opnieuw in met je wachtwoord en stel hem daarna opnieuw in.",
    });
    await signIn("tfa-kwijt", "tfa kwijt wachtwoord");
    const [entry] = (
      await sql.query(
        "SELECT actor, actor_id, target FROM gateway.audit_log WHERE action = 'admin.totp_reset' AND target = 'tfa-kwijt'",
      )
    ).rows;
    const [admin] = (await sql.query("SELECT id FROM gateway.admins WHERE username = 'admin'")).rows;
    expect(entry).toEqual({ actor: "admin", actor_id: admin.id, target: "tfa-kwijt" });
    const [self] = (await sql.query("SELECT id FROM gateway.admins WHERE username = 'admin'")).rows;
    const own = await call(`/api/admin/users/${self.id}/totp/reset`, {
      method: "POST",
      body: {},
      cookie: adminCookie,
    });
    expect(own.status).toBe(409);
    expect((await own.json()).message).toBe("Je eigen tweestapsverificatie zet je uit onder Mijn account");
  });
});
