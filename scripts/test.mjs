#!/usr/bin/env node
// `npm test`: the same provisioning as `npm start`, then type check, lint, unit and integration
// tests (real PostgreSQL and Redis, a database of this run's own, dropped afterwards), the offline
// deploy checks and the browser tests. Ends with one line: "N passed, N failed".
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import {
  deleteRedisKeysWithPrefix,
  dropDatabasesWithPrefix,
  dropRolesWithPrefix,
  ensureDependencies,
  ensureChromium,
  ensureDatabase,
  ensurePrometheus,
  provision,
  withDatabase,
} from "./lib/provision.mjs";

const results = [];
// Where the run's time went, printed before the last line (one entry per phase).
const started = Date.now();
const times = [];
const timed = (phase, since) => times.push(`${phase} ${Math.round((Date.now() - since) / 1000)} s`);
const step = (name, ok, passed = ok ? 1 : 0, failed = ok ? 0 : 1) => {
  results.push({ name, ok, passed, failed });
  console.log(
    `\n[test] ${ok ? "ok  " : "FAIL"} ${name}${passed + failed > 1 ? ` (${passed} passed, ${failed} failed)` : ""}\n`,
  );
};
// No step may hang the run: CI gives the whole suite 90 minutes, a step gets at most 30.
const STEP_TIMEOUT_MS = 30 * 60_000;
const run = (cmd, args, env) => {
  const r = spawnSync(cmd, args, {
    stdio: "inherit",
    env: { ...process.env, ...env },
    timeout: STEP_TIMEOUT_MS,
    killSignal: "SIGKILL",
  });
  if (r.error?.code === "ETIMEDOUT") console.error(`[test] ${cmd} ${args[0]} timed out`);
  return r.status === 0;
};

/** Runs a command with its output held back, so commands run side by side do not interleave. */
const runQuiet = (cmd, args) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
    const timer = setTimeout(() => {
      chunks.push(Buffer.from(`[test] ${cmd} ${args[0]} timed out\n`));
      child.kill("SIGKILL");
    }, STEP_TIMEOUT_MS);
    child.on("error", (err) => {
      clearTimeout(timer);
      resolve({ ok: false, output: `[test] ${cmd}: ${err.message}\n` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, output: Buffer.concat(chunks).toString() });
    });
  });

async function main() {
  const setupStart = Date.now();
  ensureDependencies();
  const infra = await provision();
  const runId = randomBytes(4).toString("hex");
  const prefix = `lease_test_${runId}`;
  const runDb = `${prefix}_run`;
  await ensureDatabase(infra.databaseServerUrl, runDb);
  const env = {
    NODE_ENV: "test",
    DATABASE_URL: withDatabase(infra.databaseServerUrl, runDb),
    REDIS_URL: infra.redisUrl,
    TEST_DB_PREFIX: prefix,
    // Every Redis key of this run starts with it (testEnv, the browser tests' stack): removed below.
    TEST_REDIS_PREFIX: `lt${runId}`,
  };
  const only = process.argv.slice(2);
  timed("setup", setupStart);
  try {
    if (only.length === 0) {
      const checksStart = Date.now();
      // The static checks are single-threaded each: side by side they share the cores.
      const checks = await Promise.all([
        runQuiet("npx", ["tsc", "-p", "tsconfig.json", "--noEmit"]),
        existsSync("web/tsconfig.json")
          ? runQuiet("npx", ["tsc", "-p", "web/tsconfig.json", "--noEmit"])
          : Promise.resolve(undefined),
        runQuiet("npx", ["eslint", "--max-warnings=0", "."]),
        runQuiet("npx", ["prettier", "--check", "--log-level=warn", "."]),
      ]);
      ["type check", "type check (web)", "lint (eslint)", "format (prettier)"].forEach((name, i) => {
        if (checks[i] === undefined) return;
        process.stdout.write(checks[i].output);
        step(name, checks[i].ok);
      });
      timed("static checks", checksStart);
    }
    // promtool and prometheus for the rule tests (infra/observability.test.ts, tests/system/observability.test.ts).
    if (!ensurePrometheus()) console.log("[test] prometheus/promtool missing: their tests are skipped");
    const vitestStart = Date.now();
    mkdirSync(".tmp", { recursive: true });
    rmSync(".tmp/vitest.json", { force: true });
    const vitestOk = run(
      "npx",
      [
        "vitest",
        "run",
        "--reporter=default",
        "--reporter=json",
        "--outputFile.json=.tmp/vitest.json",
        ...only,
      ],
      env,
    );
    const report = existsSync(".tmp/vitest.json")
      ? JSON.parse(readFileSync(".tmp/vitest.json", "utf8"))
      : undefined;
    const passed = report?.numPassedTests ?? 0;
    const failed = (report?.numFailedTests ?? 0) + (vitestOk || report?.numFailedTests ? 0 : 1);
    step("unit and integration tests (vitest)", vitestOk && failed === 0, passed, failed);
    timed("vitest", vitestStart);

    if (only.length === 0 && existsSync("web/e2e/playwright.config.ts")) {
      let chromium;
      try {
        chromium = ensureChromium();
      } catch (err) {
        console.error(`[test] ${err.message}`);
      }
      const buildStart = Date.now();
      const built = chromium !== undefined && run("node", ["scripts/build.mjs", "all"], env);
      timed("build", buildStart);
      if (chromium === undefined) step("Chromium for browser tests", false);
      else if (!built) step("build for browser tests", false);
      else {
        // @playwright/test; its JSON report (.tmp/e2e/report.json) is what is counted here.
        rmSync(".tmp/e2e/report.json", { force: true });
        const e2eStart = Date.now();
        const e2eOk = run("npx", ["playwright", "test", "-c", "web/e2e/playwright.config.ts"], {
          ...env,
          CHROMIUM_PATH: chromium,
        });
        const e2e = existsSync(".tmp/e2e/report.json")
          ? JSON.parse(readFileSync(".tmp/e2e/report.json", "utf8")).stats
          : undefined;
        const p = e2e?.expected ?? 0;
        // A skipped browser test is one that did not run; a flaky one failed and passed only on
        // its retry (the retry is there to record a trace, not to forgive a failure).
        const f = (e2e?.unexpected ?? 0) + (e2e?.skipped ?? 0) + (e2e?.flaky ?? 0);
        if (e2e?.flaky) console.log(`[test] ${e2e.flaky} browser test(s) passed only on their retry: flaky`);
        step("browser tests", e2eOk && f === 0 && p > 0, p, e2eOk || f > 0 ? f : Math.max(f, 1));
        timed("browser tests", e2eStart);
      }
    }
  } finally {
    await dropDatabasesWithPrefix(infra.databaseServerUrl, prefix).catch((err) =>
      console.error(`[test] cleanup: ${err.message}`),
    );
    await dropRolesWithPrefix(infra.databaseServerUrl, prefix).catch((err) =>
      console.error(`[test] cleanup: ${err.message}`),
    );
    await deleteRedisKeysWithPrefix(infra.redisUrl, env.TEST_REDIS_PREFIX).catch((err) =>
      console.error(`[test] cleanup: ${err.message}`),
    );
    await infra.stop();
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  for (const r of results) if (!r.ok) console.log(`[test] failed step: ${r.name}`);
  timed("in all", started);
  console.log(`[test] time: ${times.join(", ")}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(`[test] ${err.message}`);
  console.log("0 passed, 1 failed");
  process.exit(1);
});
