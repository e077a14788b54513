#!/usr/bin/env node
// Generates a service's SQL migrations from its drizzle schema: node scripts/generate-migrations.mjs leads
import { spawnSync } from "node:child_process";

const services = process.argv.slice(2);
if (services.length === 0) {
  console.error("usage: node scripts/generate-migrations.mjs <service> [...]");
  process.exit(2);
}
for (const service of services) {
  const r = spawnSync(
    "npx",
    [
      "drizzle-kit",
      "generate",
      "--dialect",
      "postgresql",
      "--schema",
      `services/${service}/src/db/schema.ts`,
      "--out",
      `services/${service}/migrations`,
    ],
    { stdio: "inherit" },
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
}
