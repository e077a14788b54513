#!/usr/bin/env node
// `npm test`: the same provisioning as `npm start` and the build, then side by side: type check,
// lint and format; unit and integration tests (real PostgreSQL and Redis, a database of this run's
// own, dropped afterwards) with the offline deploy checks; and the browser tests. Ends with where
// the time went and one line: "N passed, N failed".
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { setPriority } from "node:os";
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
// The titles of the tests that failed, repeated at the end (a CI log's tail names them).
const failedTests = [];
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

/**
 * Runs a command to its end: its output shown as it comes (`show: "live"`) or held back and
 * returned, so commands run side by side do not interleave; `log` also writes it to a file as it
 * comes (to follow a long held-back run). `nice` lowers its CPU priority.
 */
const runCommand = (cmd, args, { env = {}, show = "held", log, nice = 0 } = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: show === "live" ? "inherit" : ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    if (nice) {
      try {
        setPriority(child.pid, nice);
      } catch {
        /* not allowed here: it runs at normal priority */
      }
    }
    const chunks = [];
    const logStream = log ? createWriteStream(log) : undefined;
    const collect = (c) => {
      chunks.push(c);
      logStream?.write(c);
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    const timer = setTimeout(() => {
      collect(Buffer.from(`[test] ${cmd} ${args[0]} timed out\n`));
      child.kill("SIGKILL");
    }, STEP_TIMEOUT_MS);
    const done = (ok, extra = "") => {
      clearTimeout(timer);
      logStream?.end();
      resolve({ ok, output: Buffer.concat(chunks).toString() + extra });
    };
    child.on("error", (err) => done(false, `[test] ${cmd}: ${err.message}\n`));
    child.on("close", (code) => done(code === 0));
  });

// The type checker is TypeScript 7's (the native compiler, package alias typescript-native): it
// checks both projects in 10 CPU-seconds where TypeScript 5.9's tsc took 40. TypeScript 5.9 stays
// installed for typescript-eslint's parser and editors.
const TSC = ["node_modules/typescript-native/bin/tsc"];

/** The static checks side by side, at low priority (see main). */
async function staticChecks() {
  const since = Date.now();
  const checks = [
    ["type check", ["node", [...TSC, "-p", "tsconfig.json", "--noEmit"]]],
    [
      "type check (web)",
      existsSync("web/tsconfig.json") && ["node", [...TSC, "-p", "web/tsconfig.json", "--noEmit"]],
    ],
    ["lint (eslint)", ["npx", ["eslint", "--max-warnings=0", "."]]],
    // Parsed by oxc (.prettierrc.json's plugin): the same formatting in half the CPU.
    ["format (prettier)", ["npx", ["prettier", "--check", "--log-level=warn", "."]]],
  ].filter(([, command]) => command);
  const outcomes = await Promise.all(checks.map(([, [cmd, args]]) => runCommand(cmd, args, { nice: 10 })));
  checks.forEach(([name], i) => {
    process.stdout.write(outcomes[i].output);
    step(name, outcomes[i].ok);
  });
  timed("static checks", since);
}

async function vitest(env, only) {
  const since = Date.now();
  rmSync(".tmp/vitest.json", { force: true });
  const { ok } = await runCommand(
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile.json=.tmp/vitest.json", ...only],
    { env, show: "live" },
  );
  const report = existsSync(".tmp/vitest.json")
    ? JSON.parse(readFileSync(".tmp/vitest.json", "utf8"))
    : undefined;
  let failedFiles = 0;
  for (const file of report?.testResults ?? []) {
    const name = file.name.replace(`${process.cwd()}/`, "");
    const failing = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failing) failedTests.push(`vitest: ${name} > ${t.fullName}`);
    // A file that failed as a whole (its setup or import threw) has no failed test of its own.
    if (file.status === "failed" && failing.length === 0) {
      failedFiles++;
      failedTests.push(`vitest: ${name} (the file failed: ${String(file.message ?? "").split("\n")[0]})`);
    }
  }
  const passed = report?.numPassedTests ?? 0;
  const counted = (report?.numFailedTests ?? 0) + failedFiles;
  const failed = counted + (ok || counted ? 0 : 1);
  step("unit and integration tests (vitest)", ok && failed === 0, passed, failed);
  timed("vitest", since);
}

/** @playwright/test; its JSON report (.tmp/e2e/report.json) is what is counted here. */
async function browserTests(env, chromium) {
  const since = Date.now();
  rmSync(".tmp/e2e/report.json", { force: true });
  mkdirSync(".tmp/e2e", { recursive: true });
  console.log(
    "[test] browser tests started; their output follows when they end (as it comes: .tmp/e2e/output.log)",
  );
  const { ok, output } = await runCommand(
    "npx",
    ["playwright", "test", "-c", "web/e2e/playwright.config.ts"],
    {
      env: { ...env, CHROMIUM_PATH: chromium },
      log: ".tmp/e2e/output.log",
    },
  );
  process.stdout.write(`\n[test] browser tests:\n${output}`);
  const report = existsSync(".tmp/e2e/report.json")
    ? JSON.parse(readFileSync(".tmp/e2e/report.json", "utf8"))
    : undefined;
  const e2e = report?.stats;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === "unexpected" || t.status === "flaky")
          failedTests.push(`browser (${t.status}): ${spec.file} > ${[...titles, spec.title].join(" > ")}`);
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  const p = e2e?.expected ?? 0;
  // A skipped browser test is one that did not run; a flaky one failed and passed only on
  // its retry (the retry is there to record a trace, not to forgive a failure).
  const f = (e2e?.unexpected ?? 0) + (e2e?.skipped ?? 0) + (e2e?.flaky ?? 0);
  if (e2e?.flaky) console.log(`[test] ${e2e.flaky} browser test(s) passed only on their retry: flaky`);
  step("browser tests", ok && f === 0 && p > 0, p, ok || f > 0 ? f : Math.max(f, 1));
  timed("browser tests", since);
}

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
    mkdirSync(".tmp", { recursive: true });
    // promtool and prometheus for the rule tests (infra/observability.test.ts, tests/system/observability.test.ts).
    if (!ensurePrometheus()) console.log("[test] prometheus/promtool missing: their tests are skipped");
    const all = only.length === 0;
    const oneAtATime = process.env.TEST_ONE_AT_A_TIME === "1";
    // The static checks need no build (they skip dist/): side by side, they start at once.
    const checking = all && !oneAtATime ? staticChecks() : undefined;
    let chromium;
    let built = false;
    if (all && existsSync("web/e2e/playwright.config.ts")) {
      try {
        chromium = ensureChromium();
      } catch (err) {
        console.error(`[test] ${err.message}`);
        step("Chromium for browser tests", false);
      }
      // Built once, before the parts start: the browser tests and two system tests run services/*/dist.
      const buildStart = Date.now();
      const build = await runCommand("node", ["scripts/build.mjs", "all"], { env });
      timed("build", buildStart);
      built = build.ok;
      if (!built) {
        process.stdout.write(build.output);
        step("build", false);
      }
    }
    // The parts run side by side: the browser tests leave a third of the two cores idle, and the
    // static checks run at low priority in what the tests leave. vitest's output comes as it goes.
    const testEnv = built ? { ...env, SERVICES_BUILT: "1" } : env;
    const parts = [
      () => (all ? (checking ?? staticChecks()) : undefined),
      () => vitest(testEnv, only),
      () => (built && chromium ? browserTests(testEnv, chromium) : undefined),
    ];
    if (oneAtATime) for (const part of parts) await part();
    else await Promise.all(parts.map((part) => part()));
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
  for (const t of failedTests) console.log(`[test] failed test: ${t}`);
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
