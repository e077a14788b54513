import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLogger, createPool, runMigrations } from "@lease/platform";
import { createTestDatabase, type TestDatabase } from "@lease/platform/testing";
import { dumpedLeaseRequestIds } from "../scripts/backup";
import { renderKustomization } from "./lib/kustomize";

// The nightly backup of the prod overlay, run as it stands in the manifest (its shell script, with
// Debian's pg_dump in place of the image's) against a real database: a whole dump appears under
// its dated name, old dumps and leftovers of failed runs go, the dump holds the leads.

const INFRA = path.dirname(fileURLToPath(import.meta.url));
const cron = renderKustomization(path.join(INFRA, "k8s/overlays/prod")).find((o) => o.kind === "CronJob");
type CronContainer = { command: string[]; args: string[]; env: { name: string; value?: string }[] };
const container = (
  cron?.spec as { jobTemplate: { spec: { template: { spec: { containers: CronContainer[] } } } } }
).jobTemplate.spec.template.spec.containers[0] as CronContainer;
const dir = mkdtempSync(path.join(tmpdir(), "lease-backups-"));
let db: TestDatabase;
let leadId = "";

beforeAll(async () => {
  db = await createTestDatabase("cronbackup");
  const pool = createPool(db.url, createLogger("test", "silent"));
  await runMigrations(pool, "leads", path.join(INFRA, "../services/leads/migrations"));
  const r = await pool.query<{ id: string }>(
    `INSERT INTO leads.lease_requests (car_url, contact_number, email, email_key, phone_key)
     VALUES ('https://auto.example.nl/a', '0612345678', 'a@example.nl', 'a@example.nl', '0612345678') RETURNING id`,
  );
  leadId = r.rows[0]?.id as string;
  await pool.end();
});

afterAll(async () => {
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

it("the CronJob's script dumps the database into a dated file and keeps KEEP_DAYS days", async () => {
  const old = path.join(dir, "lease-20200101T023000Z.dump");
  const recent = path.join(dir, "lease-20990101T023000Z.dump");
  const leftover = path.join(dir, "lease-20200102T023000Z.dump.partial");
  for (const f of [old, recent, leftover]) writeFileSync(f, "x");
  const monthAgo = new Date(Date.now() - 30 * 86_400_000);
  utimesSync(old, monthAgo, monthAgo);

  const manifestEnv = Object.fromEntries(container.env.filter((e) => e.value).map((e) => [e.name, e.value]));
  expect(manifestEnv).toMatchObject({ BACKUP_DIR: "/backups", KEEP_DAYS: "14" });
  const [shell, flag] = container.command as [string, string];
  const run = spawnSync(shell, [flag, container.args[0] as string], {
    env: { PATH: process.env.PATH, ...manifestEnv, BACKUP_DIR: dir, DATABASE_URL: db.url },
    encoding: "utf8",
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);

  const files = readdirSync(dir).sort();
  const made = files.filter((f) => /^lease-\d{8}T\d{6}Z\.dump$/.test(f) && !f.startsWith("lease-2099"));
  expect(made).toHaveLength(1);
  expect(files).toEqual([made[0], path.basename(recent)].sort());
  expect(run.stdout).toContain(`backup: ${path.join(dir, made[0] as string)}`);
  expect(dumpedLeaseRequestIds(path.join(dir, made[0] as string))).toEqual([leadId]);
});

it("the CronJob's script fails, leaving no dump, when the database does not answer", () => {
  const before = readdirSync(dir).sort();
  const run = spawnSync(
    container.command[0] as string,
    [container.command[1] as string, container.args[0] as string],
    {
      env: {
        PATH: process.env.PATH,
        BACKUP_DIR: dir,
        KEEP_DAYS: "14",
        DATABASE_URL: "postgres://postgres@127.0.0.1:1/lease",
      },
      encoding: "utf8",
    },
  );
  expect(run.status).not.toBe(0);
  expect(run.stderr).toMatch(/pg_dump/);
  expect(readdirSync(dir).sort()).toEqual(before);
});
