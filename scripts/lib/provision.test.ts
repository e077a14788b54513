import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { startOwnPostgres, startOwnRedis } from "./provision.mjs";

// The fresh-machine path of `npm start` / `npm test`: when no server answers on the standard
// ports, private servers are started from the installed binaries with their data in a folder of
// the project's own. (CI has servers running, so this path is proved here explicitly.)

const children: ChildProcess[] = [];
const root = mkdtempSync(path.join(tmpdir(), "lease-data-"));
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 1000));
  rmSync(root, { recursive: true, force: true });
});

describe("private database servers for a fresh machine", () => {
  it("initialises and starts a private PostgreSQL that answers queries", async () => {
    const url: string = await startOwnPostgres(children, root);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const r = await client.query("SELECT current_setting('data_directory') AS dir");
    await client.end();
    expect(r.rows[0].dir).toBe(path.join(root, "postgres"));
  }, 60_000);

  it("starts a private Redis with AOF and noeviction", async () => {
    const url: string = await startOwnRedis(children, root);
    const redis = new Redis(url);
    const [, policy] = (await redis.config("GET", "maxmemory-policy")) as string[];
    const [, aof] = (await redis.config("GET", "appendonly")) as string[];
    redis.disconnect();
    expect({ policy, aof }).toEqual({ policy: "noeviction", aof: "yes" });
  }, 30_000);
});
