import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminAccount, AdminUser, StaffJobData } from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import { createTestDatabase, waitFor, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";
import { createAdmin, gatewayOnlyEnv } from "../testing";

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
    expect(states.map(({ active, removed, takesNewLeads }) => ({ active, removed, takesNewLeads }))).toEqual([
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
