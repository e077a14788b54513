// Finds (or starts) the PostgreSQL and Redis that `npm start`, `npm test` and scripts/cli.mjs need.
// Order: DATABASE_URL / REDIS_URL when set; else the private servers of this checkout when
// another command (npm start) runs them, so every command uses what npm start uses; else the
// local servers on their standard ports (LEASE_PG_PORT / LEASE_REDIS_PORT, default 5432 / 6379);
// else servers installed on this machine, started privately (installing the Debian packages first
// when running as root on Debian) with their data under the data root (LEASE_DATA_DIR, default
// .data); else a message that says what to do.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import path from "node:path";

const say = (msg) => console.log(`[setup] ${msg}`);

export class ProvisionError extends Error {}

/** The folder of this checkout's private servers (LEASE_DATA_DIR, default .data), made absolute. */
export const dataRootOf = (env = process.env) => path.resolve(env.LEASE_DATA_DIR ?? ".data");

/** The ports probed for local servers, and preferred by the private ones. */
export function localPorts(env = process.env) {
  const port = (name, fallback) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1 || value > 65535)
      throw new ProvisionError(`${name} must be a TCP port (1-65535), not "${env[name]}"`);
    return value;
  };
  return { postgres: port("LEASE_PG_PORT", 5432), redis: port("LEASE_REDIS_PORT", 6379) };
}

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
  } catch (err) {
    // The server answers, only without that database (yet): e.g. `npm run backup -- restore`.
    return err.code === "3D000";
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

export function postgresBinDir() {
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

const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const CHROMIUM = "/usr/bin/chromium";

/**
 * The browser tests drive Debian's Chromium. Returns its path: CHROMIUM_PATH when set; else
 * Debian's old headless shell (package `chromium-headless-shell`, the build Playwright itself runs
 * headless), installed first when it is missing and we run as root on Debian; else the full
 * `chromium`, installed the same way. The shell ran the browser suite in about three quarters of
 * the full browser's time (whose headless mode composites and paints like a window), on a third
 * less CPU. Throws a message that says what to do when neither is there.
 */
export function ensureChromium(env = process.env) {
  if (env.CHROMIUM_PATH) {
    if (existsSync(env.CHROMIUM_PATH)) return env.CHROMIUM_PATH;
    throw new ProvisionError(`Chromium not found at CHROMIUM_PATH=${env.CHROMIUM_PATH}`);
  }
  for (const [path, pkg] of [
    [HEADLESS_SHELL, "chromium-headless-shell"],
    [CHROMIUM, "chromium"],
  ]) {
    if (existsSync(path)) return path;
    if (!isRoot() || !isDebian()) continue;
    try {
      aptInstall([pkg]);
    } catch (err) {
      say(err.message);
    }
    if (existsSync(path)) return path;
  }
  throw new ProvisionError(
    `Chromium not found at ${HEADLESS_SHELL} or ${CHROMIUM}: install it (Debian: apt-get install chromium-headless-shell) or set CHROMIUM_PATH`,
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

/** The `postgres` system account (uid, gid, home); the private cluster runs as it when we are root. */
function postgresAccount() {
  const r = spawnSync("getent", ["passwd", "postgres"], { encoding: "utf8" });
  const fields = r.status === 0 ? r.stdout.trim().split(":") : [];
  if (fields.length < 7)
    throw new ProvisionError("the postgres system user is missing; install the postgresql package");
  return { uid: Number(fields[2]), gid: Number(fields[3]), home: fields[5] };
}

/** Options that run a PostgreSQL program as the postgres account when we are root (it refuses root). */
function asPostgres() {
  if (!isRoot()) return {};
  const { uid, gid } = postgresAccount();
  // "/" because the caller's folder (e.g. a checkout in /root) may be closed to that account.
  return { uid, gid, cwd: "/" };
}

/**
 * Where the private PostgreSQL cluster of a data root lives. For a normal user:
 * <dataRoot>/postgres. As root, the cluster runs as the `postgres` system account, which cannot
 * enter a checkout inside a private folder (root's home is 0700) and must not be let in: the data
 * then lives in that account's home, in a folder keyed by the data root's real path,
 * <postgres home>/lease-broker/<key>, next to <key>.checkout naming the data root it belongs to.
 * A cluster that an older version made inside the data root stays in use while postgres can read it.
 */
export function postgresClusterDir(dataRoot = dataRootOf()) {
  const inside = path.join(dataRoot, "postgres");
  if (!isRoot()) return inside;
  const marker = path.join(inside, "PG_VERSION");
  if (existsSync(marker)) {
    if (spawnSync("test", ["-r", marker], asPostgres()).status === 0) return inside;
    say(`the cluster in ${inside} is closed to the postgres user (a private folder); it is left as it is`);
  }
  mkdirSync(dataRoot, { recursive: true });
  const key = createHash("sha256").update(realpathSync(dataRoot)).digest("hex").slice(0, 16);
  return path.join(postgresAccount().home, "lease-broker", key);
}

/** A running private server of this data root, recorded by the command that started it. */
async function runningPrivate(dataRoot, name, answers) {
  const file = path.join(dataRoot, `${name}.url`);
  if (!existsSync(file)) return undefined;
  const url = readFileSync(file, "utf8").trim();
  if (!(await answers(url))) return undefined;
  say(`using the private ${name} this checkout already runs (${url})`);
  return url;
}

/** Records a private server for other commands of this checkout, until it exits. */
function record(child, dataRoot, name, url) {
  const file = path.join(dataRoot, `${name}.url`);
  writeFileSync(file, `${url}\n`);
  child.once("exit", () => rmSync(file, { force: true }));
}

// With `detached` the servers run in process groups of their own, so a Ctrl-C in the terminal
// reaches only the command (npm start, scripts/cli.mjs), which stops its own processes first and
// the servers last (stopChildren) instead of losing the database under services that still drain.
// PostgreSQL's fast shutdown (SIGINT) ends client sessions and checkpoints; SIGTERM would wait.
const stopSignals = new WeakMap();

async function waitFor(child, answers, url, tries, everyMs, what) {
  for (let i = 0; i < tries; i++) {
    if (await answers(url)) return url;
    if (child.exitCode !== null || child.signalCode !== null) break;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new ProvisionError(`the private ${what} did not start; see the messages above`);
}

export async function startOwnPostgres(
  children,
  dataRoot = dataRootOf(),
  preferredPort = 5432,
  detached = false,
) {
  let bin = postgresBinDir();
  if (!bin && isRoot() && isDebian()) {
    aptInstall(["postgresql"]);
    bin = postgresBinDir();
  }
  if (!bin)
    throw new ProvisionError(
      `PostgreSQL is not reachable on 127.0.0.1:${preferredPort} and not installed.${HELP}`,
    );
  mkdirSync(dataRoot, { recursive: true });
  const dir = postgresClusterDir(dataRoot);
  if (!existsSync(path.join(dir, "PG_VERSION"))) {
    if (isRoot()) {
      // Only the postgres account's own folder is prepared; the user's folders keep their modes.
      const { uid, gid } = postgresAccount();
      mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
      chownSync(path.dirname(dir), uid, gid);
      writeFileSync(`${dir}.checkout`, `${dataRoot}\n`);
    } else {
      mkdirSync(dir, { recursive: true });
    }
    say(`initialising a private PostgreSQL cluster in ${dir}`);
    const r = spawnSync(
      path.join(bin, "initdb"),
      ["-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8"],
      { stdio: ["ignore", "ignore", "inherit"], ...asPostgres() },
    );
    if (r.status !== 0) throw new ProvisionError(`initdb failed${r.error ? `: ${r.error.message}` : ""}`);
  }
  const port = await freePort(preferredPort);
  say(`starting PostgreSQL on 127.0.0.1:${port} (data in ${dir})`);
  const child = spawn(
    path.join(bin, "postgres"),
    ["-D", dir, "-p", String(port), "-k", "/tmp"]
      .concat(["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300"])
      // Only what stops the server (FATAL, PANIC): its LOG chatter would drown the command's output;
      // query errors reach the service that ran the query anyway.
      .concat(["-c", "log_min_messages=fatal"]),
    { stdio: ["ignore", "ignore", "inherit"], detached, ...asPostgres() },
  );
  children.push(child);
  stopSignals.set(child, "SIGINT");
  const url = await waitFor(
    child,
    postgresAnswers,
    `postgres://postgres@127.0.0.1:${port}/postgres`,
    100,
    200,
    "PostgreSQL",
  );
  record(child, dataRoot, "postgres", url);
  return url;
}

export async function startOwnRedis(
  children,
  dataRoot = dataRootOf(),
  preferredPort = 6379,
  detached = false,
) {
  let bin = which("redis-server");
  if (!bin && isRoot() && isDebian()) {
    aptInstall(["redis-server"]);
    bin = which("redis-server");
  }
  if (!bin)
    throw new ProvisionError(
      `Redis is not reachable on 127.0.0.1:${preferredPort} and not installed.${HELP}`,
    );
  const dir = path.join(dataRoot, "redis");
  mkdirSync(dir, { recursive: true });
  const port = await freePort(preferredPort);
  say(`starting Redis on 127.0.0.1:${port} (data in ${dir})`);
  const child = spawn(
    bin,
    ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes"].concat([
      "--maxmemory-policy",
      "noeviction",
      "--save",
      "",
    ]),
    { stdio: ["ignore", "ignore", "inherit"], detached },
  );
  children.push(child);
  const url = await waitFor(child, redisAnswers, `redis://127.0.0.1:${port}`, 50, 100, "Redis");
  record(child, dataRoot, "redis", url);
  return url;
}

/**
 * Returns { databaseServerUrl, redisUrl, children, stop }. stop() ends only the servers started
 * here and resolves once they have exited. `detached`: see stopSignals above; a caller that sets it
 * must call stop() on every way out.
 */
export async function provision(env = process.env, { detached = false } = {}) {
  const children = [];
  const dataRoot = dataRootOf(env);
  let databaseServerUrl = env.DATABASE_URL;
  let redisUrl = env.REDIS_URL;
  try {
    const ports = localPorts(env);
    const localPostgres = `postgres://postgres@127.0.0.1:${ports.postgres}/postgres`;
    const localRedis = `redis://127.0.0.1:${ports.redis}`;
    if (databaseServerUrl) {
      if (!(await postgresAnswers(databaseServerUrl)))
        throw new ProvisionError(`DATABASE_URL is set but PostgreSQL does not answer there.${HELP}`);
    } else {
      databaseServerUrl =
        (await runningPrivate(dataRoot, "postgres", postgresAnswers)) ??
        ((await postgresAnswers(localPostgres)) ? localPostgres : undefined) ??
        (await startOwnPostgres(children, dataRoot, ports.postgres, detached));
    }
    if (redisUrl) {
      if (!(await redisAnswers(redisUrl)))
        throw new ProvisionError(`REDIS_URL is set but Redis does not answer there.${HELP}`);
    } else {
      redisUrl =
        (await runningPrivate(dataRoot, "redis", redisAnswers)) ??
        ((await redisAnswers(localRedis)) ? localRedis : undefined) ??
        (await startOwnRedis(children, dataRoot, ports.redis, detached));
    }
  } catch (err) {
    await stopChildren(children);
    throw err;
  }
  return { databaseServerUrl, redisUrl, stop: () => stopChildren(children), children };
}

/** Stops the given servers (fast and clean) and resolves once each has exited. */
export function stopChildren(children) {
  return Promise.all(
    children.map(
      (c) =>
        new Promise((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once("exit", () => resolve());
          c.kill(stopSignals.get(c) ?? "SIGTERM");
          setTimeout(() => c.kill("SIGKILL"), 20_000).unref();
        }),
    ),
  );
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

/** Drops every object a `list` query names (a test run's databases or roles); returns how many. */
async function dropNamed(serverUrl, prefix, list, drop) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await client.connect();
  try {
    const r = await client.query(list, [`${prefix}%`]);
    for (const row of r.rows) await client.query(drop(row.name));
    return r.rowCount;
  } finally {
    await client.end();
  }
}

export const dropDatabasesWithPrefix = (serverUrl, prefix) =>
  dropNamed(
    serverUrl,
    prefix,
    "SELECT datname AS name FROM pg_database WHERE datname LIKE $1",
    (name) => `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`,
  );

/** The login roles a test run made (tests/system/migration-jobs.test.ts), once its databases are gone. */
export const dropRolesWithPrefix = (serverUrl, prefix) =>
  dropNamed(
    serverUrl,
    prefix,
    "SELECT rolname AS name FROM pg_roles WHERE rolname LIKE $1",
    (name) => `DROP ROLE IF EXISTS "${name}"`,
  );

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

/**
 * Installs dependencies when node_modules is missing or does not hold what the lockfile names (a
 * pull that added or bumped a package): every package of package-lock.json that is not optional
 * (platform builds) must be in npm's record of what it installed, at the same version.
 */
export function ensureDependencies() {
  if (existsSync("node_modules/zod") && installedMatchesLock()) return;
  say("installing dependencies (npm ci)");
  // --prefer-offline: packages already in npm's cache are taken from it without asking the registry
  // whether they changed (a lockfile's versions never do): 25 s instead of 33 on a warm cache.
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { stdio: "inherit" });
  if (r.status !== 0) throw new ProvisionError("npm ci failed");
}

function installedMatchesLock() {
  try {
    const wanted = JSON.parse(readFileSync("package-lock.json", "utf8")).packages ?? {};
    const installed = JSON.parse(readFileSync("node_modules/.package-lock.json", "utf8")).packages ?? {};
    // A workspace is a link without a version: a new one (a service added) must be linked too.
    return Object.entries(wanted).every(
      ([key, pkg]) =>
        !key.includes("node_modules/") ||
        pkg.optional ||
        (pkg.link ? installed[key]?.resolved === pkg.resolved : installed[key]?.version === pkg.version),
    );
  } catch {
    return false;
  }
}

export function writeFileIfMissing(file, content) {
  if (!existsSync(file)) writeFileSync(file, content, { mode: 0o600 });
}
