import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
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
  const child = spawn(process.execPath, ["scripts/cli.mjs", "scripts/backup.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...stack.env, DATABASE_URL: stack.db.url },
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

describe("backups", () => {
  it("the restore drill finds every lease request of a fresh dump through the admin API", async () => {
    const run = await backup(["drill"]);
    expect(run.stderr).not.toContain("missing");
    expect(run.stdout).toMatch(
      /^restore drill: 7 of 7 lease requests in the dump are visible to the admin on the restored database/,
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
      `database ${stack.db.name} already holds drizzle, gateway, leads, mailer, settings, tracking`,
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
