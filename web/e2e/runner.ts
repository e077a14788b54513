import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type BrowserContext } from "playwright-core";
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  cleanups,
  createE2E,
  registeredTests,
  setCurrentFile,
} from "./harness";
import pg from "pg";
import {
  ensureDatabase,
  dropDatabasesWithPrefix,
  provision,
  withDatabase,
} from "../../scripts/lib/provision.mjs";
import { startStack } from "../../scripts/lib/stack.mjs";
import type { Sql } from "./harness";

const e2eDir = dirname(fileURLToPath(import.meta.url));
const webDir = join(e2eDir, "..");
const TEST_TIMEOUT_MS = 60_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`test timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        done(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        fail(error);
      },
    );
  });
}

/** Runs the browser tests whose file or name contains one of the filters; returns the exit code. */
export async function main(filters: string[]): Promise<number> {
  let baseUrl = process.env.E2E_BASE_URL;
  let sql: Sql | null = null;
  let teardown = async () => undefined as void;
  if (!baseUrl) {
    // The real stack: built gateway and services against PostgreSQL and Redis, in a database of its own.
    const repo = join(webDir, "..");
    if (
      process.env.E2E_BUILD === "1" ||
      !existsSync(join(webDir, "dist", "index.html")) ||
      !existsSync(join(repo, "services", "gateway", "dist", "main.js"))
    ) {
      const build = spawnSync(process.execPath, [join(repo, "scripts", "build.mjs"), "all"], {
        stdio: "inherit",
        cwd: repo,
      });
      if (build.status !== 0) throw new Error("build failed");
    }
    const infra = await provision();
    const dbName = `lease_e2e_${process.pid}`;
    await ensureDatabase(infra.databaseServerUrl, dbName);
    const databaseUrl = withDatabase(infra.databaseServerUrl, dbName);
    const stack = await startStack({
      databaseUrl,
      redisUrl: infra.redisUrl,
      env: { LOG_LEVEL: "warn", LEAD_RATE_LIMIT: "1000" },
      logDir: join(repo, ".tmp", "e2e-stack"),
    });
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    pool.on("error", () => undefined);
    sql = async (text, params) => (await pool.query(text, params)).rows;
    baseUrl = stack.url as string;
    teardown = async () => {
      await pool.end();
      await stack.stop();
      await dropDatabasesWithPrefix(infra.databaseServerUrl, dbName);
      infra.stop();
    };
  }

  const files = readdirSync(e2eDir)
    .filter((name) => name.endsWith(".e2e.ts"))
    .sort();
  // A filter naming files loads only those files (some suites prepare their world when imported).
  const named = files.filter((file) => filters.some((filter) => file.includes(filter)));
  for (const file of named.length > 0 ? named : files) {
    setCurrentFile(file);
    await import(pathToFileURL(join(e2eDir, file)).href);
  }
  const selected = registeredTests.filter(
    (t) =>
      filters.length === 0 || filters.some((filter) => t.file.includes(filter) || t.name.includes(filter)),
  );

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  let passed = 0;
  let failed = 0;
  console.log(`browser tests against ${baseUrl}`);
  for (const t of selected) {
    const contexts: BrowserContext[] = [];
    const started = Date.now();
    try {
      await withTimeout(t.fn(createE2E(browser, baseUrl!, sql, contexts)), TEST_TIMEOUT_MS);
      passed++;
      console.log(`  ✓ ${t.file} › ${t.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed++;
      console.log(
        `  ✗ ${t.file} › ${t.name}\n      ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    }
  }
  for (const cleanup of cleanups) await cleanup().catch((error) => console.error("cleanup failed:", error));
  await browser.close();
  await teardown();
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 || selected.length === 0 ? 1 : 0;
}
