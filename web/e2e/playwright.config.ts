// The browser tests: @playwright/test driving Debian's Chromium against the real built stack.
//   npx playwright test -c web/e2e/playwright.config.ts [filter]     (or: npm run e2e -- [filter])
// A failed test's screenshot, and the trace of its retry, are kept in .tmp/e2e/results/ (open the
// trace with `npx playwright show-trace .tmp/e2e/results/<test>-retry1/trace.zip`); the JSON report
// that scripts/test.mjs counts is .tmp/e2e/report.json.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const E2E_OUT = join(repo, ".tmp", "e2e");
// Debian's old headless shell (what `npm test` installs, see ensureChromium), else the full browser.
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromium =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.e2e.ts",
  outputDir: join(E2E_OUT, "results"),
  globalSetup: "./global-setup.ts",
  // A hang guard, not a speed check: long stories on a busy 2-core machine take over a minute.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // Tests are independent; with more workers, files run in parallel, each worker with its own admin stack.
  fullyParallel: false,
  // Two workers by default, one per core of the 2-core machine: with the headless shell the whole
  // suite took 171 s with two and 155 s with three (with Chromium's full browser: 326 s with two,
  // 379-421 s with one, 336 s with three and a 2-second timing test failing under the load). Files
  // are spread over the workers. E2E_WORKERS changes it (1 on a machine slow to render).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // A failed test runs once more, recording its trace then: recording every test's trace (to keep
  // the failed ones) cost a sixth of the suite's time. A test that passes only on its retry is
  // flaky, and scripts/test.mjs counts it as failed.
  retries: Number(process.env.E2E_RETRIES ?? 1),
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["json", { outputFile: join(E2E_OUT, "report.json") }]],
  use: {
    browserName: "chromium",
    locale: "nl-NL",
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        // One renderer process for every page of a worker's browser, not one per page: a page's
        // own work stays the same, but 340 renderer starts a run became 151, and the browser
        // tests alone took 205 CPU-s instead of 223 (136 s instead of 142; measured 2026-11-27).
        // The contexts stay apart (cookies, storage); a worker runs one test at a time.
        "--renderer-process-limit=1",
      ],
    },
  },
});
