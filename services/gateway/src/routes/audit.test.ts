import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, createLogger, createPool, type RunningService } from "@lease/platform";
import { createTestDatabase, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";
import { auditRepository } from "../repositories/audit";
import { createAdmin, gatewayOnlyEnv, type TestResponse } from "../testing";

// The gateway's audit log (issue 19.4): who did what when for sign-ins and admin account changes,
// filtered by action and admin, newest first, kept two years.

const PASSWORD = "correct horse battery staple";
let db: TestDatabase;
let gw: RunningService;
let sql: pg.Pool;
let cookie: string;

function call(
  path: string,
  init: { method?: string; body?: unknown; cookie?: string } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { origin: gw.url, "content-type": "application/json" };
  if (init.cookie) headers.cookie = init.cookie;
  return fetch(`${gw.url}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}
const cookieOf = (res: TestResponse) =>
  `admin_session=${/admin_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")![1]}`;

beforeAll(async () => {
  db = await createTestDatabase("gwaudit");
  gw = await startGateway(await gatewayOnlyEnv(db.url));
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  await createAdmin(db.url, "admin", PASSWORD);
  const res = await call("/api/admin/login", {
    method: "POST",
    body: { username: "admin", password: PASSWORD },
  });
  cookie = cookieOf(res);
});

afterAll(async () => {
  await gw.stop();
  await sql.end();
  await db.drop();
});

describe("audit log", () => {
  it("records sign-ins and admin account changes with who, what and when; never a password", async () => {
    const created = await (
      await call("/api/admin/users", { method: "POST", body: { username: "jan" }, cookie })
    ).json();
    const id = created.user.id;
    await call(`/api/admin/users/${id}`, { method: "PATCH", body: { disabled: true }, cookie });
    await call(`/api/admin/users/${id}`, { method: "PATCH", body: { disabled: false }, cookie });
    await call(`/api/admin/users/${id}`, { method: "DELETE", cookie });
    const changed = await call("/api/admin/account/password", {
      method: "PUT",
      body: { currentPassword: PASSWORD, newPassword: "een nieuw wachtwoord!" },
      cookie,
    });
    expect(changed.status).toBe(200);
    cookie = cookieOf(changed);

    const res = await call("/api/admin/audit-log", { cookie });
    expect(res.status).toBe(200);
    const { items } = await res.json();
    expect(
      items.map((e: { action: string; actor: string; target: string | null; detail: string | null }) => [
        e.action,
        e.actor,
        e.target,
        e.detail,
      ]),
    ).toEqual([
      ["account.password_changed", "admin", null, null],
      ["admin.removed", "admin", "jan", null],
      ["admin.enabled", "admin", "jan", null],
      ["admin.disabled", "admin", "jan", null],
      ["admin.created", "admin", "jan", null],
      ["login.success", "admin", null, "password"],
    ]);
    for (const entry of items) expect(Date.now() - Date.parse(entry.at)).toBeLessThan(60_000);
    const text = JSON.stringify(items);
    expect(text).not.toContain(created.oneTimePassword);
    expect(text).not.toContain("een nieuw wachtwoord!");
  });

  it("filters by action and admin, pages by time, refuses bad filters in Dutch, is admin-only", async () => {
    const only = await (await call("/api/admin/audit-log?action=admin.created", { cookie })).json();
    expect(only.items.map((e: { target: string }) => e.target)).toEqual(["jan"]);
    expect((await (await call("/api/admin/audit-log?actor=niemand", { cookie })).json()).items).toEqual([]);
    const first = await (await call("/api/admin/audit-log?limit=2", { cookie })).json();
    expect(first.items).toHaveLength(2);
    const next = await (
      await call(`/api/admin/audit-log?limit=2&before=${encodeURIComponent(first.items[1].at)}`, { cookie })
    ).json();
    expect(next.items[0].action).toBe("admin.enabled");
    const bad = await call("/api/admin/audit-log?action=drop.tables", { cookie });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields[0].message).toBe("Onbekende actie");
    expect((await call("/api/admin/audit-log?limit=5000", { cookie })).status).toBe(400);
    expect((await call("/api/admin/audit-log")).status).toBe(401);
  });

  it("keeps two years: older entries are pruned", async () => {
    await sql.query(
      "INSERT INTO gateway.audit_log (at, actor, action) VALUES (now() - interval '731 days', 'oud', 'login.success'), (now() - interval '729 days', 'bijna', 'login.success')",
    );
    const pool = createPool(db.url, createLogger("test", "silent"), 1);
    try {
      expect(await auditRepository(createDatabase(pool)).prune()).toBe(1);
    } finally {
      await pool.end();
    }
    const actors = (await sql.query("SELECT actor FROM gateway.audit_log WHERE actor IN ('oud', 'bijna')"))
      .rows;
    expect(actors).toEqual([{ actor: "bijna" }]);
  });
});
