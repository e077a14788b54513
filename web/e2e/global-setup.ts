// Once per run: the built web app and services (built when missing, or always with E2E_BUILD=1),
// and the stack the public-site tests use: the built gateway and four services against a database
// of this run's own. Its address reaches the workers as E2E_BASE_URL / E2E_DATABASE_URL.
// With E2E_BASE_URL set (a gateway started elsewhere) nothing is started and `site.sql` is null.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  dropDatabasesWithPrefix,
  ensureDatabase,
  provision,
  withDatabase,
} from "../../scripts/lib/provision.mjs";
import { startStack } from "../../scripts/lib/stack.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL) return async () => undefined;
  if (
    process.env.E2E_BUILD === "1" ||
    !existsSync(join(repo, "web", "dist", "index.html")) ||
    !existsSync(join(repo, "services", "gateway", "dist", "main.js"))
  ) {
    const build = spawnSync(process.execPath, [join(repo, "scripts", "build.mjs"), "all"], {
      stdio: "inherit",
      cwd: repo,
    });
    if (build.status !== 0) throw new Error("build failed");
  }
  // stack.mjs starts services/<name>/dist by relative path.
  process.chdir(repo);
  const infra = await provision();
  const dbName = `${process.env.TEST_DB_PREFIX ?? "lease"}_e2e_${process.pid}`;
  await ensureDatabase(infra.databaseServerUrl, dbName);
  const databaseUrl = withDatabase(infra.databaseServerUrl, dbName);
  const stack = await startStack({
    databaseUrl,
    redisUrl: infra.redisUrl,
    // npm test runs vitest beside the browser tests: their stacks share max_connections.
    env: { LOG_LEVEL: "warn", LEAD_RATE_LIMIT: "1000", DATABASE_POOL_MAX: "4" },
    logDir: join(repo, ".tmp", "e2e", "stack"),
  });
  process.env.E2E_BASE_URL = stack.url as string;
  process.env.E2E_DATABASE_URL = databaseUrl;
  // The admin stacks of the workers use the same servers.
  process.env.DATABASE_URL ??= infra.databaseServerUrl;
  process.env.REDIS_URL ??= infra.redisUrl;
  return async () => {
    await stack.stop();
    await dropDatabasesWithPrefix(infra.databaseServerUrl, dbName);
    infra.stop();
  };
}
