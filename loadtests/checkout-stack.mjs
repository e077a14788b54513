// A stack of one checkout (this one, or another commit's for a comparison in the same run): its
// services built and started from that folder (scripts/lib/stack.mjs of that checkout), real
// PostgreSQL and Redis, a database of its own that stop() drops. Used by the benchmarks that
// compare two commits (beacon-path-cost.mjs, login-flood.mjs).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";

/** How a checkout is named in a table: its folder, commit, and whether it has uncommitted changes. */
export const commitOf = (dir) => {
  const git = (...args) => spawnSync("git", ["-C", dir, ...args], { encoding: "utf8" }).stdout.trim();
  const dirty = git("status", "--porcelain", "--untracked-files=no") ? " +uncommitted" : "";
  return `${path.basename(dir)} ${git("log", "-1", "--format=%h")}${dirty}`;
};

/**
 * Builds the services of `dir` and starts its stack with `env` on top of the defaults below
 * (warn logs, the load generator trusted as the load balancer, SendGrid pointed at nothing).
 * Returns the stack, the database URL, the pid of each named process and stop().
 */
export async function startCheckoutStack(dir, { env = {}, logDir, database }) {
  const build = spawnSync(process.execPath, ["scripts/build.mjs", "services"], {
    cwd: dir,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error(`build failed in ${dir}`);
  const { provision, ensureDatabase, withDatabase, dropDatabasesWithPrefix } = await import(
    `${dir}/scripts/lib/provision.mjs`
  );
  const { startStack } = await import(`${dir}/scripts/lib/stack.mjs`);
  const infra = await provision();
  const db = `${database}_${randomBytes(3).toString("hex")}`;
  await ensureDatabase(infra.databaseServerUrl, db);
  const databaseUrl = withDatabase(infra.databaseServerUrl, db);
  const cwd = process.cwd();
  process.chdir(dir); // the stack starts services/<name>/dist/main.js of this checkout
  const drop = () => dropDatabasesWithPrefix(infra.databaseServerUrl, db).catch(() => undefined);
  try {
    const stack = await startStack({
      databaseUrl,
      redisUrl: infra.redisUrl,
      env: {
        LOG_LEVEL: "warn",
        TRUSTED_PROXIES: "127.0.0.1",
        SENDGRID_API_BASE_URL: "http://127.0.0.1:9",
        ...env,
      },
      logDir: path.join(logDir, path.basename(dir)),
    }).catch(async (err) => {
      // A stack that did not start leaves no database behind either.
      await drop();
      throw err;
    });
    const pid = (name) => stack.processes.find((p) => p.name === name).child.pid;
    const stop = async () => {
      await stack.stop();
      await drop();
    };
    return { stack, databaseUrl, redisUrl: infra.redisUrl, stop, pid };
  } finally {
    process.chdir(cwd);
  }
}
