// Shared by loadtests/tracking-*.mjs: the bare-server baseline, settings from .env, process RSS.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import WebSocket from "ws";

export const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:8080";
export const BROWSER_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** Pages of the site (PUBLIC_PAGE_PATHS in libs/contracts): a campaign lands on these, not on made-up ones. */
export const SITE_PAGES = [
  "/",
  "/zakelijke-lease",
  "/financiele-lease",
  "/operationele-lease",
  "/fleet-management",
  "/over-ons",
  "/voorwaarden",
  "/cookie-beleid",
];

/**
 * The address of campaign visitor `i`: each in a /24 of its own in a Dutch range, as visitors of a
 * campaign are. Sent as X-Forwarded-For, which the gateway believes only from TRUSTED_PROXIES
 * (run-all.mjs starts the stack with the load generator trusted, as a load balancer in front of it);
 * without that every beacon counts against the one address of the load generator and most are
 * answered 204 without being recorded (the per-address budget of services/tracking/README.md).
 */
export function visitorAddress(i) {
  return `145.${(i >> 8) & 255}.${i & 255}.7`;
}

/** ADMIN_COOKIE ("admin_session=..."), which run-all.mjs mints; without it the script stops with exit code 2. */
export function requiredAdminCookie() {
  const cookie = process.env.ADMIN_COOKIE;
  if (!cookie) {
    console.error("set ADMIN_COOKIE (admin_session=...): loadtests/run-all.mjs mints one");
    process.exit(2);
  }
  return cookie;
}

/**
 * `count` admin sockets on BASE_URL's /ws (the admin's cookie, the site's Origin), each resolved on
 * its first message: the visitor-update every socket gets once it is subscribed. `onMessage(i, msg,
 * at)` hears every message of socket i, parsed, with when it arrived (performance.now()); one that
 * is not JSON goes to `onMalformed`. Refused or failed sockets reject.
 */
export function openAdminSockets({ count, cookie, onMessage, onMalformed }) {
  const origin = new URL(BASE_URL).origin;
  const wsUrl = `${BASE_URL.replace(/^http/, "ws")}/ws`;
  return Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(wsUrl, { headers: { origin, cookie } });
          ws.on("message", (raw) => {
            const at = performance.now();
            let msg;
            try {
              msg = JSON.parse(String(raw));
            } catch {
              onMalformed();
              return;
            }
            resolve(ws);
            onMessage(i, msg, at);
          });
          ws.once("unexpected-response", (_q, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
          ws.once("error", reject);
        }),
    ),
  );
}

/** .env at the repo root (written by npm start) overlaid by the real environment. */
export function settings() {
  const file = {};
  try {
    for (const line of readFileSync(new URL("../.env", import.meta.url), "utf8").split("\n")) {
      const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
      if (m) file[m[1]] = m[2].replace(/^"(.*)"$/, "$1");
    }
  } catch {
    // no .env: rely on the environment
  }
  const env = { ...file, ...process.env };
  return {
    jwtSecret: env.JWT_SECRET,
    redisUrl: env.REDIS_URL ?? "redis://127.0.0.1:6379",
    redisPrefix: env.REDIS_PREFIX ?? "lease",
    databaseUrl: env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/lease",
  };
}

/**
 * autocannon options for visit beacons (POST /api/track/visit) from 100 connections, cycling
 * through `sessions` visitors whose ids carry `tag`. `overallRate` undefined: as fast as possible.
 */
export function visitLoad({ url, duration, overallRate, tag, sessions, origin }) {
  let n = 0;
  const headers = { "content-type": "application/json", "user-agent": BROWSER_UA };
  if (origin) headers.origin = origin;
  return {
    url,
    connections: 100,
    duration,
    overallRate,
    headers,
    requests: [
      {
        method: "POST",
        path: "/api/track/visit",
        setupRequest: (req) => {
          const visitor = n++ % sessions;
          return {
            ...req,
            headers: { ...req.headers, "x-forwarded-for": visitorAddress(visitor) },
            body: JSON.stringify({
              sessionId: `session-${tag}${visitor}-1700000000000`,
              page: "/",
              referrer: "",
            }),
          };
        },
      },
    ],
  };
}

export function runAutocannon(opts) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    autocannon.track(instance, {
      renderProgressBar: false,
      renderResultsTable: false,
      renderLatencyTable: false,
    });
  });
}

/** A bare node:http server answering 204, in a child process, measured with the same settings. */
export async function bareBaseline(settingsForUrl, runner = runAutocannon) {
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
    const port = await new Promise((resolve, reject) => {
      child.stdout.once("data", (d) => resolve(Number(String(d).trim())));
      child.once("exit", () => reject(new Error("baseline server exited")));
    });
    return await runner(settingsForUrl(`http://127.0.0.1:${port}`));
  } finally {
    child.kill("SIGTERM");
  }
}

export function summarise(result) {
  return {
    reqPerSec: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    total: result.requests.total,
    ok2xx: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** PID of the process listening on `port` (via /proc: socket inode → fd), or TRACKING_PID. */
export function pidForPort(port) {
  if (process.env.TRACKING_PID) return Number(process.env.TRACKING_PID);
  const inodes = new Set();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const localPort = parseInt(cols[1].split(":")[1], 16);
      if (localPort === port && cols[3] === "0A") inodes.add(cols[9]);
    }
  }
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let fds = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) return Number(pid);
      } catch {
        // fd closed meanwhile
      }
    }
  }
  return undefined;
}

export function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
  } catch {
    return undefined;
  }
}

export function verdict(rows) {
  let ok = true;
  for (const [name, pass, detail] of rows) {
    ok &&= pass;
    console.log(`${pass ? "PASS" : "FAIL"}  ${name}: ${detail}`);
  }
  return ok;
}

/**
 * A steady request rate from autocannon. autocannon's own rate limit lets each connection send its
 * whole quota for a second back-to-back at the top of that second, so one instance at 300 req/s
 * over 50 connections really sends a 300-request burst every second. Here each connection is an
 * instance of its own, started 1/connections of a second after the previous one, so the requests
 * are spread evenly over every second. Latencies are every response's own time, merged exactly.
 */
export async function runPaced(opts) {
  const { connections, overallRate, ...rest } = opts;
  const times = [];
  const counts = { total: 0, ok2xx: 0, non2xx: 0, errors: 0, timeouts: 0 };
  const runs = [];
  for (let i = 0; i < connections; i++) {
    const rate = Math.floor(overallRate / connections) + (i < overallRate % connections ? 1 : 0);
    if (rate === 0) continue;
    runs.push(
      new Promise((resolve, reject) => {
        const instance = autocannon({ ...rest, connections: 1, overallRate: rate }, (err, result) =>
          err ? reject(err) : resolve(result),
        );
        instance.on("response", (_client, statusCode, _bytes, responseTime) => {
          times.push(responseTime);
          counts.total++;
          if (statusCode >= 200 && statusCode < 300) counts.ok2xx++;
          else counts.non2xx++;
        });
      }).then((result) => {
        counts.errors += result.errors;
        counts.timeouts += result.timeouts;
      }),
    );
    await new Promise((r) => setTimeout(r, 1000 / connections));
  }
  await Promise.all(runs);
  times.sort((a, b) => a - b);
  const at = (q) =>
    times.length ? Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]) : 0;
  return {
    reqPerSec: Math.round(counts.total / rest.duration),
    p50ms: at(0.5),
    p99ms: at(0.99),
    maxMs: times.length ? Math.round(times[times.length - 1]) : 0,
    ...counts,
  };
}
