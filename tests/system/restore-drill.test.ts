import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../services/gateway/src/domain/passwords";
import { dumpedLeaseRequestIds, leaseRequestIdsSeenByAdmin, startAdminPath } from "../../scripts/backup";
import { startFullStack, type FullStack } from "./stack";

// Backups (infra/README.md "Backups"): the restore drill of `npm run backup`, and the recovery it
// rehearses: dump, drop the database, restore it, and the admin still sees every lead through the
// API of the services started on the restored database.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PASSWORD = "een-lang-wachtwoord-voor-de-drill";
const folder = mkdtempSync(path.join(tmpdir(), "lease-backup-"));
let stack: FullStack;
let seeded: string[] = [];

beforeAll(async () => {
  stack = await startFullStack({ LEAD_RATE_LIMIT: "1000" });
  const db = new pg.Client({ connectionString: stack.db.url });
  await db.connect();
  await db.query("INSERT INTO gateway.admins (username, password) VALUES ('beheer', $1)", [
    await hashPassword(PASSWORD),
  ]);
  await db.end();
  for (let i = 0; i < 7; i++) {
    const res = await fetch(`${stack.gateway.url}/api/lease-requests`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: stack.gateway.url },
      body: JSON.stringify({
        carUrl: `https://auto.example.nl/model-${i}`,
        contactNumber: `06${String(20_000_000 + i)}`,
        email: `backup${i}@example.nl`,
        companyName: i % 2 ? "Transport B.V." : "",
      }),
    });
    expect(res.status).toBe(201);
    seeded.push(((await res.json()) as { id: string }).id);
  }
  seeded = seeded.sort();
  // The services go; the database stays for the backup.
  await stack.gateway.stop();
  await Promise.all(Object.values(stack.services).map((s) => s.stop()));
}, 60_000);

afterAll(async () => {
  stack?.redis.disconnect();
  await stack?.db.drop();
  rmSync(folder, { recursive: true, force: true });
});

/** `npm run backup -- <args>`: the runner, with this test's database and Redis given. */
function backup(args: string[]) {
  // As an operator runs it: the test kit's METRICS_PORT=0 is not in their environment.
  const env: NodeJS.ProcessEnv = { ...process.env, ...stack.env, DATABASE_URL: stack.db.url };
  delete env.METRICS_PORT;
  const child = spawn(process.execPath, ["scripts/cli.mjs", "scripts/backup.ts", ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, stdout, stderr })),
  );
}

/**
 * What `npm start` holds while it runs: the five services' ports and their metrics ports. A port
 * something else holds already is held all the same, which is what the drill must cope with.
 */
async function holdStackPorts(): Promise<{ release(): Promise<void> }> {
  const ports = [8080, 8081, 8082, 8083, 8084, 8085, 9080, 9081, 9082, 9083, 9084, 9085];
  const servers: Server[] = [];
  for (const port of ports) {
    const server = createServer((socket) => socket.destroy());
    const bound = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (bound) servers.push(server);
  }
  return {
    release: () =>
      Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))).then(() => {}),
  };
}

describe("backups", () => {
  it("the restore drill finds every lease request of a fresh dump through the admin API, beside a running stack", async () => {
    // Run beside `npm start`, as an operator proves last night's dump while the site is up.
    const stackPorts = await holdStackPorts();
    const run = await backup(["drill"]).finally(() => stackPorts.release());
    expect(run.stderr).not.toContain("EADDRINUSE");
    expect(run.stderr).not.toContain("missing");
    // Its summary line (a log line of a service may come before it on a busy machine).
    expect(run.stdout).toMatch(
      /^restore drill: 7 of 7 lease requests in the dump are visible to the admin on the restored database/m,
    );
    expect(run.code).toBe(0);
    // Its scratch database is gone again.
    const c = new pg.Client({ connectionString: stack.db.url });
    await c.connect();
    const left = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [`${stack.db.name}_drill`]);
    await c.end();
    expect(left.rowCount).toBe(0);
  }, 60_000);

  it("dump, drop, restore: the admin signs in and sees every lead on the restored database", async () => {
    const file = path.join(folder, "lease.dump");
    const dump = await backup(["dump", file]);
    expect(dump.code).toBe(0);
    expect(dumpedLeaseRequestIds(file).sort()).toEqual(seeded);

    const admin = new pg.Client({ connectionString: stack.db.url.replace(/\/[^/]+$/, "/postgres") });
    await admin.connect();
    await admin.query(`DROP DATABASE "${stack.db.name}" WITH (FORCE)`);
    await admin.end();

    const restore = await backup(["restore", file]);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    // A second restore would overwrite what is there now: refused unless asked for.
    const again = await backup(["restore", file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      `database ${stack.db.name} already holds conversions, drizzle, gateway, leads, mailer, settings, tracking`,
    );
    expect(again.stderr).toContain("pass --replace to drop it first");

    const services = await startAdminPath(stack.db.url, stack.env);
    try {
      const seen = await leaseRequestIdsSeenByAdmin(services.url, "beheer", PASSWORD);
      expect(seen.sort()).toEqual(seeded);
    } finally {
      await services.stop();
    }
  }, 60_000);
});
