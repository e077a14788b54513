#!/usr/bin/env node
// Speed to lead: how fast a new quote request reaches the open admin panel. The panel shows its
// "Nieuwe Aanvraag" notice on the admin WebSocket's {type: "lead-created", data: {id, ...}} message
// (web/src/admin/lib/use-lead-alerts.ts): the leads outbox relay publishes it once the lead's jobs
// are queued, tracking relays it to its sockets. A few admin sockets on /ws; each marker lead is a
// POST /api/lease-requests whose time runs from sending the POST to the message naming its id (the
// id the POST answers with) on each socket. The target: p99 ≤ 2 s.
//   Phase 1, quiet: MARKERS leads, one every SPACING_MS.
//   Phase 2, a burst: the same markers while other quote requests arrive at BURST_RATE/s (paced, as
//   in lease-requests.mjs) and visit beacons at TRACK_RATE/s beside them (0: none).
// Baselines from the same run: each marker POST's own response time, and a bare node:http 204
// server under the burst's settings (the load generator's own floor on this machine).
//
// Needs ADMIN_COOKIE ("admin_session=...": loadtests/run-all.mjs mints one) and, as lease-requests.mjs,
// a stack whose per-address lead limit is raised (every request comes from one address):
//   LEAD_RATE_LIMIT=1000000 npm start        then:  ADMIN_COOKIE=admin_session=… node loadtests/lead-notice.mjs
// BASE_URL, SOCKETS, MARKERS, SPACING_MS, BURST_RATE, TRACK_RATE override the defaults. The leads stay
// in the database (run-all.mjs drops its database at the end).
import { randomBytes } from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import {
  BASE_URL,
  bareBaseline,
  openAdminSockets,
  requiredAdminCookie,
  runPaced,
  verdict,
  visitLoad,
} from "./tracking-common.mjs";

const SOCKETS = Number(process.env.SOCKETS ?? 3);
const MARKERS = Number(process.env.MARKERS ?? 30);
const SPACING_MS = Number(process.env.SPACING_MS ?? 500);
const BURST_RATE = Number(process.env.BURST_RATE ?? 100);
const TRACK_RATE = Number(process.env.TRACK_RATE ?? 500);
const TARGET_MS = 2000;
/** How long after its phase a missing notice is still waited for (later counts as never). */
const GRACE_MS = 10_000;
/** The burst runs this long before the first marker and after the last. */
const LEAD_IN_S = 2;

const cookie = requiredAdminCookie();
const origin = new URL(BASE_URL).origin;
const run = randomBytes(4).toString("hex");
const emailDomain = `ln-${run}.example.nl`;

let n = 0;
const leadBody = (kind) => {
  const i = n++;
  return JSON.stringify({
    carUrl: `https://www.example.nl/occasions/${run}/${i}`,
    contactNumber: `06 ${String(10000000 + (i % 89999999))}`,
    email: `${kind}${i}@${emailDomain}`,
    companyName: `Meldingstest ${run} ${i}`,
    leaseTerm: 36,
    message: "Benchmark aanvraag",
  });
};

// Every lead-created message of a quote request, by lead id: when each socket heard of it. A notice
// can come before the POST's answer (the relay is quick), so arrivals are kept for every id.
const heard = new Map(); // lead id -> Map(socket index -> performance.now())
let malformed = 0;
let leadMessages = 0;
// The machine's load, for whoever compares runs: on a shared host a notice's time says as much about it.
const loadAverage = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} (1, 5, 15 min) on ${os.cpus().length} cores`;
console.log(loadAverage());
console.log(`opening ${SOCKETS} admin sockets on ${BASE_URL}/ws`);
const sockets = await openAdminSockets({
  count: SOCKETS,
  cookie,
  onMalformed: () => malformed++,
  onMessage: (i, msg, at) => {
    if (msg.type !== "lead-created" || msg.data?.source !== "lease_request") return;
    leadMessages++;
    const byId = heard.get(msg.data.id) ?? new Map();
    if (!byId.has(i)) byId.set(i, at);
    heard.set(msg.data.id, byId);
  },
});
console.log(`${sockets.length} sockets connected and got their first message`);

/** One marker: the POST, its own time, and (later) each socket's time to the notice naming it. */
async function sendMarker() {
  const sent = performance.now();
  const res = await fetch(`${BASE_URL}/api/lease-requests`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: leadBody("marker"),
  });
  const postMs = performance.now() - sent;
  const body = await res.json().catch(() => ({}));
  return { sent, postMs, status: res.status, id: res.status === 201 ? body.id : undefined };
}

async function markers() {
  const sent = [];
  for (let m = 0; m < MARKERS; m++) {
    const next = performance.now() + SPACING_MS;
    sent.push(await sendMarker());
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  return sent;
}

/** Waits until every accepted marker was heard on every socket, or GRACE_MS. */
async function awaitNotices(sent) {
  const deadline = performance.now() + GRACE_MS;
  const all = () => sent.every((s) => !s.id || heard.get(s.id)?.size === SOCKETS);
  while (!all() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/** p50/p99/max over every expected (marker, socket) notice; one that never came counts as infinitely late. */
function figures(sent) {
  const notice = [];
  for (const s of sent) {
    if (!s.id) continue;
    for (let i = 0; i < SOCKETS; i++) {
      const at = heard.get(s.id)?.get(i);
      if (at !== undefined) notice.push(at - s.sent);
    }
  }
  const expected = sent.filter((s) => s.id).length * SOCKETS;
  const rank = (q, values, total) => {
    const sorted = [...values].sort((a, b) => a - b);
    const r = Math.ceil(q * total) - 1;
    return r < sorted.length ? Math.round(sorted[Math.max(0, r)]) : Infinity;
  };
  const post = sent.map((s) => s.postMs);
  return {
    markers: sent.length,
    accepted: sent.filter((s) => s.id).length,
    notices: notice.length,
    expected,
    p50ms: rank(0.5, notice, expected),
    p99ms: rank(0.99, notice, expected),
    maxMs: notice.length < expected ? Infinity : Math.round(Math.max(...notice)),
    postP50ms: rank(0.5, post, post.length),
    postP99ms: rank(0.99, post, post.length),
    postMaxMs: Math.round(Math.max(...post)),
  };
}

// The burst's load: quote requests at BURST_RATE/s and, beside them, visit beacons at TRACK_RATE/s
// (visitLoad's 100 connections), for the markers' whole span plus LEAD_IN_S either side, paced evenly.
// A paced connection sends its next request only after the answer, so it manages 1/latency a second:
// 50 connections (2 a second each) keep the rate while answers take up to half a second.
const burstSeconds = Math.ceil((MARKERS * SPACING_MS) / 1000) + 2 * LEAD_IN_S;
const leadLoad = (url) => ({
  url,
  connections: 50,
  duration: burstSeconds,
  overallRate: BURST_RATE,
  method: "POST",
  headers: { "content-type": "application/json", origin },
  requests: [
    {
      method: "POST",
      path: "/api/lease-requests",
      setupRequest: (req) => ({ ...req, body: leadBody("burst") }),
    },
  ],
});

console.log(
  `baseline: bare node:http 204 at ${BURST_RATE} req/s, 50 connections, ${burstSeconds} s, paced evenly`,
);
const bare = await bareBaseline(leadLoad, runPaced);
console.table(bare);

console.log(`phase 1, quiet: ${MARKERS} quote requests, one every ${SPACING_MS} ms; run ${run}`);
const quietSent = await markers();
await awaitNotices(quietSent);
const quiet = figures(quietSent);
console.table(quiet);

console.log(
  `phase 2, burst: ${MARKERS} markers every ${SPACING_MS} ms while quote requests arrive at ${BURST_RATE}/s` +
    (TRACK_RATE > 0 ? ` and visit beacons at ${TRACK_RATE}/s` : "") +
    ` (${burstSeconds} s)`,
);
const leadsRun = runPaced(leadLoad(BASE_URL));
const trackRun =
  TRACK_RATE > 0
    ? runPaced(
        visitLoad({
          url: BASE_URL,
          duration: burstSeconds,
          overallRate: TRACK_RATE,
          tag: `notice${run}`,
          sessions: 2000,
        }),
      )
    : Promise.resolve(undefined);
await new Promise((r) => setTimeout(r, LEAD_IN_S * 1000));
const burstSent = await markers();
const [leads, visits] = await Promise.all([leadsRun, trackRun]);
await awaitNotices(burstSent);
const burst = figures(burstSent);
console.table({ leads, ...(visits ? { visits } : {}) });
console.table(burst);
for (const ws of sockets) ws.close();
console.log(loadAverage());

const refused = [...quietSent, ...burstSent].filter((s) => !s.id);
const line = (f) =>
  `p50 ${f.p50ms} ms, p99 ${f.p99ms} ms, max ${f.maxMs} ms from POST to each socket's notice` +
  ` (the POST's own answer: p50 ${f.postP50ms} ms, p99 ${f.postP99ms} ms, max ${f.postMaxMs} ms;` +
  ` bare node:http p50 ${bare.p50ms} ms, p99 ${bare.p99ms} ms; target p99 ≤ ${TARGET_MS} ms)`;
const ok = verdict([
  ["quiet p99", quiet.p99ms <= TARGET_MS, line(quiet)],
  ["burst p99", burst.p99ms <= TARGET_MS, line(burst)],
  [
    "markers accepted",
    quiet.accepted === MARKERS && burst.accepted === MARKERS,
    `${quiet.accepted + burst.accepted} of ${2 * MARKERS} answered 201` +
      refused.map((s) => `; one ${s.status}`).join(""),
  ],
  [
    "delivered",
    quiet.notices === quiet.expected && burst.notices === burst.expected,
    `${quiet.notices + burst.notices} of ${quiet.expected + burst.expected} (marker, socket) notices within ${GRACE_MS / 1000} s after their phase`,
  ],
  [
    "burst load",
    leads.reqPerSec >= BURST_RATE * 0.95 && leads.non2xx === 0 && leads.errors === 0,
    `quote requests ${leads.reqPerSec} req/s offered ${BURST_RATE} (bare: ${bare.reqPerSec}), ${leads.non2xx} non-2xx, ${leads.errors} errors` +
      (visits
        ? `; visit beacons ${visits.reqPerSec} req/s offered ${TRACK_RATE}, ${visits.non2xx} non-2xx`
        : ""),
  ],
  ["messages", malformed === 0, `${malformed} malformed, ${leadMessages} lead-created messages heard`],
]);
process.exit(ok ? 0 : 1);
