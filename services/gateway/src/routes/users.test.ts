// The admins managed in the panel's Gebruikers (users.ts): listed without a password or secret,
// created with a one-time password that only serves to choose an own one, disabled or removed (their
// sessions end at once, never the last active admin), and a lost second factor reset by another.
// Last, on a stack of its own: each change told to leads (leads.staff), with 'Mijn account'.
import { describe, expect, it, afterAll, beforeAll } from "vitest";
import { createDatabase, createLogger, createPool, type RunningService } from "@lease/platform";
import { adminsRepository } from "../repositories/admins";
import {
  UUID,
  logLines,
  sql,
  adminCookie,
  db,
  call,
  cookieOf,
  login,
  signIn,
  createUser,
  activeUser,
  enable,
  useTeamStack,
} from "../testing/team";
import pg from "pg";
import { AdminAccount, AdminUser, StaffJobData } from "@lease/contracts";
import { createTestDatabase, waitFor, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";
import { createAdmin, gatewayOnlyEnv } from "../testing";

useTeamStack();

describe("GET /api/admin/users", () => {
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
  });
});

describe("GET /api/admin/users · POST /api/admin/users · PATCH /api/admin/users/{id} · DELETE /api/admin/users/{id}", () => {
  //HEAD
  describe("admins managed in the panel", () => {
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
      expect(
        (await sql.query("SELECT 1 FROM gateway.admins WHERE username IN ('evil','form')")).rowCount,
      ).toBe(0);
    });
  });
});

describe("POST /api/admin/users", () => {
  //HEAD
  describe("admins managed in the panel", () => {
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
  });
});

describe("POST /api/admin/login/new-password", () => {
  //HEAD
  describe("admins managed in the panel", () => {
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
  });
});

describe("PATCH /api/admin/users/{id} · DELETE /api/admin/users/{id}", () => {
  //HEAD
  describe("admins managed in the panel", () => {
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
  });
});

describe("PATCH /api/admin/users/{id}", () => {
  //HEAD
  describe("admins managed in the panel", () => {
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
  });
});

describe("DELETE /api/admin/users/{id}", () => {
  //HEAD
  describe("admins managed in the panel", () => {
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
  });
});

describe("POST /api/admin/users", () => {
  //HEAD
  describe("admins managed in the panel", () => {
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
  });
});

describe("POST /api/admin/login", () => {
  //HEAD
  describe("admins managed in the panel", () => {
    it("a one-time password stops working after 72 hours", async () => {
      const { oneTimePassword } = await createUser("laat");
      const [row] = (
        await sql.query(
          "SELECT one_time_password_expires_at AS at FROM gateway.admins WHERE username = 'laat'",
        )
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
  });
});

describe("PATCH /api/admin/users/{id} · DELETE /api/admin/users/{id}", () => {
  //HEAD
  describe("admins managed in the panel", () => {
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
});

describe("POST /api/admin/users/{id}/totp/reset", () => {
  describe("two-factor sign-in (TOTP)", () => {
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
});

describe("POST /api/admin/users · PATCH /api/admin/users/{id} · DELETE /api/admin/users/{id} · PUT /api/admin/account", () => {
  // Leads learns who may own leads from the gateway: every change to an admin (created, its switch
  // "Krijgt nieuwe aanvragen", disabled, enabled, removed) is a leads.staff job with the admin's whole
  // state, written in the change's own transaction (the gateway's outbox) and relayed to BullMQ.

  const PASSWORD = "correct horse battery staple";
  let db: TestDatabase;
  let gw: RunningService;
  let sql: pg.Pool;
  let cookie: string;

  beforeAll(async () => {
    db = await createTestDatabase("gwstaff");
    const env = await gatewayOnlyEnv(db.url, { TRUSTED_PROXIES: "127.0.0.1" });
    gw = await startGateway(env);
    sql = new pg.Pool({ connectionString: db.url, max: 2 });
    await createAdmin(db.url, "admin", PASSWORD);
    const res = await call("/api/admin/login", "POST", { username: "admin", password: PASSWORD });
    cookie = /admin_session=[^;]*/.exec(res.headers.get("set-cookie") ?? "")![0];
  });

  afterAll(async () => {
    await gw?.stop();
    await sql?.end();
    await db?.drop();
  });

  function call(path: string, method = "GET", body?: unknown) {
    return fetch(`${gw.url}${path}`, {
      method,
      headers: { origin: gw.url, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** The states told about an admin, oldest first (revision order), once the relay published them. */
  async function told(username: string): Promise<StaffJobData[]> {
    const { rows } = await sql.query<{ payload: unknown; published_at: Date | null }>(
      "SELECT payload, published_at FROM gateway.outbox WHERE job_name = 'leads.staff' AND payload->>'username' = $1",
      [username],
    );
    return rows.map((r) => StaffJobData.parse(r.payload)).sort((a, b) => a.revision - b.revision);
  }

  describe("admins told to leads (leads.staff through the gateway's outbox)", () => {
    it("a new admin, their switch, disabling, enabling and removal each tell the whole state, newest revision last", async () => {
      const created = await call("/api/admin/users", "POST", { username: "dana" });
      expect(created.status).toBe(201);
      const { user } = (await created.json()) as { user: AdminUser };
      expect(user.takesNewLeads).toBe(true);

      const off = await call(`/api/admin/users/${user.id}`, "PATCH", { takesNewLeads: false });
      expect(off.status).toBe(200);
      expect(AdminUser.parse(await off.json())).toMatchObject({ takesNewLeads: false, disabled: false });
      expect((await call(`/api/admin/users/${user.id}`, "PATCH", { disabled: true })).status).toBe(200);
      expect((await call(`/api/admin/users/${user.id}`, "PATCH", { disabled: false })).status).toBe(200);
      expect((await call(`/api/admin/users/${user.id}`, "DELETE")).status).toBe(204);

      const states = await told("dana");
      expect(
        states.map(({ active, removed, takesNewLeads }) => ({ active, removed, takesNewLeads })),
      ).toEqual([
        { active: true, removed: false, takesNewLeads: true },
        { active: true, removed: false, takesNewLeads: false },
        { active: false, removed: false, takesNewLeads: false },
        { active: true, removed: false, takesNewLeads: false },
        { active: false, removed: true, takesNewLeads: false },
      ]);
      expect(new Set(states.map((s) => s.adminId))).toEqual(new Set([user.id]));
      // The relay hands them to BullMQ.
      await waitFor(async () => {
        const { rows } = await sql.query(
          "SELECT 1 FROM gateway.outbox WHERE job_name = 'leads.staff' AND published_at IS NULL",
        );
        return rows.length === 0;
      });
    });

    it("the switch is audited; a body with neither field is refused in Dutch", async () => {
      const created = await call("/api/admin/users", "POST", { username: "eddy" });
      const { user } = (await created.json()) as { user: AdminUser };
      await call(`/api/admin/users/${user.id}`, "PATCH", { takesNewLeads: false });
      await waitFor(async () => {
        const { rows } = await sql.query(
          "SELECT detail FROM gateway.audit_log WHERE action = 'admin.takes_new_leads_changed' AND target = 'eddy'",
        );
        return rows[0]?.detail === "uit";
      });
      const empty = await call(`/api/admin/users/${user.id}`, "PATCH", {});
      expect(empty.status).toBe(400);
      expect(((await empty.json()) as { message: string }).message).toContain("nieuwe aanvragen krijgt");
      const wrong = await call(`/api/admin/users/${user.id}`, "PATCH", { takesNewLeads: "ja" });
      expect(wrong.status).toBe(400);
    });

    it("'Mijn account' keeps the admin's notices (address, late leads, weekly summary) and tells leads", async () => {
      const account = async () => AdminAccount.parse(await (await call("/api/admin/account")).json());
      expect(await account()).toMatchObject({ notifyEmail: null, overdueEmail: false, weeklySummary: false });
      // An e-mail without an address is refused, in Dutch, naming the field.
      const noAddress = await call("/api/admin/account", "PUT", { weeklySummary: true });
      expect(noAddress.status).toBe(400);
      const problem = (await noAddress.json()) as { message: string; fields?: { path: string }[] };
      expect(problem.message).toBe("Vul eerst een e-mailadres in om e-mails te ontvangen");
      const bad = await call("/api/admin/account", "PUT", { notifyEmail: "geen adres" });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { message: string }).message).toContain("Voer een geldig e-mailadres in");
      const tooLong = await call("/api/admin/account", "PUT", { notifyEmail: `${"a".repeat(250)}@x.nl` });
      expect(tooLong.status).toBe(400);
      const text = await fetch(`${gw.url}/api/admin/account`, {
        method: "PUT",
        headers: { origin: gw.url, "content-type": "text/plain", cookie },
        body: "weeklySummary=true",
      });
      expect(text.status).toBe(415);

      const saved = await call("/api/admin/account", "PUT", {
        notifyEmail: "admin@broker.nl",
        weeklySummary: true,
        overdueEmail: true,
      });
      expect(saved.status).toBe(200);
      expect(AdminAccount.parse(await saved.json())).toMatchObject({
        notifyEmail: "admin@broker.nl",
        overdueEmail: true,
        weeklySummary: true,
      });
      expect(await account()).toMatchObject({ notifyEmail: "admin@broker.nl", weeklySummary: true });
      // Leads hears of it with the admin's whole state; the audit names the fields, not the address.
      const last = (await told("admin")).at(-1)!;
      expect(last).toMatchObject({ notifyEmail: "admin@broker.nl", overdueEmail: true, weeklySummary: true });
      await waitFor(async () => {
        const { rows } = await sql.query(
          "SELECT detail FROM gateway.audit_log WHERE action = 'account.preferences_changed' AND actor = 'admin'",
        );
        return rows[0]?.detail === "notifyEmail, overdueEmail, weeklySummary";
      });
      // Turning the summary off alone keeps the rest.
      const off = await call("/api/admin/account", "PUT", { weeklySummary: false });
      expect(AdminAccount.parse(await off.json())).toMatchObject({
        notifyEmail: "admin@broker.nl",
        weeklySummary: false,
      });
      // The address cannot go while an e-mail is still chosen.
      expect((await call("/api/admin/account", "PUT", { notifyEmail: null })).status).toBe(400);
    });
  });
});
