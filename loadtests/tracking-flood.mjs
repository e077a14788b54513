#!/usr/bin/env node
// A flood from one address: 100,000 visit beacons (FLOOD to change), each with a random session id
// and a made-up page, all from one address, through the gateway as fast as 100 connections go.
// Prints before and after: Redis (INFO used_memory, and the bytes of the stack's own tracking keys),
// the rows written (page views, visitor-days, page names), "active now" and the top pages, next to
// the per-address budget. Targets: every beacon answered 204; the stack's tracking keys grow by at
// most 20 MB; no more new sessions recorded than the budget allows for the minutes the flood took;
// no made-up page in the top pages or among the stored page names.
// Run against `npm start`: node loadtests/tracking-flood.mjs (BASE_URL, DATABASE_URL, REDIS_URL,
// REDIS_PREFIX, ADMIN_COOKIE, TRACKING_METRICS_URL and the BUDGET_* of the stack override the
// defaults). Not part of npm test.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { BASE_URL, BROWSER_UA, runAutocannon, settings, summarise, verdict } from "./tracking-common.mjs";

const FLOOD = Number(process.env.FLOOD ?? 100_000);
const ATTACKER = "203.0.113.50";
/** services/tracking config defaults: new sessions and hits per address block and minute. */
const BUDGET_SESSIONS = Number(process.env.BUDGET_NEW_SESSIONS_PER_MINUTE ?? 300);
const BUDGET_HITS = Number(process.env.BUDGET_HITS_PER_MINUTE ?? 6000);
const REDIS_BOUND_MB = 20;
const { databaseUrl, redisUrl, redisPrefix } = settings();
const origin = new URL(BASE_URL).origin;
const run = randomBytes(4).toString("hex");
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const redis = new Redis(redisUrl);

async function redisState() {
  const info = await redis.info("memory");
  const usedMemory = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? NaN);
  let trackingBytes = 0;
  let keys = 0;
  let cursor = "0";
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", `${redisPrefix}:tracking:*`, "COUNT", 1000);
    cursor = next;
    for (const key of found) {
      keys++;
      trackingBytes += Number((await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0")) ?? 0);
    }
  } while (cursor !== "0");
  return { usedMemory, trackingBytes, keys };
}

async function rows() {
  const count = async (table) =>
    Number((await pool.query(`SELECT count(*)::bigint AS n FROM tracking.${table}`)).rows[0].n);
  return {
    pageViews: await count("page_views"),
    visitorDays: await count("visitors"),
    pages: await count("pages"),
  };
}

async function stats() {
  if (process.env.ADMIN_COOKIE) {
    const res = await fetch(`${BASE_URL}/api/admin/visitor-stats`, {
      headers: { cookie: process.env.ADMIN_COOKIE },
    });
    if (res.ok) return res.json();
  }
  // Without an admin session: the same rollup the admin's top pages read.
  const top = await pool.query(
    `SELECT p.path AS page, d.views FROM tracking.daily_pages d JOIN tracking.pages p ON p.id = d.page_id
     WHERE d.day = (now() AT TIME ZONE 'Europe/Amsterdam')::date ORDER BY d.views DESC, p.path LIMIT 10`,
  );
  return { currentActive: undefined, topPages: top.rows };
}

async function overBudget() {
  const url = process.env.TRACKING_METRICS_URL;
  if (!url) return undefined;
  const text = await (await fetch(url)).text();
  return text
    .split("\n")
    .filter((l) => /^tracking_hits_total\{.*outcome="over_budget"/.test(l))
    .reduce((n, l) => n + Number(l.split(" ").pop()), 0);
}

/** Waits until the stream writer has written everything (the stream is empty) and rows stop changing. */
async function settled() {
  const streamKey = `${redisPrefix}:tracking:stream`;
  const deadline = Date.now() + 30_000;
  while ((await redis.xlen(streamKey)) > 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  await new Promise((r) => setTimeout(r, 1500));
}

const show = (label, s) => {
  console.log(`${label}: active now ${s.stats.currentActive ?? "?"}; top pages:`);
  console.table(s.stats.topPages.map((p) => ({ page: p.page, views: p.views })));
  console.log(
    `${label}: Redis used_memory ${(s.redis.usedMemory / 2 ** 20).toFixed(1)} MB (the whole server),` +
      ` tracking keys of this stack ${s.redis.keys} holding ${(s.redis.trackingBytes / 2 ** 20).toFixed(2)} MB;` +
      ` rows ${JSON.stringify(s.rows)}`,
  );
};

/** Everything measured, once the stream writer has caught up. */
async function snapshot(label) {
  await settled();
  const s = { redis: await redisState(), rows: await rows(), stats: await stats(), over: await overBudget() };
  show(label, s);
  return s;
}

const before = await snapshot("before");
console.log(
  `budget per address block (IPv4 /24, IPv6 /64) and minute: ${BUDGET_SESSIONS} new sessions, ${BUDGET_HITS} page views and heartbeats`,
);
console.log(`flood: ${FLOOD} beacons from ${ATTACKER}, random session ids, made-up pages, 100 connections`);

let n = 0;
const started = Date.now();
const result = summarise(
  await runAutocannon({
    url: BASE_URL,
    connections: 100,
    amount: FLOOD,
    headers: {
      "content-type": "application/json",
      origin,
      "user-agent": BROWSER_UA,
      "x-forwarded-for": ATTACKER,
    },
    requests: [
      {
        method: "POST",
        path: "/api/track/visit",
        setupRequest: (req) => {
          const i = n++;
          return {
            ...req,
            body: JSON.stringify({
              sessionId: `session-flood${run}${i}-${1700000000000 + i}`,
              page: `/flood-${run}-${randomBytes(4).toString("hex")}?utm_source=${i}`,
              referrer: "",
            }),
          };
        },
      },
    ],
  }),
);
const ended = Date.now();
console.table(result);
const after = await snapshot("after");

const minutes = Math.floor(ended / 60_000) - Math.floor(started / 60_000) + 1;
const recordedSessions = after.rows.visitorDays - before.rows.visitorDays;
const grownMb = (after.redis.trackingBytes - before.redis.trackingBytes) / 2 ** 20;
const madeUpPages = Number(
  (await pool.query(`SELECT count(*) AS n FROM tracking.pages WHERE path LIKE $1`, [`/flood-${run}%`]))
    .rows[0].n,
);
const madeUpTop = after.stats.topPages.filter((p) => String(p.page).startsWith("/flood-")).length;
console.log(
  `flood took ${((ended - started) / 1000).toFixed(1)} s over ${minutes} budget minute(s): ` +
    `${after.rows.pageViews - before.rows.pageViews} page views and ${recordedSessions} visitor-days written, ` +
    `${after.over !== undefined ? after.over - before.over : "?"} beacons over budget (tracking_hits_total{outcome="over_budget"}), ` +
    `Redis used_memory ${((after.redis.usedMemory - before.redis.usedMemory) / 2 ** 20).toFixed(1)} MB (whole server, other users included)`,
);
await pool.end();
redis.disconnect();

const ok = verdict([
  [
    "answered",
    result.ok2xx === FLOOD && result.non2xx === 0 && result.errors === 0,
    `${result.ok2xx} of ${FLOOD} beacons answered 2xx (${result.non2xx} other, ${result.errors} errors)`,
  ],
  [
    "Redis growth",
    grownMb <= REDIS_BOUND_MB,
    `the stack's tracking keys grew by ${grownMb.toFixed(2)} MB (target ≤ ${REDIS_BOUND_MB} MB)`,
  ],
  [
    "sessions recorded",
    recordedSessions <= BUDGET_SESSIONS * minutes,
    `${recordedSessions} new visitors recorded (budget ${BUDGET_SESSIONS} × ${minutes} minute(s))`,
  ],
  [
    "made-up pages",
    madeUpPages === 0 && madeUpTop === 0,
    `${madeUpPages} made-up page names stored, ${madeUpTop} in the top pages (all recorded as "(overig)")`,
  ],
]);
process.exit(ok ? 0 : 1);
