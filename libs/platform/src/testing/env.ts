import { createHash, randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import pg from "pg";

// Test helpers: every test file gets a database of its own (dropped afterwards) and a Redis key
// prefix of its own, on the real servers that scripts/test.mjs provisions.

const baseDatabaseUrl = () => process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const baseRedisUrl = () => process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(label = "t"): Promise<TestDatabase> {
  const base = new URL(baseDatabaseUrl());
  const prefix = (process.env.TEST_DB_PREFIX ?? "lease_test").replace(/[^a-z0-9_]/gi, "_");
  const name =
    `${prefix}_${label.replace(/[^a-z0-9]/gi, "").slice(0, 12)}_${randomBytes(4).toString("hex")}`.toLowerCase();
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    // TEST_DB_TEMPLATE: each database a copy of one prepared before (e.g. the history benchmark's
    // 10 M page views, to walk a test on a stack of that size); it must have no open connections.
    const template = process.env.TEST_DB_TEMPLATE;
    await admin.query(
      `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template.replaceAll('"', "")}"` : ""}`,
    );
  } finally {
    await admin.end();
  }
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      try {
        // A pool's end() resolves before its connections have closed: FORCE would then end them
        // with a FATAL that the ended pool reports as an uncaught error in the test file. Give
        // closing connections a moment; FORCE is left for those a test forgot.
        for (let i = 0; i < 20; i++) {
          const open = await c.query("SELECT 1 FROM pg_stat_activity WHERE datname = $1", [name]);
          if (open.rowCount === 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export const TEST_SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";

/**
 * A Redis key prefix of a test's own. `npm test` sets TEST_REDIS_PREFIX per run and deletes every
 * key under it afterwards, so runs leave nothing behind in a developer's Redis.
 */
export function testRedisPrefix(label = "t"): string {
  return `${process.env.TEST_REDIS_PREFIX ?? ""}${label}${randomBytes(5).toString("hex")}`;
}

/** Environment for a service under test: own Redis prefix, silent logs, port 0. */
export function testEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: "test",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    HOST: "127.0.0.1",
    PORT: "0",
    METRICS_PORT: "0",
    DATABASE_URL: baseDatabaseUrl(),
    // Small pools: npm test runs two test files and the browser tests' stacks side by side, and
    // all of them share the server's max_connections (100 by default).
    DATABASE_POOL_MAX: "4",
    REDIS_URL: baseRedisUrl(),
    REDIS_PREFIX: testRedisPrefix(),
    JWT_SECRET: TEST_SECRET,
    INTERNAL_TOKEN: "internal-token-0123456789-abcdefghijklmnop",
    SHUTDOWN_TIMEOUT_MS: "3000",
    ...overrides,
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface OwnRedis {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops the process (SIGSTOP) without closing its connections: a Redis that hangs. */
  freeze(): void;
  /** Lets a frozen Redis go on (SIGCONT). */
  thaw(): void;
}

/** A private redis-server on a free port, for tests that stop and restart Redis. */
export async function startOwnRedis(extraArgs: string[] = []): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const bin = process.env.REDIS_SERVER_BIN ?? "redis-server";
  const own: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn(
        bin,
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...extraArgs],
        {
          stdio: "ignore",
        },
      );
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        if (await canConnect(port)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`redis-server on port ${port} did not start`);
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once("exit", () => resolve());
        c.kill("SIGCONT");
        c.kill("SIGKILL");
      });
    },
    freeze() {
      child?.kill("SIGSTOP");
    },
    thaw() {
      child?.kill("SIGCONT");
    },
  };
  await own.start();
  return own;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

/** Runs a command to its end with `stdin` as input (a CLI as a user runs it): exit code and output. */
export function runProcess(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string },
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env });
    let out = "";
    let err = "";
    child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
    child.on("close", (code) => resolve({ code, out, err }));
    child.stdin!.end(opts.stdin ?? "");
  });
}

/**
 * A test admin's identity: the id is derived from the name, so the same name is the same admin in
 * every test (e.g. a note's author), as an admin's id is in the gateway's table.
 */
export function testAdmin(username: string): { id: string; username: string } {
  const hex = createHash("sha256").update(`test-admin:${username}`).digest("hex");
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return { id, username };
}

/**
 * A Cookie header value with a fresh, valid admin session for the Redis, prefix and secret in `env`
 * (the admin `username`, whose id is testAdmin's).
 */
export async function adminCookie(env: NodeJS.ProcessEnv, username = "admin"): Promise<string> {
  const { Redis } = await import("ioredis");
  const { issueSession } = await import("../session");
  const { keyspace } = await import("../redis");
  const redis = new Redis(env.REDIS_URL ?? baseRedisUrl());
  try {
    const { token } = await issueSession(
      { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! },
      testAdmin(username),
    );
    return `admin_session=${token}`;
  } finally {
    redis.disconnect();
  }
}
