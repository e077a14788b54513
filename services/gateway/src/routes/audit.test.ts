import pg from "pg";
import { QUEUES } from "@lease/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import {
  auditEvent,
  createDatabase,
  createLogger,
  createPool,
  createQueueClient,
  createRedis,
  type QueueClient,
  type Redis,
  type RunningService,
} from "@lease/platform";
import { createTestDatabase, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";
import { auditRepository } from "../repositories/audit";
import { createAdmin, gatewayOnlyEnv, type TestResponse } from "../testing";

// The gateway's audit log: who did what when for sign-ins and admin account changes,
// filtered by action and admin, newest first, kept two years.

const PASSWORD = "correct horse battery staple";
let db: TestDatabase;
let gw: RunningService;
let sql: pg.Pool;
let cookie: string;
let env: NodeJS.ProcessEnv;

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
  env = await gatewayOnlyEnv(db.url);
  gw = await startGateway(env);
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

describe("GET /api/admin/audit-log", () => {
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
      // Every entry is bound to the acting admin's id, not only to the name.
      const [admin] = (await sql.query("SELECT id FROM gateway.admins WHERE username = 'admin'")).rows;
      expect(new Set(items.map((e: { actorId: string }) => e.actorId))).toEqual(new Set([admin.id]));
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

    describe("entries from the other services (the audit queue)", () => {
      let bull: Redis;
      let queue: QueueClient;
      beforeAll(() => {
        bull = createRedis(env.REDIS_URL!, "bullmq", createLogger("test", "silent"));
        queue = createQueueClient(bull, env.REDIS_PREFIX!);
      });
      afterAll(async () => {
        await queue.close();
        bull.disconnect();
      });
      const rowsOf = async (eventId: string) =>
        (
          await sql.query("SELECT actor, action, target, detail FROM gateway.audit_log WHERE id = $1", [
            eventId,
          ])
        ).rows;
      async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
        const until = Date.now() + 10_000;
        for (;;) {
          const value = await read();
          if (done(value) || Date.now() > until) return value;
          await new Promise((r) => setTimeout(r, 50));
        }
      }

      it("records each event once, however often its job is delivered, at the time it happened", async () => {
        const leadId = randomUUID();
        const event = {
          ...auditEvent("piet", "lead.status_changed", leadId, "nieuw → bekeken"),
          at: "2026-01-02T10:00:00.000Z",
        };
        // The same event in two jobs (a relay that published twice, a retried job): one row.
        await queue.enqueue("audit.record", event, { jobId: randomUUID() });
        await queue.enqueue("audit.record", event, { jobId: randomUUID() });
        const rows = await waitFor(
          () => rowsOf(event.eventId),
          (r) => r.length > 0,
        );
        expect(rows).toEqual([
          { actor: "piet", action: "lead.status_changed", target: leadId, detail: "nieuw → bekeken" },
        ]);
        // Both jobs ran; the second added nothing.
        const done = await waitFor(
          () => queue.raw(QUEUES.audit).getJobCounts("completed"),
          (c) => (c.completed ?? 0) >= 2,
        );
        expect(done.completed).toBe(2);
        expect(
          (await sql.query("SELECT count(*)::int AS n FROM gateway.audit_log WHERE target = $1", [leadId]))
            .rows,
        ).toEqual([{ n: 1 }]);

        const byTarget = await (await call(`/api/admin/audit-log?target=${leadId}`, { cookie })).json();
        expect(byTarget.items).toEqual([
          {
            id: event.eventId,
            at: "2026-01-02T10:00:00.000Z",
            actor: "piet",
            actorId: null, // no admin "piet" exists here
            action: "lead.status_changed",
            target: leadId,
            detail: "nieuw → bekeken",
          },
        ]);
      });

      it("filters by period (from, before) and target; refuses a malformed one (400)", async () => {
        const inside = await (
          await call("/api/admin/audit-log?from=2026-01-02T00:00:00.000Z&before=2026-01-03T00:00:00.000Z", {
            cookie,
          })
        ).json();
        expect(inside.items.map((e: { actor: string }) => e.actor)).toEqual(["piet"]);
        const after = await (
          await call("/api/admin/audit-log?from=2026-01-02T10:00:00.001Z&actor=piet", { cookie })
        ).json();
        expect(after.items).toEqual([]);
        expect((await call("/api/admin/audit-log?from=gisteren", { cookie })).status).toBe(400);
        expect((await call(`/api/admin/audit-log?target=${"x".repeat(201)}`, { cookie })).status).toBe(400);
        for (const field of ["actor", "target"]) {
          const nul = await call(`/api/admin/audit-log?${field}=piet%00`, { cookie });
          expect({ field, status: nul.status }).toEqual({ field, status: 400 });
          expect((await nul.json()).fields[0].message).toBe("Bevat een ongeldig teken");
        }
      });

      it("refuses a job that does not fit the catalog (no row, no retry)", async () => {
        const eventId = randomUUID();
        await queue
          .raw("audit")
          .add("audit.record", { eventId, at: new Date().toISOString(), actor: "x", action: "drop.tables" });
        await waitFor(
          () => queue.raw(QUEUES.audit).getJobCounts("failed"),
          (c) => (c.failed ?? 0) >= 1,
        );
        expect(await rowsOf(eventId)).toEqual([]);
      });
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
});
