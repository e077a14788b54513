#!/usr/bin/env node
// `npm start`: install, find or start PostgreSQL and Redis, create secrets, build, migrate,
// create the first admin, start the gateway and the five services. Ctrl-C stops what it started.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { localEnvironment } from "./lib/local-env.mjs";
import { ensureDependencies, ProvisionError } from "./lib/provision.mjs";
import { serviceNodeArgs } from "./lib/stack.mjs";

// Metrics are served apart from the public ports, on 127.0.0.1 only (README: "Metrics").
const SERVICES = [
  { name: "leads", port: 8081, metricsPort: 9081 },
  { name: "settings", port: 8082, metricsPort: 9082 },
  { name: "tracking", port: 8083, metricsPort: 9083 },
  { name: "mailer", port: 8084, metricsPort: 9084 },
  { name: "conversions", port: 8085, metricsPort: 9085 },
  { name: "gateway", port: Number(process.env.PORT ?? 8080), metricsPort: 9080 },
];

async function waitHealthy(url, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

let shutdown = (code) => process.exit(code);

async function main() {
  ensureDependencies();
  const { infra, env } = await localEnvironment();
  const running = [...infra.children];
  let stopping = false;
  const stopAll = (code) => {
    if (stopping) return;
    stopping = true;
    console.log("\n[start] stopping...");
    const apps = running.filter((c) => !infra.children.includes(c));
    for (const c of apps) if (c.exitCode === null) c.kill("SIGTERM");
    const wait = setInterval(() => {
      if (apps.every((c) => c.exitCode !== null || c.signalCode !== null)) {
        clearInterval(wait);
        infra.stop().then(() => process.exit(code));
      }
    }, 100);
    setTimeout(() => {
      for (const c of running) if (c.exitCode === null) c.kill("SIGKILL");
      process.exit(code);
    }, 15_000).unref();
  };
  shutdown = stopAll;
  // The private servers are not in this terminal's process group: only stopAll() ends them.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stopAll(0));

  console.log("[start] building services and web app");
  const build = spawnSync(
    "node",
    ["scripts/build.mjs", process.env.SKIP_WEB_BUILD === "1" ? "services" : "all"],
    { stdio: "inherit", env },
  );
  if (build.status !== 0) throw new Error("build failed");

  const admin = spawnSync("node", ["services/gateway/dist/admin.js", "ensure-first"], {
    stdio: "inherit",
    env,
  });
  if (admin.status !== 0) throw new Error("could not create the first admin");

  const urls = Object.fromEntries(SERVICES.map((s) => [s.name, `http://127.0.0.1:${s.port}`]));
  for (const svc of SERVICES) {
    const child = spawn("node", serviceNodeArgs(svc.name), {
      stdio: "inherit",
      env: {
        ...env,
        PORT: String(svc.port),
        HOST: svc.name === "gateway" ? (process.env.HOST ?? "127.0.0.1") : "127.0.0.1",
        METRICS_PORT: String(svc.metricsPort),
        METRICS_HOST: "127.0.0.1",
        LEADS_URL: urls.leads,
        SETTINGS_URL: urls.settings,
        TRACKING_URL: urls.tracking,
        MAILER_URL: urls.mailer,
        CONVERSIONS_URL: urls.conversions,
        WEB_DIST_DIR: "web/dist",
      },
    });
    running.push(child);
    child.on("exit", (code, signal) => {
      if (!stopping) {
        console.error(`[start] ${svc.name} exited (${signal ?? code}); stopping everything`);
        stopAll(1);
      }
    });
    if (!(await waitHealthy(urls[svc.name], 20_000))) throw new Error(`${svc.name} did not become healthy`);
  }
  console.log(`
[start] The site is up: ${urls.gateway}
        Admin panel:    ${urls.gateway}/admin-login  (user from the line "Created admin" above on the first start,
                        then the tab "Gebruikers" for the team and two-factor sign-in, or in another terminal:
                        npm run admin -- create USER | reset-password USER | reset-totp USER)
        API document:   ${urls.gateway}/api/openapi.json
        Metrics:        ${SERVICES.map((s) => `${s.name} http://127.0.0.1:${s.metricsPort}/metrics`).join(", ")}
        Press Ctrl-C to stop.`);
  if (!existsSync("web/dist/index.html"))
    console.log("[start] note: web/dist is missing, only the API is served");
}

main().catch((err) => {
  console.error(`[start] ${err instanceof ProvisionError ? err.message : `failed: ${err.message}`}`);
  shutdown(1);
});
