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
  },
});
