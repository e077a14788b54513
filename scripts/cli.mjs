#!/usr/bin/env node
// Runs a TypeScript command of this repository the way `npm start` runs the services:
//
//   node scripts/cli.mjs <entry.ts> [args...]
//   e.g. "admin": "node scripts/cli.mjs services/gateway/src/cli/admin.ts" in package.json
//
// Contract, for every command the README names (npm run admin, tracking:import, tracking:retention):
// - It works in the repository root (it changes there itself); <entry.ts> is relative to that
//   root (or absolute), and the command runs with the root as its working directory.
// - DATABASE_URL, REDIS_URL and the generated secrets (JWT_SECRET, INTERNAL_TOKEN,
//   SETTINGS_ENCRYPTION_KEY, from .env) are resolved exactly as `npm start` does
//   (scripts/lib/local-env.mjs): variables already set win; otherwise the local servers, or the
//   private servers of this checkout (running, or started for this command and stopped when it
//   ends; the servers of a running `npm start` are used and left alone), and the database "lease".
// - stdin, stdout and stderr are the command's own (pipe a password or NDJSON into it);
//   SIGINT, SIGTERM and SIGHUP are passed on to it; the runner leaves with its exit code (or dies
//   of the same signal). Setup messages go to stderr, so the command's stdout stays its own.
// - A setup problem (no PostgreSQL/Redis to be found or started) ends with exit code 69 and one
//   line that says what to do; a usage error with 64.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const USAGE = "usage: node scripts/cli.mjs <entry.ts> [args...]";

async function main() {
  const [entry, ...args] = process.argv.slice(2);
  if (!entry) {
    console.error(USAGE);
    return 64;
  }
  process.chdir(ROOT);
  const file = path.resolve(ROOT, entry);
  if (!existsSync(file)) {
    console.error(`${entry}: no such file (${USAGE})`);
    return 64;
  }
  // The setup's messages must not mix into what the command writes to stdout.
  const log = console.log;
  console.log = (...parts) => console.error(...parts);
  const { ensureDependencies, ProvisionError } = await import("./lib/provision.mjs");
  const { localEnvironment } = await import("./lib/local-env.mjs");
  let local;
  try {
    ensureDependencies();
    local = await localEnvironment();
  } catch (err) {
    console.error(err instanceof ProvisionError ? err.message : `setup failed: ${err.message}`);
    return 69;
  } finally {
    console.log = log;
  }
  const { infra, env } = local;

  // The entry as one cached bundle (scripts/lib/ts-entry.mjs): a quarter of tsx's start-up CPU.
  const { entryArgs } = await import("./lib/ts-entry.mjs");
  let command;
  try {
    command = await entryArgs(file);
  } catch (err) {
    console.error(`could not build ${entry}: ${err.message}`);
    await infra.stop();
    return 70;
  }
  const child = spawn(process.execPath, [...command, ...args], {
    stdio: "inherit",
    env,
  });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const s of signals) process.on(s, forward);
  const [code, signal] = await new Promise((resolve) => {
    child.once("error", (err) => {
      console.error(`could not run ${entry}: ${err.message}`);
      resolve([70, null]);
    });
    child.once("exit", (c, s) => resolve([c, s]));
  });
  await infra.stop();
  for (const s of signals) process.off(s, forward);
  if (signal) {
    process.kill(process.pid, signal);
    // Not every signal ends a process: fall back to the shell's convention.
    return 128 + (await import("node:os")).constants.signals[signal];
  }
  return code ?? 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`cli: ${err.message}`);
    process.exit(70);
  },
);
