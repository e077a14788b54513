#!/usr/bin/env node
// Builds what `npm start` and the Dockerfile run: one CommonJS bundle per service, its npm
// packages inlined but for the few below, and the web app (web/dist).
//
// Why one bundle: a service's start was half module loading (resolving hundreds of files in
// node_modules, and lexing every CommonJS package an ES module imports). Bundled as CommonJS, a
// stack of five started in 2.7 CPU-seconds instead of 4.3 and a service in 0.5 s instead of 1.0
// (measured 2026-11-27 on the 2-core machine): what a pod's cold start during a burst waits for.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

export const SERVICES = ["gateway", "leads", "settings", "tracking", "mailer", "conversions"];

/**
 * Left to node_modules (installed beside the bundle, as the Dockerfile's deps stage does), because
 * they find files of their own next to them at run time: argon2 its native addon, msgpackr
 * (BullMQ's) its optional native extractor, ioredis its package.json (the version it reports to
 * Redis), pino the worker files of its transports.
 */
const EXTERNAL_PACKAGES = ["argon2", "msgpackr", "ioredis", "pino"];

/**
 * esbuild options of a service's bundle: `entryPoints` ({ name: source }) into `outdir`. Also those
 * of the commands' cached bundles (scripts/lib/ts-entry.mjs).
 */
export function serviceBundleOptions(entryPoints, outdir) {
  return {
    entryPoints,
    outdir,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: EXTERNAL_PACKAGES,
    // The sources use import.meta.url (their migrations folder, createRequire): the bundle's own URL,
    // as it was for the ES module bundle.
    define: { "import.meta.url": "__bundle_url" },
    banner: { js: 'var __bundle_url = require("node:url").pathToFileURL(__filename).href;' },
    // Stack traces map to the sources (--enable-source-maps); their text need not ship.
    sourcemap: true,
    sourcesContent: false,
    logLevel: "warning",
  };
}

/** Bundles into `outdir`, which gets a package.json of its own: its .js files are CommonJS. */
async function bundleService(entryPoints, outdir) {
  await build(serviceBundleOptions(entryPoints, outdir));
  writeFileSync(`${outdir}/package.json`, `${JSON.stringify({ type: "commonjs" })}\n`);
}

export async function buildServices(only = SERVICES) {
  await Promise.all(
    only.map(async (service) => {
      const entryPoints = { main: `services/${service}/src/main.ts` };
      if (existsSync(`services/${service}/src/cli/admin.ts`))
        entryPoints.admin = `services/${service}/src/cli/admin.ts`;
      await bundleService(entryPoints, `services/${service}/dist`);
    }),
  );
}

// For a test that starts the built stack: builds the services, unless `npm test` built them before
// starting its parts side by side (SERVICES_BUILT=1). A second build would rewrite each service's
// dist while the browser tests start stacks from it.
export async function buildServicesUnlessBuilt() {
  if (process.env.SERVICES_BUILT !== "1") await buildServices();
}

export function buildWeb() {
  const pkg = existsSync("web/package.json") ? JSON.parse(readFileSync("web/package.json", "utf8")) : {};
  if (!pkg.scripts?.build) return true;
  // Always React's production build, whatever NODE_ENV the caller runs with (`npm test` sets "test",
  // under which Vite would bundle React's development build): the browser tests check what ships.
  const r = spawnSync("npm", ["run", "build", "-w", "web"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  return r.status === 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const what = process.argv[2] ?? "all";
  if (what === "all" || what === "services") await buildServices();
  if ((what === "all" || what === "web") && !buildWeb()) process.exit(1);
}
