// One's own account (account.ts): a password change ends the other sessions; two-factor sign-in with
// TOTP is set up with a QR code and recovery codes, asked for after the password (and braked like
// it), and turned off with the password and a code.
import { describe, expect, it } from "vitest";
import { totpCode } from "../domain/totp";
import {
  UUID,
  logLines,
  gw,
  redis,
  deps,
  sql,
  adminCookie,
  call,
  cookieOf,
  login,
  signIn,
  activeUser,
  enable,
  useTeamStack,
} from "../testing/team";
import { connectRedis, type TestResponse } from "../testing";

useTeamStack();

describe("PUT /api/admin/account/password", () => {
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
        const res = await change({
          currentPassword: "eerste wachtwoord!",
          newPassword: "tweede wachtwoord!",
        });
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
});

describe("POST /api/admin/account/totp/setup · POST /api/admin/account/totp/confirm", () => {
  describe("two-factor sign-in (TOTP)", () => {
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
  });
});

describe("POST /api/admin/login/totp", () => {
  describe("two-factor sign-in (TOTP)", () => {
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
  });
});

describe("POST /api/admin/account/totp/disable", () => {
  describe("two-factor sign-in (TOTP)", () => {
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
  });
});

describe("POST /api/admin/login/totp", () => {
  describe("two-factor sign-in (TOTP)", () => {
    it("bounds wrong codes per account across every address: then only a recovery code signs in; audited and counted", async () => {
      const { secret, codes } = await enable(
        (await activeUser("tfa-veel", "tfa veel wachtwoord")).cookie,
        "tfa veel wachtwoord",
      );
      const metric = async () => {
        const text = await (await fetch(gw.metricsUrl)).text();
        const line = text
          .split("\n")
          .find((l) =>
            /^gateway_admin_login_attempts_total\{(?=.*step="code")(?=.*outcome="failure")/.test(l),
          );
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
  });
});

describe("POST /api/admin/login", () => {
  describe("two-factor sign-in (TOTP)", () => {
    it("failed passwords of existing accounts are audited, at most 20 an hour; unknown names never", async () => {
      await activeUser("gokdoel", "gokdoel wachtwoord");
      for (let i = 0; i < 22; i++)
        expect((await login("gokdoel", `fout ${i}`, `203.0.113.${100 + i}`)).status).toBe(401);
      for (let i = 0; i < 3; i++)
        expect((await login(`bestaat-niet-${i}`, "fout", `203.0.113.${100 + i}`)).status).toBe(401);
      const rows = (
        await sql.query(
          "SELECT actor, detail FROM gateway.audit_log WHERE action = 'login.failed' ORDER BY at",
        )
      ).rows;
      expect(rows.filter((r) => r.actor === "gokdoel")).toHaveLength(20);
      expect(rows.some((r) => String(r.actor).startsWith("bestaat-niet"))).toBe(false);
      expect(rows.find((r) => r.actor === "gokdoel").detail).toBe("adres 203.0.113.100");
      expect(JSON.stringify(rows)).not.toContain("fout ");
    });
  });
});
