import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import type { RunningService } from "@lease/platform";
import { serviceMainArgs } from "../../scripts/lib/ts-entry.mjs";

// Migrations by the Job, for every service, with the database rights infra/README.md describes:
// each service's migration entry point (src/main.ts with RUN_MIGRATIONS_ONLY=1, what its
// Kubernetes Job runs) is applied by a migrator role to an empty database and creates the
// service's schema and every table of its drizzle schema; the service itself then starts with a
// role that has no DDL rights, because MIGRATE_ON_START is off (as in the prod overlay).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SERVICES = ["gateway", "leads", "settings", "tracking", "mailer", "conversions"] as const;
type Service = (typeof SERVICES)[number];
const STARTERS: Record<Service, string> = {
  gateway: "startGateway",
  leads: "startLeads",
  settings: "startSettings",
  tracking: "startTracking",
  mailer: "startMailer",
  conversions: "startConversions",
};

let db: TestDatabase;
const rolePrefix =
  `${process.env.TEST_DB_PREFIX ?? "lease_test"}_${randomBytes(3).toString("hex")}`.toLowerCase();
const roles = (service: Service) => ({
  migrator: `${rolePrefix}_${service}_m`,
  runtime: `${rolePrefix}_${service}_r`,
});
const asRole = (role: string) => {
  const u = new URL(db.url);
  u.username = role;
  return u.toString();
};
async function superuser<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  db = await createTestDatabase("migjobs");
  // The grants of infra/README.md ("Database roles"), for every service.
  await superuser(async (c) => {
    await c.query("CREATE SCHEMA drizzle");
    for (const service of SERVICES) {
      const { migrator, runtime } = roles(service);
      await c.query(`CREATE ROLE "${migrator}" LOGIN; CREATE ROLE "${runtime}" LOGIN`);
      await c.query(`GRANT CREATE ON DATABASE "${db.name}" TO "${migrator}"`);
      await c.query(`GRANT USAGE, CREATE ON SCHEMA drizzle TO "${migrator}"`);
      await c.query(`GRANT USAGE ON SCHEMA drizzle TO "${runtime}"`);
      await c.query(`ALTER DEFAULT PRIVILEGES FOR ROLE "${migrator}" GRANT USAGE ON SCHEMAS TO "${runtime}"`);
      await c.query(
        `ALTER DEFAULT PRIVILEGES FOR ROLE "${migrator}" GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO "${runtime}"`,
      );
      await c.query(
        `ALTER DEFAULT PRIVILEGES FOR ROLE "${migrator}" GRANT USAGE, SELECT ON SEQUENCES TO "${runtime}"`,
      );
      // Tracking makes its monthly partitions through the owner's functions (migration 0002).
      await c.query(
        `ALTER DEFAULT PRIVILEGES FOR ROLE "${migrator}" GRANT EXECUTE ON FUNCTIONS TO "${runtime}"`,
      );
    }
  });
});

afterAll(async () => {
  await db?.drop();
  // Grants and default privileges lived in the dropped database; the roles own nothing else now.
  const c = new pg.Client({
    connectionString: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  });
  await c.connect();
  for (const service of SERVICES)
    for (const role of Object.values(roles(service))) await c.query(`DROP ROLE IF EXISTS "${role}"`);
  await c.end();
});

/** Runs a service's real entry point as its migration Job does: only DATABASE_URL (and LOG_LEVEL). */
async function migrationJob(service: Service, databaseUrl: string) {
  const child = spawn(process.execPath, await serviceMainArgs(service), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, LOG_LEVEL: "info", RUN_MIGRATIONS_ONLY: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, output })),
  );
}

async function start(service: Service, env: Record<string, string>): Promise<RunningService> {
  const module = (await import(
    pathToFileURL(path.join(ROOT, `services/${service}/src/service.ts`)).href
  )) as Record<string, (env: NodeJS.ProcessEnv) => Promise<RunningService>>;
  const nowhere = "http://127.0.0.1:9";
  return (module[STARTERS[service]] as (env: NodeJS.ProcessEnv) => Promise<RunningService>)(
    testEnv({
      LEADS_URL: nowhere,
      SETTINGS_URL: nowhere,
      TRACKING_URL: nowhere,
      MAILER_URL: nowhere,
      SENDGRID_API_BASE_URL: nowhere,
      SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      ...env,
    }),
  );
}

/** schema.table of every table in the service's drizzle schema (src/db/schema.ts). */
async function declaredTables(service: Service): Promise<string[]> {
  const module = (await import(
    pathToFileURL(path.join(ROOT, `services/${service}/src/db/schema.ts`)).href
  )) as Record<string, unknown>;
  return Object.values(module)
    .filter((v): v is PgTable => is(v, PgTable))
    .map((t) => getTableConfig(t))
    .map((t) => `${t.schema ?? "public"}.${t.name}`)
    .sort();
}

describe.each(SERVICES)("%s", (service) => {
  const { migrator, runtime } = roles(service);

  it("refuses to start on a schema its migration Job has not migrated (MIGRATE_ON_START off)", async () => {
    await expect(
      start(service, { DATABASE_URL: asRole(runtime), MIGRATE_ON_START: "false" }),
    ).rejects.toThrow(
      `migrations of ${service} are not applied: run its migration Job (RUN_MIGRATIONS_ONLY=1) first`,
    );
  });

  it("its migration entry point creates its schema and every table, owned by the migrator", async () => {
    const first = await migrationJob(service, asRole(migrator));
    expect(first.output).toContain(`${service} schema is up to date`);
    expect(first.code).toBe(0);
    const tables = await declaredTables(service);
    expect(tables.length).toBeGreaterThan(0);
    expect(tables.every((t) => t.startsWith(`${service}.`))).toBe(true);
    const found = await superuser((c) =>
      c.query<{ t: string; owner: string }>(
        `SELECT table_schema || '.' || table_name AS t, pg_catalog.pg_get_userbyid(c.relowner) AS owner
           FROM information_schema.tables JOIN pg_class c ON c.oid = (quote_ident(table_schema) || '.' || quote_ident(table_name))::regclass
          WHERE table_schema = $1`,
        [service],
      ),
    );
    expect(found.rows.map((r) => r.t).sort()).toEqual(expect.arrayContaining(tables));
    expect(new Set(found.rows.map((r) => r.owner))).toEqual(new Set([migrator]));
  }, 60_000);

  it("starts with a role without DDL rights only when MIGRATE_ON_START is off", async () => {
    await expect(start(service, { DATABASE_URL: asRole(runtime) })).rejects.toThrow(
      `cannot apply the migrations of ${service}: permission denied for database ${db.name} (this role has no DDL rights`,
    );
    const svc = await start(service, { DATABASE_URL: asRole(runtime), MIGRATE_ON_START: "false" });
    try {
      const ready = await fetch(`${svc.url}/readyz`);
      expect(ready.status).toBe(200);
      // Its role reads and writes its tables (rights from the default privileges), and has no DDL rights.
      const c = new pg.Client({ connectionString: asRole(runtime) });
      await c.connect();
      try {
        for (const table of await declaredTables(service)) await c.query(`SELECT 1 FROM ${table} LIMIT 1`);
        await expect(c.query(`CREATE TABLE ${service}.intruder (id int)`)).rejects.toThrow(
          /permission denied/,
        );
        if (service === "tracking") {
          // It made this month's partitions at start, owned by the owner role, and writes into them.
          const partitions = await c.query<{ owner: string }>(
            `SELECT pg_catalog.pg_get_userbyid(c.relowner) AS owner FROM pg_inherits i
             JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'tracking.page_views'::regclass`,
          );
          expect(partitions.rows.length).toBeGreaterThanOrEqual(3);
          expect(new Set(partitions.rows.map((r) => r.owner))).toEqual(new Set([migrator]));
          await c.query(`INSERT INTO tracking.page_views VALUES (now(), 1, 1, 1)`);
          await expect(c.query("SELECT tracking.drop_month('2020-01-01')")).resolves.toBeDefined();
          await expect(c.query("SELECT tracking.pack_month('2020-01-01')")).resolves.toBeDefined();
          await expect(c.query("DROP TABLE tracking.pages")).rejects.toThrow(/must be owner/);
        }
      } finally {
        await c.end();
      }
    } finally {
      await svc.stop();
    }
  }, 60_000);
});
