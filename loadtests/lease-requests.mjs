#!/usr/bin/env node
// Quote requests through the gateway: POST /api/lease-requests at a fixed 300 requests/s for 30 s
// (autocannon, paced so the requests are spread evenly over each second: see runPaced in
// tracking-common.mjs), next to a bare node:http 204 server under the same settings. Prints
// p50/p99/max and errors, then checks that every accepted lead is in Postgres and that the outbox
// drained within 10 s. Not part of npm test.
//
// The gateway does not trust X-Forwarded-For from clients (TRUSTED_PROXIES is empty by default), so
// every request has one client IP and the per-IP limit (5 per 10 minutes) would refuse almost all
// of them. Run the stack with the limit raised for the benchmark:
//   LEAD_RATE_LIMIT=1000000 npm start        then:  node loadtests/lease-requests.mjs
// BASE_URL, DATABASE_URL, RATE, DURATION, CONNECTIONS override the defaults. The leads stay in the
// database (the mailer is still logging and notifying them); CLEANUP=1 deletes this run's leads.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { BASE_URL, bareBaseline, runPaced, settings, verdict } from "./tracking-common.mjs";

const rate = Number(process.env.RATE ?? 300);
const duration = Number(process.env.DURATION ?? 30);
const connections = Number(process.env.CONNECTIONS ?? 50);
const { databaseUrl } = settings();
const run = randomBytes(4).toString("hex");
const emailDomain = `lt-${run}.example.nl`;
const origin = new URL(BASE_URL).origin;

let n = 0;
const body = () => {
  const i = n++;
  return JSON.stringify({
    carUrl: `https://www.example.nl/occasions/${run}/${i}`,
    contactNumber: `06 ${String(10000000 + (i % 89999999))}`,
    email: `lead${i}@${emailDomain}`,
    companyName: `Loadtest ${run} ${i}`,
    leaseTerm: [24, 36, 48, 60][i % 4],
    message: "Benchmark aanvraag",
  });
};
const options = (url) => ({
  url,
  connections,
  duration,
  overallRate: rate,
  method: "POST",
  headers: { "content-type": "application/json", origin },
  requests: [
    { method: "POST", path: "/api/lease-requests", setupRequest: (req) => ({ ...req, body: body() }) },
  ],
});

console.log(
  `baseline: bare node:http 204 at ${rate} req/s, ${connections} connections, ${duration} s, paced evenly`,
);
const bare = await bareBaseline(options, runPaced);
console.table(bare);

console.log(
  `leads: POST ${BASE_URL}/api/lease-requests at ${rate} req/s, ${connections} connections, ${duration} s; run ${run}`,
);
const target = await runPaced(options(BASE_URL));
const runEnd = Date.now();
console.table(target);

const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const stored = async () =>
  (
    await pool.query("SELECT count(*)::int AS n FROM leads.lease_requests WHERE email LIKE $1", [
      `%@${emailDomain}`,
    ])
  ).rows[0].n;
const pending = async () =>
  (await pool.query("SELECT count(*)::int AS n FROM leads.outbox WHERE published_at IS NULL")).rows[0].n;
let inDb = 0;
let left = -1;
const deadline = runEnd + 10_000;
for (;;) {
  [inDb, left] = [await stored(), await pending()];
  if ((inDb >= target.ok2xx && left === 0) || Date.now() > deadline) break;
  await new Promise((r) => setTimeout(r, 200));
}
const drainedMs = Date.now() - runEnd;
if (process.env.CLEANUP === "1") {
  await pool.query("DELETE FROM leads.lease_requests WHERE email LIKE $1", [`%@${emailDomain}`]);
}
await pool.end();

const ok = verdict([
  [
    "rate",
    target.reqPerSec >= rate * 0.95,
    `${target.reqPerSec} req/s offered ${rate} (bare: ${bare.reqPerSec})`,
  ],
  [
    "p99 latency ≤ 50 ms",
    target.p99ms <= 50,
    `p50 ${target.p50ms} ms, p99 ${target.p99ms} ms, max ${target.maxMs} ms (bare p50 ${bare.p50ms}, p99 ${bare.p99ms}, max ${bare.maxMs})`,
  ],
  [
    "errors",
    target.errors === 0 && target.non2xx === 0 && target.timeouts === 0,
    `${target.errors} errors, ${target.non2xx} non-2xx, ${target.timeouts} timeouts`,
  ],
  [
    "stored",
    inDb >= target.ok2xx,
    `${inDb} of ${target.ok2xx} accepted leads in Postgres (≥: autocannon leaves the last in-flight answers uncounted)`,
  ],
  ["outbox drained", left === 0, `${left} rows pending ${drainedMs} ms after the run (target 0 within 10 s)`],
]);
process.exit(ok ? 0 : 1);
