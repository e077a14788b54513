#!/usr/bin/env node
// Builds what `npm start` and the Dockerfile run: one ESM bundle per service (workspace libs and
// the OpenTelemetry SDK inlined, other npm packages left external) and the web app (web/dist).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { build } from "esbuild";

export const SERVICES = ["gateway", "leads", "settings", "tracking", "mailer"];

const externalPackages = {
  name: "external-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      // The OpenTelemetry SDK is installed beside libs/platform (its versions differ from the ones
      // dev tools pull in at the root), out of a bundle's reach at run time: bundle it. Its modules
      // are only evaluated when tracing is switched on (libs/platform/src/tracing.ts imports them lazily).
      if (args.path.startsWith("@lease/") || args.path.startsWith("@opentelemetry/")) return undefined;
      // A bundled package's own subpath imports ("#platform") resolve inside that package.
      if (args.path.startsWith("#")) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function buildServices(only = SERVICES) {
  await Promise.all(
    only.map(async (service) => {
      const entryPoints = { main: `services/${service}/src/main.ts` };
      if (existsSync(`services/${service}/src/cli/admin.ts`))
        entryPoints.admin = `services/${service}/src/cli/admin.ts`;
      await build({
        entryPoints,
        outdir: `services/${service}/dist`,
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        sourcemap: true,
        logLevel: "warning",
        plugins: [externalPackages],
      });
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
