// Starts Debian's real `prometheus` against the running services' metrics listeners, with the
// project's rules (infra/observability/rules.yml), in a temporary folder of its own. Used by
// `npm run observe` (against `npm start`) and tests/system/observability.test.ts (against a stack
// of its own, with one-second scrape and evaluation intervals).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";

export const RULES_FILE = fileURLToPath(new URL("../../infra/observability/rules.yml", import.meta.url));

export function hasPrometheus() {
  return spawnSync("prometheus", ["--version"], { stdio: "ignore" }).status === 0;
}

/**
 * targets: [{ service, address: "127.0.0.1:9080" }]. Resolves once Prometheus answers /-/ready.
 * Its log goes to `logFile` (default: prometheus.log in its temporary folder, removed on stop).
 */
export async function startPrometheus({
  targets,
  port,
  scrapeInterval = "1s",
  evaluationInterval = "1s",
  rulesFile = RULES_FILE,
  logFile,
}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lease-prometheus-"));
  const config = {
    global: { scrape_interval: scrapeInterval, evaluation_interval: evaluationInterval },
    rule_files: [rulesFile],
    scrape_configs: [
      {
        job_name: "lease",
        static_configs: targets.map(({ service, address }) => ({ targets: [address], labels: { service } })),
      },
    ],
  };
  writeFileSync(path.join(dir, "prometheus.yml"), stringify(config));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    "prometheus",
    [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const log = createWriteStream(logFile ?? path.join(dir, "prometheus.log"));
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited with ${child.exitCode} before it was ready`);
    }
    try {
      if ((await fetch(`${url}/-/ready`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error("prometheus did not become ready within 20 s");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const api = async (route) => {
    const body = await (await fetch(`${url}/api/v1/${route}`)).json();
    if (body.status !== "success") throw new Error(`${route}: ${body.error ?? body.status}`);
    return body.data;
  };
  return {
    url,
    /** The scrape targets, each with its service, health ("up", "down", "unknown") and last error. */
    async targets() {
      const data = await api("targets?state=active");
      return data.activeTargets.map((t) => ({
        service: t.labels.service,
        address: t.labels.instance,
        health: t.health,
        error: t.lastError,
      }));
    },
    /** An instant query; resolves with the result vector (throws on a PromQL error). */
    async query(expr) {
      const data = await api(`query?query=${encodeURIComponent(expr)}`);
      return data.result;
    },
    /** The loaded rule groups, each rule with its health and last evaluation error. */
    async rules() {
      return (await api("rules")).groups.flatMap((g) => g.rules);
    },
    stop,
  };
}
