// Finds (or starts) the PostgreSQL and Redis that `npm start` and `npm test` need.
// Order: DATABASE_URL / REDIS_URL when set; else the local servers on their standard ports;
// else servers installed on this machine, started in .data/ (installing the Debian packages
// first when running as root on Debian); else a message that says what to do.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync, chownSync } from "node:fs";
import net from "node:net";
import path from "node:path";

const DATA = path.resolve(process.env.LEASE_DATA_DIR ?? ".data");
const say = (msg) => console.log(`[setup] ${msg}`);

export class ProvisionError extends Error {}

function canConnect(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (ok) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once("connect", () => done(true));
    s.once("error", () => done(false));
  });
}

async function postgresAnswers(url) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisAnswers(url) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    let buf = "";
    s.setTimeout(1500, () => {
      s.destroy();
      resolve(false);
    });
    s.once("error", () => resolve(false));
    s.on("connect", () => s.write("PING\r\n"));
    s.on("data", (d) => {
      buf += d.toString();
      s.destroy();
      resolve(buf.startsWith("+PONG") || buf.startsWith("-NOAUTH"));
    });
  });
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;
const isDebian = () => existsSync("/etc/debian_version");

function which(bin) {
  const r = spawnSync("sh", ["-c", `command -v ${bin}`], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function postgresBinDir() {
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
    for (const v of versions)
      if (existsSync(path.join(base, v, "bin", "initdb"))) return path.join(base, v, "bin");
  }
  const initdb = which("initdb");
  return initdb ? path.dirname(initdb) : undefined;
}

function aptInstall(packages) {
  say(`installing ${packages.join(", ")} with apt-get (running as root on Debian)`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update"], { stdio: "inherit", env });
  const install = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", ...packages], {
    stdio: "inherit",
    env,
  });
  if (update.status !== 0 || install.status !== 0)
    throw new ProvisionError(`apt-get install ${packages.join(" ")} failed`);
  // Debian's postinst may start the packaged servers; we only use our own private ones.
}

/**
 * The browser tests drive Debian's Chromium. Returns its path, installing the `chromium` package
 * first when it is missing and we run as root on Debian; otherwise throws a message that says
 * what to do.
 */
export function ensureChromium(env = process.env) {
  const wanted = env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (existsSync(wanted)) return wanted;
  if (!env.CHROMIUM_PATH && isRoot() && isDebian()) {
    aptInstall(["chromium"]);
    if (existsSync(wanted)) return wanted;
  }
  throw new ProvisionError(
    `Chromium not found at ${wanted}: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH`,
  );
}

/**
 * Debian's Prometheus (`promtool` and the server) for the rule tests and the live scrape check.
 * Installed like Chromium when missing and we run as root on Debian; returns whether promtool is
 * there (the tests skip with a message when it is not).
 */
export function ensurePrometheus() {
  if (which("promtool") && which("prometheus")) return true;
  if (isRoot() && isDebian()) {
    try {
      aptInstall(["prometheus"]);
    } catch (err) {
      say(`${err.message}; the Prometheus rule tests will be skipped`);
    }
  }
  return Boolean(which("promtool") && which("prometheus"));
}

async function freePort(preferred) {
  if (!(await canConnect("127.0.0.1", preferred))) return preferred;
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const HELP = `
PostgreSQL 15+ and Redis 7 are needed. Either:
  - export DATABASE_URL=postgres://USER@HOST:5432/DB and REDIS_URL=redis://HOST:6379, or
  - install them (Debian/Ubuntu: sudo apt-get install postgresql redis-server) and run this again, or
  - run them with Docker: docker compose -f infra/docker-compose.yml up -d postgres redis
    then export DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/lease REDIS_URL=redis://127.0.0.1:6379`;

export async function startOwnPostgres(children, dataRoot = DATA) {
  let bin = postgresBinDir();
  if (!bin && isRoot() && isDebian()) {
    aptInstall(["postgresql"]);
    bin = postgresBinDir();
  }
  if (!bin)
    throw new ProvisionError(`PostgreSQL is not reachable on 127.0.0.1:5432 and not installed.${HELP}`);
  const dir = path.join(dataRoot, "postgres");
  const asPostgres = isRoot() ? ["runuser", "-u", "postgres", "--"] : [];
  if (!existsSync(path.join(dir, "PG_VERSION"))) {
    mkdirSync(dir, { recursive: true });
    if (isRoot()) {
      const pw = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
      if (pw.status !== 0)
        throw new ProvisionError("the postgres system user is missing; install the postgresql package");
      const uid = Number(pw.stdout.trim());
      const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
      chownSync(dataRoot, uid, gid);
      chownSync(dir, uid, gid);
    }
    say(`initialising a private PostgreSQL cluster in ${dir}`);
    const [cmd, ...args] = [
      ...asPostgres,
      path.join(bin, "initdb"),
      "-D",
      dir,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
    ];
    const r = spawnSync(cmd, args, { stdio: "inherit" });
    if (r.status !== 0) throw new ProvisionError("initdb failed");
  }
  const port = await freePort(5432);
  const [cmd, ...args] = [
    ...asPostgres,
    path.join(bin, "postgres"),
    "-D",
    dir,
    "-p",
    String(port),
    "-k",
    "/tmp",
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "max_connections=300",
  ];
  say(`starting PostgreSQL on 127.0.0.1:${port}`);
  const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "inherit"], detached: false });
  children.push(child);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  for (let i = 0; i < 100; i++) {
    if (await postgresAnswers(url)) return url;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new ProvisionError("the private PostgreSQL did not start; see the messages above");
}

export async function startOwnRedis(children, dataRoot = DATA) {
  let bin = which("redis-server");
  if (!bin && isRoot() && isDebian()) {
    aptInstall(["redis-server"]);
    bin = which("redis-server");
  }
  if (!bin) throw new ProvisionError(`Redis is not reachable on 127.0.0.1:6379 and not installed.${HELP}`);
  const dir = path.join(dataRoot, "redis");
  mkdirSync(dir, { recursive: true });
  const port = await freePort(6379);
  say(`starting Redis on 127.0.0.1:${port}`);
  const child = spawn(
    bin,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--appendonly",
      "yes",
      "--maxmemory-policy",
      "noeviction",
      "--save",
      "",
    ],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  children.push(child);
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (await redisAnswers(url)) return url;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new ProvisionError("the private Redis did not start");
}

/** Returns { databaseServerUrl, redisUrl, stop } — stop() ends only the servers started here. */
export async function provision(env = process.env) {
  const children = [];
  let databaseServerUrl = env.DATABASE_URL;
  let redisUrl = env.REDIS_URL;
  try {
    if (databaseServerUrl) {
      if (!(await postgresAnswers(databaseServerUrl)))
        throw new ProvisionError(`DATABASE_URL is set but PostgreSQL does not answer there.${HELP}`);
    } else if (await postgresAnswers("postgres://postgres@127.0.0.1:5432/postgres")) {
      databaseServerUrl = "postgres://postgres@127.0.0.1:5432/postgres";
    } else {
      databaseServerUrl = await startOwnPostgres(children);
    }
    if (redisUrl) {
      if (!(await redisAnswers(redisUrl)))
        throw new ProvisionError(`REDIS_URL is set but Redis does not answer there.${HELP}`);
    } else if (await redisAnswers("redis://127.0.0.1:6379")) {
      redisUrl = "redis://127.0.0.1:6379";
    } else {
      redisUrl = await startOwnRedis(children);
    }
  } catch (err) {
    stopChildren(children);
    throw err;
  }
  return { databaseServerUrl, redisUrl, stop: () => stopChildren(children), children };
}

function stopChildren(children) {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
}

/** Same server, another database name. */
export function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function ensureDatabase(serverUrl, name) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await client.connect();
  try {
    const r = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (r.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

export async function dropDatabasesWithPrefix(serverUrl, prefix) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await client.connect();
  try {
    const r = await client.query("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${prefix}%`]);
    for (const row of r.rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    return r.rowCount;
  } finally {
    await client.end();
  }
}

/** Deletes every Redis key whose name starts with `prefix` (a test run's keys); returns how many. */
export async function deleteRedisKeysWithPrefix(redisUrl, prefix) {
  const { Redis } = await import("ioredis");
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== "0");
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** Installs dependencies when node_modules is missing or older than the lockfile. */
export function ensureDependencies() {
  if (existsSync("node_modules/.package-lock.json") && existsSync("node_modules/zod")) return;
  say("installing dependencies (npm ci)");
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { stdio: "inherit" });
  if (r.status !== 0) throw new ProvisionError("npm ci failed");
}

export function writeFileIfMissing(file, content) {
  if (!existsSync(file)) writeFileSync(file, content, { mode: 0o600 });
}
