import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@lease/platform/testing";
import { postgresClusterDir, provision, type Provisioned } from "./provision.mjs";

// The fresh-machine path of `npm start` / `npm test` / scripts/cli.mjs: when no server answers on
// the standard ports, private servers are started from the installed binaries. The checkout sits
// in a folder only its owner can enter (like a clone in /root), so as root this is the case where
// the postgres account may not enter the checkout. The shared servers are left alone: other ports.

const isRoot = process.getuid?.() === 0;
const privateFolder = mkdtempSync(path.join(tmpdir(), "lease-home-")); // mode 0700
const dataRoot = path.join(privateFolder, "checkout", ".data");
const cluster = () => postgresClusterDir(dataRoot);
let infra: Provisioned | undefined;
let clusterDir = "";

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });

afterAll(async () => {
  await infra?.stop();
  rmSync(privateFolder, { recursive: true, force: true });
  if (clusterDir && !clusterDir.startsWith(privateFolder)) {
    rmSync(clusterDir, { recursive: true, force: true });
    rmSync(`${clusterDir}.checkout`, { force: true });
  }
});

describe("private database servers for a fresh machine, from a private folder", async () => {
  const env = {
    LEASE_DATA_DIR: dataRoot,
    LEASE_PG_PORT: String(await freePort()),
    LEASE_REDIS_PORT: String(await freePort()),
  };

  it("starts PostgreSQL and Redis when none answers, on the configured ports, and records them", async () => {
    expect(statSync(privateFolder).mode & 0o777).toBe(0o700);
    infra = await provision(env);
    clusterDir = cluster();
    expect(infra.databaseServerUrl).toBe(`postgres://postgres@127.0.0.1:${env.LEASE_PG_PORT}/postgres`);
    expect(infra.redisUrl).toBe(`redis://127.0.0.1:${env.LEASE_REDIS_PORT}`);
    const client = new pg.Client({ connectionString: infra.databaseServerUrl });
    await client.connect();
    const r = await client.query("SELECT current_setting('data_directory') AS dir");
    await client.query("CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
    await client.end();
    expect(r.rows[0].dir).toBe(clusterDir);
    const redis = new Redis(infra.redisUrl);
    const [, policy] = (await redis.config("GET", "maxmemory-policy")) as string[];
    const [, aof] = (await redis.config("GET", "appendonly")) as string[];
    redis.disconnect();
    expect({ policy, aof }).toEqual({ policy: "noeviction", aof: "yes" });
    // Other commands of this checkout (scripts/cli.mjs) find the running servers through these.
    expect(readFileSync(path.join(dataRoot, "postgres.url"), "utf8").trim()).toBe(infra.databaseServerUrl);
    expect(readFileSync(path.join(dataRoot, "redis.url"), "utf8").trim()).toBe(infra.redisUrl);
  }, 60_000);

  it.skipIf(!isRoot)(
    "as root, keeps the cluster with the postgres account and the private folder closed",
    () => {
      expect(clusterDir.startsWith(privateFolder)).toBe(false);
      expect(statSync(clusterDir).uid).not.toBe(0);
      expect(readFileSync(`${clusterDir}.checkout`, "utf8").trim()).toBe(dataRoot);
      const folder = statSync(privateFolder);
      expect({ mode: folder.mode & 0o777, uid: folder.uid }).toEqual({ mode: 0o700, uid: 0 });
      // The scenario is real: the postgres account cannot enter the checkout.
      const enter = spawnSync("runuser", ["-u", "postgres", "--", "test", "-x", dataRoot], { cwd: "/" });
      expect(enter.status).not.toBe(0);
    },
  );
  if (!isRoot) console.log("not running as root: the private-folder case of the postgres account is skipped");

  it("stops only what it started, and a second start finds the same data", async () => {
    const first = infra as Provisioned;
    await first.stop();
    expect(await answers(Number(env.LEASE_PG_PORT))).toBe(false);
    expect(await answers(Number(env.LEASE_REDIS_PORT))).toBe(false);
    expect(existsSync(path.join(dataRoot, "postgres.url"))).toBe(false);
    infra = await provision(env);
    const client = new pg.Client({ connectionString: infra.databaseServerUrl });
    await client.connect();
    const r = await client.query("SELECT note FROM kept");
    await client.end();
    expect(r.rows).toEqual([{ note: "still here" }]);
    // Another command while they run finds them (through the recorded addresses, even when the
    // ports it probes are others) and owns nothing.
    const again = await provision({
      ...env,
      LEASE_PG_PORT: String(await freePort()),
      LEASE_REDIS_PORT: String(await freePort()),
    });
    expect(again.children).toEqual([]);
    expect([again.databaseServerUrl, again.redisUrl]).toEqual([infra.databaseServerUrl, infra.redisUrl]);
    await again.stop();
    // ...and prefers them to whatever answers on the standard ports (here the shared 5432/6379):
    // every command of the checkout uses what its `npm start` uses.
    const standard = await provision({ LEASE_DATA_DIR: dataRoot });
    expect([standard.databaseServerUrl, standard.redisUrl]).toEqual([
      infra.databaseServerUrl,
      infra.redisUrl,
    ]);
    await standard.stop();
    expect(await answers(Number(env.LEASE_PG_PORT))).toBe(true);
  }, 60_000);
});

it("refuses a LEASE_PG_PORT that is not a port", async () => {
  mkdirSync(dataRoot, { recursive: true });
  await expect(provision({ LEASE_DATA_DIR: dataRoot, LEASE_PG_PORT: "54x" })).rejects.toThrow(
    /LEASE_PG_PORT must be a TCP port/,
  );
});
