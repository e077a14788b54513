#!/usr/bin/env node
// What a visit beacon costs the gateway and tracking, in CPU time per beacon, next to a bare
// node:http server answering 204 to the same requests (the same-run baseline). CPU time per
// beacon (utime + stime of each process over a fixed number of beacons, /proc/<pid>/stat) depends
// far less on what else the machine is doing than requests per second do, so two ways of
// ingesting beacons can be compared on a shared machine.
//
//   node --import tsx loadtests/beacon-path-cost.mjs                 this checkout
//   COMPARE=/work/old node --import tsx loadtests/beacon-path-cost.mjs   and a checkout of another
//                                                                    commit, alternating rounds
//   TRACING=off,0.1,1 node --import tsx loadtests/beacon-path-cost.mjs   the same checkout with
//                                                                    tracing off, on at 10 % and
//                                                                    on at 100 % sampling
// BEACONS (default 20000), CONNECTIONS (16), ROUNDS (3). Starts a stack per checkout and tracing
// mode (its built services, real PostgreSQL and Redis, a database of its own); with tracing on the
// services export to a local OTLP/HTTP endpoint that counts what it receives. Not part of npm test.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { BROWSER_UA, SITE_PAGES, runAutocannon, visitorAddress } from "./tracking-common.mjs";
import { commitOf, startCheckoutStack } from "./checkout-stack.mjs";

const BEACONS = Number(process.env.BEACONS ?? 20_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const here = path.resolve(new URL("..", import.meta.url).pathname);
const checkouts = [here, ...(process.env.COMPARE ? [path.resolve(process.env.COMPARE)] : [])];
// "off", or a sampling ratio: tracing on (OTEL_TRACES_SAMPLER=parentbased_traceidratio).
const TRACING = (process.env.TRACING ?? "off").split(",").map((t) => t.trim());
const TICK_MS = 1000 / Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim() || 100);

/** CPU milliseconds (user + system) a process has used so far. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

const run = randomBytes(3).toString("hex");
let n = 0;
const options = (url) => ({
  url,
  connections: CONNECTIONS,
  amount: BEACONS,
  method: "POST",
  headers: { "content-type": "application/json", origin: new URL(url).origin, "user-agent": BROWSER_UA },
  requests: [
    {
      method: "POST",
      path: "/api/track/visit",
      setupRequest: (req) => {
        const i = n++;
        const visitor = i % 2000;
        return {
          ...req,
          headers: { ...req.headers, "x-forwarded-for": visitorAddress(visitor) },
          body: JSON.stringify({
            sessionId: `session-bc${run}${visitor}-${1700000000000 + visitor}`,
            page: SITE_PAGES[i % SITE_PAGES.length],
            referrer: i % 3 === 0 ? "https://www.google.nl/" : "",
          }),
        };
      },
    },
  ],
});

/** Sends BEACONS beacons; the CPU each watched process used, per beacon, in microseconds. */
async function measure(url, pids) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const started = Date.now();
  const result = await runAutocannon(options(url));
  const seconds = (Date.now() - started) / 1000;
  const perBeacon = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [
      name,
      Math.round(((cpuMs(pid) - before[name]) * 1000) / result.requests.total),
    ]),
  );
  return {
    ...perBeacon,
    reqPerSec: Math.round(result.requests.total / seconds),
    p99ms: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

async function bare() {
  const child = spawn(
    process.execPath,
    [
      "-e",
      `const s=require("http").createServer((q,r)=>{q.resume();q.on("end",()=>{r.statusCode=204;r.end()})});
       s.listen(0,"127.0.0.1",()=>console.log(s.address().port))`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    const port = await new Promise((resolve) => child.stdout.once("data", (d) => resolve(Number(d))));
    return await measure(`http://127.0.0.1:${port}`, { server: child.pid });
  } finally {
    child.kill("SIGTERM");
  }
}

/** A local OTLP/HTTP trace endpoint: reads and counts each export, answers 200. */
async function otlpReceiver() {
  const received = { exports: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on("data", (c) => (received.bytes += c.length));
    req.on("end", () => {
      received.exports++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, received, close: () => server.close() };
}

/** The services' environment for a tracing mode ("off" or a sampling ratio). */
const tracingEnv = (mode, otlpUrl) =>
  mode === "off"
    ? {}
    : {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: mode,
      };
const tracingName = (mode) => (mode === "off" ? "tracing off" : `tracing on, ${Number(mode) * 100} %`);

async function startFor(dir, extraEnv = {}) {
  const started = await startCheckoutStack(dir, {
    env: extraEnv,
    logDir: path.join(here, ".tmp/beacon-cost"),
    database: "lease_beacon_cost",
  });
  return { ...started, pids: { gateway: started.pid("gateway"), tracking: started.pid("tracking") } };
}

const otlp = await otlpReceiver();
const stacks = [];
for (const dir of checkouts)
  for (const mode of TRACING)
    stacks.push({
      dir,
      commit: `${commitOf(dir)}${TRACING.length > 1 || mode !== "off" ? `, ${tracingName(mode)}` : ""}`,
      ...(await startFor(dir, tracingEnv(mode, otlp.url))),
    });
const rows = [];
try {
  // Warm-up: JIT and connection pools, not counted.
  for (const s of stacks) await measure(s.stack.url, s.pids);
  for (let round = 1; round <= ROUNDS; round++) {
    rows.push({ what: "bare node:http 204", round, ...(await bare()) });
    for (const s of stacks) rows.push({ what: s.commit, round, ...(await measure(s.stack.url, s.pids)) });
  }
} finally {
  for (const s of stacks) await s.stop();
  otlp.close();
}
console.log(`${BEACONS} beacons per measurement, ${CONNECTIONS} connections; CPU µs per beacon per process`);
if (TRACING.some((m) => m !== "off"))
  console.log(`OTLP endpoint received ${otlp.received.exports} exports, ${otlp.received.bytes} bytes`);
console.table(rows);
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = {};
for (const row of rows) (summary[row.what] ??= []).push(row);
console.log("median over rounds:");
console.table(
  Object.entries(summary).map(([what, rs]) => ({
    what,
    ...Object.fromEntries(
      ["server", "gateway", "tracking", "reqPerSec", "p99ms"]
        .filter((k) => rs[0][k] !== undefined)
        .map((k) => [k, median(rs.map((r) => r[k]))]),
    ),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
  })),
);
