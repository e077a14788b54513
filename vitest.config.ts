import { defineConfig } from "vitest/config";

// One config for the whole workspace: integration tests talk to the real Postgres and Redis that
// scripts/test.mjs provisions (DATABASE_URL / REDIS_URL); each test file creates its own database.
export default defineConfig({
  test: {
    include: [
      "libs/*/src/**/*.test.ts",
      "services/*/src/**/*.test.ts",
      "infra/**/*.test.ts",
      "scripts/**/*.test.ts",
      "tests/**/*.test.ts",
      "web/src/**/*.test.ts",
      "web/src/**/*.test.tsx",
    ],
    exclude: ["**/node_modules/**", "**/dist/**", "web/e2e/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    // A worker imports the platform, the contracts and the services once, not once per file: that
    // import was 110-130 s of the run's CPU. Test files therefore share a module cache and must
    // not lean on module state another file may have set (none does: each test file makes its own
    // databases, Redis prefixes and services).
    isolate: false,
  },
});
