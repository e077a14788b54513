#!/usr/bin/env node
// Visit ingest through the gateway: autocannon 100 connections for 20 s against POST /api/track/visit,
// next to a bare node:http 204 server under the same settings. Targets: ≥ 0.15 × the bare req/s,
// p99 ≤ 30 ms, no errors, every page view in Postgres within 5 s, tracking RSS < 350 MB. Then the
// same 100 connections paced at 0.15 × bare for 20 s: the p99 a campaign at the target rate gets.
// Run against `npm start`: TRUSTED_PROXIES=127.0.0.1 npm start, then node loadtests/tracking-ingest.mjs
// (BASE_URL, DATABASE_URL, TRACKING_PORT, TRACKING_PID, CONNECTIONS, DURATION override the defaults;
// without TRUSTED_PROXIES the visitors' addresses are not believed, see visitorAddress). Not part of
// npm test.
import { randomBytes } from "node:crypto";
import pg from "pg";
import {
  BASE_URL,
  BROWSER_UA,
  bareBaseline,
  pidForPort,
  rssMb,
  runAutocannon,
  runPaced,
  settings,
  SITE_PAGES,
  summarise,
  verdict,
  visitorAddress,
} from "./tracking-common.mjs";

const connections = Number(process.env.CONNECTIONS ?? 100);
const duration = Number(process.env.DURATION ?? 20);
const trackingPort = Number(process.env.TRACKING_PORT ?? 8083);
const { databaseUrl } = settings();
const run = randomBytes(4).toString("hex");
const origin = new URL(BASE_URL).origin;

// Visitors of a campaign: 5,000 sessions, each from an address of its own, moving through 8 pages.
const SESSIONS = 5000;
const sessionId = (visitor) => `session-lt${run}${visitor}-${1700000000000 + visitor}`;
let n = 0;
const beacon = (req) => {
  const i = n++;
  const visitor = i % SESSIONS;
  return {
    ...req,
    headers: { ...req.headers, "x-forwarded-for": visitorAddress(visitor) },
    body: JSON.stringify({
      sessionId: sessionId(visitor),
      page: SITE_PAGES[i % SITE_PAGES.length] + (i % 5 === 0 ? "?utm_source=bench" : ""),
      referrer: i % 3 === 0 ? "https://www.google.nl/" : "",
    }),
  };
};
const options = (url) => ({
  url,
  connections,
  duration,
  method: "POST",
  headers: { "content-type": "application/json", origin, "user-agent": BROWSER_UA },
  requests: [{ method: "POST", path: "/api/track/visit", setupRequest: beacon }],
});

const pid = pidForPort(trackingPort);
console.log(`tracking process: ${pid ?? "not found"} (port ${trackingPort}); run ${run}`);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const sessions = Array.from({ length: SESSIONS }, (_, v) => sessionId(v));

console.log(`baseline: bare node:http 204, ${connections} connections, ${duration} s`);
const bare = summarise(await bareBaseline(options));
console.table(bare);

console.log(`tracking: POST ${BASE_URL}/api/track/visit, ${connections} connections, ${duration} s`);
let peakRss = 0;
const sampler = setInterval(() => {
  const m = pid && rssMb(pid);
  if (m) peakRss = Math.max(peakRss, m.rss);
}, 500);
const target = summarise(await runAutocannon(options(BASE_URL)));
const runEnd = Date.now();
clearInterval(sampler);
console.table(target);

let persisted = 0;
const deadline = Date.now() + 5000;
for (;;) {
  const r = await pool.query(
    `SELECT count(*)::int AS n FROM tracking.page_views
     WHERE session_key IN (SELECT tracking.key64(s) FROM unnest($1::text[]) AS s)`,
    [sessions],
  );
  persisted = r.rows[0].n;
  if (persisted >= target.ok2xx || Date.now() > deadline) break;
  await new Promise((r) => setTimeout(r, 200));
}
const persistMs = Date.now() - runEnd;
await pool.end();
const mem = pid ? rssMb(pid) : undefined;
if (mem) peakRss = Math.max(peakRss, mem.rss);

// The run above is closed-loop: 100 connections as fast as they are answered, so by Little's law
// its latency is 100 / throughput whatever the stack does. The same load generator paced at the
// target rate (0.15 × bare, spread evenly over each second, 100 connections) shows the latency a
// campaign at that rate gets.
const targetRate = Math.ceil(0.15 * bare.reqPerSec);
console.log(
  `tracking, paced at the target rate: ${targetRate} req/s, ${connections} connections, ${duration} s`,
);
const paced = await runPaced({ ...options(BASE_URL), overallRate: targetRate });
console.table(paced);

const ratio = target.reqPerSec / bare.reqPerSec;
const ok = verdict([
  [
    "throughput",
    ratio >= 0.15,
    `${target.reqPerSec} req/s = ${ratio.toFixed(3)} × bare ${bare.reqPerSec} req/s (target ≥ 0.15)`,
  ],
  ["p99 latency", target.p99ms <= 30, `${target.p99ms} ms (target ≤ 30 ms)`],
  [
    "p99 at the target rate",
    paced.p99ms <= 30 && paced.errors === 0 && paced.non2xx === 0,
    `${paced.p99ms} ms at ${paced.reqPerSec} req/s paced (0.15 × bare; p50 ${paced.p50ms} ms, ${paced.errors + paced.non2xx} errors)`,
  ],
  [
    "errors",
    target.errors === 0 && target.non2xx === 0 && target.timeouts === 0,
    `${target.errors} errors, ${target.non2xx} non-2xx, ${target.timeouts} timeouts`,
  ],
  [
    "persisted",
    persisted >= target.ok2xx,
    `${persisted} of ${target.ok2xx} page views in Postgres (≥ because autocannon leaves the last in-flight answers uncounted; waited ≤ 5 s, ${persistMs} ms after the run)`,
  ],
  [
    "tracking RSS",
    pid !== undefined && peakRss > 0 && peakRss < 350,
    pid
      ? `peak sampled ${peakRss.toFixed(0)} MB, VmHWM ${mem?.peak.toFixed(0)} MB (target < 350 MB)`
      : "tracking process not found",
  ],
]);
process.exit(ok ? 0 : 1);
