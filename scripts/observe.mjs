#!/usr/bin/env node
// `npm run observe`: while `npm start` runs, starts Debian's Prometheus on http://127.0.0.1:9090
// (PROMETHEUS_PORT) scraping the five services' metrics ports (9080-9084) with the project's alert
// and recording rules, checks that every target is up and every recording rule has data, and keeps
// running for you to query until Ctrl-C.
import { ensurePrometheus } from "./lib/provision.mjs";
import { startPrometheus } from "./lib/prometheus.mjs";

const METRICS_PORTS = {
  gateway: 9080,
  leads: 9081,
  settings: 9082,
  tracking: 9083,
  mailer: 9084,
  conversions: 9085,
};

async function main() {
  if (!ensurePrometheus()) {
    console.error(
      "[observe] prometheus not found: install Debian's `prometheus` package (apt-get install prometheus)",
    );
    process.exit(1);
  }
  const prometheus = await startPrometheus({
    targets: Object.entries(METRICS_PORTS).map(([service, port]) => ({
      service,
      address: `127.0.0.1:${port}`,
    })),
    port: Number(process.env.PROMETHEUS_PORT ?? 9090),
    scrapeInterval: "5s",
    evaluationInterval: "5s",
  });
  const stop = async (code) => {
    await prometheus.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  console.log(`[observe] Prometheus: ${prometheus.url} (rules: infra/observability/rules.yml)`);

  // Two scrapes and evaluations are enough for rates over a few samples.
  await new Promise((r) => setTimeout(r, 12_000));
  const targets = await prometheus.targets();
  for (const t of targets)
    console.log(
      `[observe] ${t.service.padEnd(8)} ${t.address.padEnd(16)} ${t.health}${t.error ? ` (${t.error})` : ""}`,
    );
  const recording = (await prometheus.rules()).filter((r) => r.type === "recording");
  const empty = [];
  for (const rule of recording) if ((await prometheus.query(rule.name)).length === 0) empty.push(rule.name);
  console.log(
    `[observe] recording rules with data: ${recording.length - empty.length}/${recording.length}` +
      (empty.length ? ` (no data yet: ${empty.join(", ")})` : ""),
  );
  const down = targets.filter((t) => t.health !== "up");
  if (down.length > 0) console.log("[observe] some targets are not up: is `npm start` running?");
  console.log("[observe] Press Ctrl-C to stop.");
}

main().catch((err) => {
  console.error(`[observe] ${err.message}`);
  process.exit(1);
});
