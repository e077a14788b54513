import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@lease/platform/testing";
import { postgresClusterDir, provision, type Provisioned } from "./lib/provision.mjs";

// scripts/cli.mjs, the runner of every command the README names: with no DATABASE_URL or
// REDIS_URL in the environment it finds PostgreSQL and Redis as `npm start` does. Here nothing
// answers on the ports it probes (other than the shared servers'), so it starts this checkout's
// private servers from a private folder, and stops them again.

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const folder = mkdtempSync(path.join(tmpdir(), "lease-cli-")); // mode 0700, like /root
const dataRoot = path.join(folder, ".data");
const ports = { pg: await freePort(), redis: await freePort() };
const env: NodeJS.ProcessEnv = {
  ...process.env,
  LEASE_DATA_DIR: dataRoot,
  LEASE_PG_PORT: String(ports.pg),
  LEASE_REDIS_PORT: String(ports.redis),
  // Given, so that the runner writes no .env into the checkout.
  JWT_SECRET: randomBytes(48).toString("base64url"),
  INTERNAL_TOKEN: randomBytes(32).toString("base64url"),
  SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
};
delete env.DATABASE_URL;
delete env.REDIS_URL;
let servers: Provisioned | undefined;

afterAll(async () => {
  await servers?.stop();
  const cluster = postgresClusterDir(dataRoot);
  rmSync(folder, { recursive: true, force: true });
  if (!cluster.startsWith(folder)) {
    rmSync(cluster, { recursive: true, force: true });
    rmSync(`${cluster}.checkout`, { force: true });
  }
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runCli(
  args: string[],
  opts: { stdin?: string; onStdout?: (all: string) => void; detached?: boolean } = {},
) {
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/cli.mjs"), ...args], {
    cwd: folder,
    env,
    stdio: ["pipe", "pipe", "pipe"],
    // A process group of its own, like a command in a terminal.
    detached: opts.detached ?? false,
  });
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (d: Buffer) => {
    out.stdout += d.toString();
    opts.onStdout?.(out.stdout);
  });
  child.stderr.on("data", (d: Buffer) => (out.stderr += d.toString()));
  if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
  const done = new Promise<Run>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal, ...out })),
  );
  return { child, done };
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });

async function passwordHash(url: string, username: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query("SELECT password FROM gateway.admins WHERE username = $1", [username]);
    return r.rows[0]?.password as string | undefined;
  } finally {
    await client.end();
  }
}

describe("scripts/cli.mjs", () => {
  it("runs the admin CLI with no DATABASE_URL: starts the private servers, reads stdin, stops them", async () => {
    const run = await runCli(["services/gateway/src/cli/admin.ts", "create", "alice"], {
      stdin: "a-long-password-for-alice\n",
    }).done;
    expect(run.stderr).not.toMatch(/DATABASE_URL is not set/);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: 'Created admin "alice".\n' });
    expect(run.stderr).toContain(`starting PostgreSQL on 127.0.0.1:${ports.pg}`);
    // What it started, it stopped.
    expect(await answers(ports.pg)).toBe(false);
    expect(await answers(ports.redis)).toBe(false);
  }, 60_000);

  it("on a Ctrl-C in the terminal, stops the private servers only after the command has finished", async () => {
    const probe = path.join(folder, "ctrl-c.ts");
    writeFileSync(
      probe,
      `import net from "node:net";
const db = new URL(process.env.DATABASE_URL ?? "x:");
process.on("SIGINT", () => {
  // Still cleaning up a moment later: the database must still be there.
  setTimeout(() => {
    const s = net.connect(Number(db.port), db.hostname);
    s.once("connect", () => { console.log("database answered"); process.exit(0); });
    s.once("error", () => { console.log("database gone"); process.exit(1); });
  }, 500);
});
console.log("ready");
setInterval(() => undefined, 1000);
`,
    );
    let ready: () => void = () => undefined;
    const isReady = new Promise<void>((r) => (ready = r));
    const { child, done } = runCli([probe], {
      detached: true,
      onStdout: (all) => all.includes("ready") && ready(),
    });
    await isReady;
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground process group.
    process.kill(-(child.pid as number), "SIGINT");
    const run = await done;
    expect(run.stdout).toBe("ready\ndatabase answered\n");
    expect(run.code).toBe(0);
    expect(await answers(ports.pg)).toBe(false);
    expect(await answers(ports.redis)).toBe(false);
  }, 60_000);

  it("uses the private servers another command runs, in database lease, and leaves them running", async () => {
    // Started on other ports than the runner probes: it finds them through their recorded addresses.
    servers = await provision({
      LEASE_DATA_DIR: dataRoot,
      LEASE_PG_PORT: String(await freePort()),
      LEASE_REDIS_PORT: String(await freePort()),
    });
    const lease = new URL(servers.databaseServerUrl);
    lease.pathname = "/lease";
    const before = await passwordHash(lease.toString(), "alice");
    expect(before).toMatch(/\S/);
    const run = await runCli(["services/gateway/src/cli/admin.ts", "reset-password", "alice"], {
      stdin: "another-long-password\n",
    }).done;
    expect({ code: run.code, stdout: run.stdout }).toEqual({
      code: 0,
      stdout: 'Password of "alice" changed; every session of "alice" has ended.\n',
    });
    expect(run.stderr).not.toContain("starting PostgreSQL");
    expect(await passwordHash(lease.toString(), "alice")).not.toBe(before);
    expect(existsSync(path.join(dataRoot, "postgres.url"))).toBe(true);
    const client = new pg.Client({ connectionString: servers.databaseServerUrl });
    await client.connect();
    await client.end();
  }, 60_000);

  it("passes stdin, stdout, signals and the exit code through, with the environment npm start gives", async () => {
    const probe = path.join(folder, "probe.ts");
    writeFileSync(
      probe,
      `const lines: string[] = [];
process.stdin.on("data", (d) => lines.push(...String(d).split("\\n").filter(Boolean)));
process.stdin.on("end", () => {
  const db = new URL(process.env.DATABASE_URL ?? "x:").pathname;
  console.log(\`ready \${lines.length} \${db} \${process.env.REDIS_URL} \${(process.env.JWT_SECRET ?? "").length}\`);
});
process.on("SIGTERM", () => {
  console.log("got SIGTERM");
  process.exit(7);
});
setInterval(() => undefined, 1000);
`,
    );
    let ready: () => void = () => undefined;
    const isReady = new Promise<void>((r) => (ready = r));
    const { child, done } = runCli([probe], {
      stdin: '{"a":1}\n{"a":2}\n{"a":3}\n',
      onStdout: (all) => all.includes("ready") && ready(),
    });
    await isReady;
    child.kill("SIGTERM");
    const run = await done;
    expect(run.stdout).toBe(
      `ready 3 /lease ${servers?.redisUrl} ${(env.JWT_SECRET as string).length}\ngot SIGTERM\n`,
    );
    expect(run.code).toBe(7);
  }, 60_000);

  it("answers a usage error with 64", async () => {
    const run = await runCli([]).done;
    expect(run.code).toBe(64);
    expect(run.stderr).toContain("usage: node scripts/cli.mjs <entry.ts> [args...]");
  });
});
