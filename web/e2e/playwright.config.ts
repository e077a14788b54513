// The browser tests: @playwright/test driving Debian's Chromium against the real built stack.
//   npx playwright test -c web/e2e/playwright.config.ts [filter]     (or: npm run e2e -- [filter])
// Traces and screenshots of a failed test are kept in .tmp/e2e/results/ (open a trace with
// `npx playwright show-trace .tmp/e2e/results/<test>/trace.zip`); the JSON report that
// scripts/test.mjs counts is .tmp/e2e/report.json.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const E2E_OUT = join(repo, ".tmp", "e2e");

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.e2e.ts",
  outputDir: join(E2E_OUT, "results"),
  globalSetup: "./global-setup.ts",
  // A hang guard, not a speed check: long stories on a busy 2-core machine take over a minute.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // Tests are independent; with more workers, files run in parallel, each with its own admin stack.
  fullyParallel: false,
  // Two workers by default, one per core of the 2-core machine: the whole suite took 326 s with two,
  // 379-421 s with one and 336 s with three (with a 2-second timing test failing under the load);
  // files are spread over the workers. E2E_WORKERS changes it (1 on a machine slow to render).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["json", { outputFile: join(E2E_OUT, "report.json") }]],
  use: {
    browserName: "chromium",
    locale: "nl-NL",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
