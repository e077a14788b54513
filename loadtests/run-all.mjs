#!/usr/bin/env node
// Runs every benchmark against a stack it starts itself (built services, real PostgreSQL and Redis,
// a database of its own) and writes loadtests/REPORT.md and loadtests/tracking-latency.svg.
//   npm run bench            (all scenarios; takes ~5 minutes, plus ~45 for the 100 M page views of history)
//   npm run bench -- lease   (only the scenarios whose script name contains "lease"; no curve, and
//                             the report goes to .tmp/bench/REPORT.md, leaving the published one)
//   BENCH_DATABASE_URL=postgres://…/copy npm run bench -- history   (against a database prepared
//                             before, left in place: see HISTORY_IMPORTED in analytics-history.mjs)
// Each scenario also runs alone against `npm start`: see the header of each loadtests/*.mjs.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import { Redis } from "ioredis";
import { buildServices } from "../scripts/build.mjs";
import {
  ensureDatabase,
  provision,
  withDatabase,
  dropDatabasesWithPrefix,
} from "../scripts/lib/provision.mjs";
import { startStack } from "../scripts/lib/stack.mjs";
import { benchAdminToken } from "./bench-admin.mjs";
import { bareBaseline, runPaced, summarise, visitLoad } from "./tracking-common.mjs";
import { latencyChartSvg } from "./chart.mjs";

// The quote form runs last: each lead leaves the mailer work (inbox entry, notification) that
// would otherwise still be burning CPU during the next scenario.
const SCENARIOS = [
  { name: "Tracking burst (visit ingest)", script: "loadtests/tracking-ingest.mjs" },
  { name: "Admin API during a tracking burst", script: "loadtests/admin-isolation.mjs" },
  { name: "WebSocket fan-out to 200 admin sockets", script: "loadtests/tracking-fanout.mjs" },
  {
    name: "Response report over two years of 100,000 quote requests",
    script: "loadtests/response-report.mjs",
  },
  // Before the quote form: that one's leftover mailer work would delay these notices.
  {
    name: "New quote request to the open admin panel's notice (quiet and during a burst)",
    script: "loadtests/lead-notice.mjs",
  },
  { name: "Quote form (POST /api/lease-requests at 300 req/s)", script: "loadtests/lease-requests.mjs" },
  {
    name: "A flood of 100,000 random-session beacons from one address",
    script: "loadtests/tracking-flood.mjs",
  },
  {
    name: "100,000 visits with made-up UTM values and referrers (what the writer stores by name)",
    script: "loadtests/tracking-values.mjs",
  },
  {
    name: "What the campaign report's running totals cost the visit writer (triggers on and off)",
    script: "loadtests/report-totals-cost.mjs",
  },
  // Last and longest (~45 minutes at 100 M page views): it fills the stack's database with history.
  {
    name: "Analytics over 26 months of history (1 M, 10 M, 100 M page views)",
    script: "loadtests/analytics-history.mjs",
  },
];
const SETTLE_MS = 10_000;
const FILTERS = process.argv.slice(2);
const PARTIAL = FILTERS.length > 0;

function runScript(script, env) {
  return new Promise((resolve) => {
    let out = "";
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on("data", (d) => {
      out += d;
      process.stderr.write(d);
    });
    child.on("exit", (code) => resolve({ code, out }));
  });
}

function peakRss(pid) {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return undefined;
  }
}

async function latencyCurve(baseUrl) {
  const rates = [500, 1000, 2000, 3000, 4000, 6000, 8000];
  const points = [];
  for (const rate of rates) {
    // Paced (runPaced): autocannon's own rate limit sends each connection's quota for the second
    // back-to-back, which would chart the bursts, not the load.
    const r = await runPaced(
      visitLoad({ url: baseUrl, duration: 5, overallRate: rate, tag: "curve", sessions: 4000 }),
    );
    points.push({
      offered: rate,
      achieved: r.reqPerSec,
      p50: r.p50ms,
      p99: r.p99ms,
      errors: r.errors + r.non2xx,
    });
    console.log(`curve: offered ${rate}/s → ${r.reqPerSec}/s, p50 ${r.p50ms} ms, p99 ${r.p99ms} ms`);
  }
  return points;
}

async function main() {
  await buildServices();
  const infra = await provision();
  const prefix = `lease_bench_${randomBytes(3).toString("hex")}`;
  // BENCH_DATABASE_URL: a database prepared before (e.g. a copy of a history import), used as it is
  // and left in place; otherwise one of the run's own, dropped at the end.
  const given = process.env.BENCH_DATABASE_URL;
  if (!given) await ensureDatabase(infra.databaseServerUrl, prefix);
  const databaseUrl = given ?? withDatabase(infra.databaseServerUrl, prefix);
  const stack = await startStack({
    databaseUrl,
    redisUrl: infra.redisUrl,
    env: {
      // Not "test": in tests every answer is also checked against its contract, work production
      // does not do and a benchmark should not time.
      NODE_ENV: "development",
      LOG_LEVEL: "warn",
      LEAD_RATE_LIMIT: "1000000",
      // The response report's two years of leads outlive the retention pass (a year by default).
      LEAD_RETENTION_DAYS: "800",
      SENDGRID_API_BASE_URL: "http://127.0.0.1:9",
      // The load generator stands in for a load balancer: the visitors' addresses it sends in
      // X-Forwarded-For are believed (tracking-common.mjs visitorAddress).
      TRUSTED_PROXIES: "127.0.0.1",
    },
    logDir: ".tmp/bench",
  });
  const results = [];
  // From here on the stack is stopped whatever fails (its services would outlive the run).
  try {
    const token = await benchAdminToken(databaseUrl, infra.redisUrl, stack);
    const trackingProc = stack.processes.find((p) => p.name === "tracking");
    const env = {
      BASE_URL: stack.url,
      DATABASE_URL: databaseUrl,
      REDIS_URL: infra.redisUrl,
      REDIS_PREFIX: stack.env.REDIS_PREFIX,
      JWT_SECRET: stack.env.JWT_SECRET,
      ADMIN_COOKIE: `admin_session=${token}`,
      TRACKING_PORT: String(trackingProc.port),
      TRACKING_PID: String(trackingProc.child.pid),
      TRACKING_METRICS_URL: trackingProc.metricsUrl,
    };
    // First, on a quiet stack: latency against offered load for the tracking burst.
    console.log("\n=== Tracking latency against offered load ===");
    const curve = PARTIAL ? [] : await latencyCurve(stack.url);
    if (!PARTIAL) await new Promise((r) => setTimeout(r, SETTLE_MS));
    for (const s of SCENARIOS.filter((x) => !PARTIAL || FILTERS.some((f) => x.script.includes(f)))) {
      if (!existsSync(s.script)) {
        results.push({ ...s, code: null, out: "(scenario script missing)" });
        continue;
      }
      console.log(`\n=== ${s.name} ===`);
      results.push({ ...s, ...(await runScript(s.script, env)) });
      // Let queued work (page-view flushes, mailer jobs) finish before the next measurement.
      await new Promise((r) => setTimeout(r, SETTLE_MS));
    }
    // The same beacon POSTs as the curve's points, unpaced, so "ratio to bare" compares like with like.
    const bare = summarise(
      await bareBaseline((url) => visitLoad({ url, duration: 5, tag: "bare", sessions: 4000 })),
    );
    const memory = Object.fromEntries(stack.processes.map((p) => [p.name, peakRss(p.child.pid)]));
    if (PARTIAL) {
      mkdirSync(".tmp/bench", { recursive: true });
      writeFileSync(".tmp/bench/REPORT.md", report({ results, curve, bare, memory }));
      console.log("\nwrote .tmp/bench/REPORT.md (a partial run)");
    } else {
      mkdirSync("loadtests", { recursive: true });
      writeFileSync("loadtests/tracking-latency.svg", latencyChartSvg(curve));
      writeFileSync("loadtests/REPORT.md", report({ results, curve, bare, memory }));
      console.log("\nwrote loadtests/REPORT.md and loadtests/tracking-latency.svg");
    }
  } finally {
    await stack.stop();
    await dropDatabasesWithPrefix(infra.databaseServerUrl, prefix).catch(() => undefined);
    await dropRedisPrefix(infra.redisUrl, stack.env.REDIS_PREFIX).catch(() => undefined);
    infra.stop();
  }
  process.exit(results.every((r) => r.code === 0) ? 0 : 1);
}

/** The run's keys (live visitors, counters, queues) leave the shared Redis with it. */
async function dropRedisPrefix(url, prefix) {
  const redis = new Redis(url);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

function report({ results, curve, bare, memory }) {
  const cpu = os.cpus()[0]?.model ?? "unknown";
  const lines = [
    "# Load test report",
    "",
    "Generated by `npm run bench` (loadtests/run-all.mjs). Every figure below comes from that one run; a",
    "missed target says FAIL. The stack ran from the built bundles on this machine, against real",
    "PostgreSQL and Redis, with the load generator (autocannon) on the same machine, so client and",
    "servers share the cores.",
    "",
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB memory, ${os.platform()} ${os.release()}`,
    `- Node ${process.version}`,
    `- Baseline: a bare node:http server answering 204 to the same visit beacons, 100 connections, 5 s: ${bare.reqPerSec} req/s, p50 ${bare.p50ms} ms, p99 ${bare.p99ms} ms`,
    "",
    "## Summary",
    "",
    "| scenario | result |",
    "| --- | --- |",
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.code === 0 ? "all targets met" : r.code === null ? "not run" : "some targets missed (FAIL lines below)"} |`,
    ),
    "",
    "## Peak memory per process (VmHWM)",
    "",
    "| process | MB |",
    "| --- | --- |",
    ...Object.entries(memory).map(([name, mb]) => `| ${name} | ${mb ?? "?"} |`),
    "",
    "## Tracking latency against offered load",
    "",
    "![latency against load](tracking-latency.svg)",
    "",
    "Each point: 5 s at the offered rate from 100 connections, paced so the requests are spread",
    "evenly over each second (one autocannon instance per connection, started staggered).",
    "",
    "| offered req/s | achieved req/s | ratio to bare | p50 ms | p99 ms | errors |",
    "| --- | --- | --- | --- | --- | --- |",
    ...curve.map(
      (p) =>
        `| ${p.offered} | ${p.achieved} | ${(p.achieved / bare.reqPerSec).toFixed(3)} | ${p.p50} | ${p.p99} | ${p.errors} |`,
    ),
    "",
  ];
  for (const r of results) {
    lines.push(
      `## ${r.name}`,
      "",
      `\`node ${r.script}\` — exit ${r.code}`,
      "",
      "```",
      stripAnsi(r.out).trim().slice(-6000),
      "```",
      "",
    );
  }
  return lines.join("\n");
}

// eslint-disable-next-line no-control-regex -- ANSI colour codes are exactly what is stripped
const stripAnsi = (s) => s.replace(/\u001b\[[0-9;]*m/g, "");

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
