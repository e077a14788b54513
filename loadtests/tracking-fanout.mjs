#!/usr/bin/env node
// Live feed fan-out through the gateway: 200 admin sockets on /ws; visits spaced apart; each socket
// must receive the coalesced visitor-update that contains the visit within 1 s (p99). Also prints
// the bare node:http 204 baseline under the ingest benchmark's autocannon settings.
// Needs an admin cookie: ADMIN_COOKIE ("admin_session=...") or one minted from .env
// (JWT_SECRET, REDIS_URL, REDIS_PREFIX). Env: BASE_URL, SOCKETS, VISITS, VISIT_SPACING_MS.
import { randomBytes, randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { SignJWT } from "jose";
import { Redis } from "ioredis";
import {
  BASE_URL,
  BROWSER_UA,
  bareBaseline,
  openAdminSockets,
  settings,
  summarise,
  verdict,
} from "./tracking-common.mjs";

const SOCKETS = Number(process.env.SOCKETS ?? 200);
const VISITS = Number(process.env.VISITS ?? 15);
const SPACING_MS = Number(process.env.VISIT_SPACING_MS ?? 1500);
const origin = new URL(BASE_URL).origin;
const wsUrl = `${BASE_URL.replace(/^http/, "ws")}/ws`;

/**
 * Mirrors issueSession in libs/platform/src/session.ts (HS256 token + jti recorded in Redis); without
 * a `gen` claim the token counts as session generation 0, valid until that admin's sessions are ended.
 */
async function mintAdminCookie() {
  const { jwtSecret, redisUrl, redisPrefix } = settings();
  if (!jwtSecret) throw new Error("set ADMIN_COOKIE, or JWT_SECRET (in .env or the environment)");
  const jti = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  const ttl = 3600;
  const token = await new SignJWT({ username: "loadtest" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject("loadtest")
    .setJti(jti)
    .setIssuedAt(now)
    .setExpirationTime(now + ttl)
    .sign(new TextEncoder().encode(jwtSecret));
  const redis = new Redis(redisUrl);
  await redis.set(`${redisPrefix}:session:${jti}`, "loadtest", "EX", ttl);
  redis.disconnect();
  return `admin_session=${token}`;
}

const cookie = process.env.ADMIN_COOKIE ?? (await mintAdminCookie());

console.log(
  `baseline: bare node:http 204, 100 connections, ${process.env.DURATION ?? 20} s (the ingest benchmark settings)`,
);
const bare = summarise(
  await bareBaseline((url) => ({
    url,
    connections: 100,
    duration: Number(process.env.DURATION ?? 20),
    method: "POST",
  })),
);
console.table(bare);

console.log(`opening ${SOCKETS} admin sockets on ${wsUrl}`);
const pending = new Map(); // visit session id -> sent at (performance.now())
const latencies = [];
const seen = new Set(); // `${socket}:${visit}`
let malformed = 0;
const sockets = await openAdminSockets({
  count: SOCKETS,
  cookie,
  onMalformed: () => malformed++,
  onMessage: (i, msg, at) => {
    if (msg.type !== "visitor-update") return malformed++;
    for (const v of msg.data.activeVisitors) {
      const sent = pending.get(v.id);
      const key = `${i}:${v.id}`;
      if (sent !== undefined && !seen.has(key)) {
        seen.add(key);
        latencies.push(Math.round(at - sent));
      }
    }
  },
});
console.log(`${sockets.length} sockets connected and got their first update`);

const run = randomBytes(3).toString("hex");
for (let v = 0; v < VISITS; v++) {
  const id = `session-fan${run}${v}-${Date.now()}`;
  pending.set(id, performance.now());
  const res = await fetch(`${BASE_URL}/api/track/visit`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, "user-agent": BROWSER_UA },
    body: JSON.stringify({ sessionId: id, page: "/fanout" }),
  });
  if (res.status !== 204) throw new Error(`visit answered ${res.status}`);
  await new Promise((r) => setTimeout(r, SPACING_MS));
}
await new Promise((r) => setTimeout(r, 2000));
for (const ws of sockets) ws.close();

const expected = SOCKETS * VISITS;
latencies.sort((a, b) => a - b);
const pct = (p) =>
  latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? NaN;
// A delivery that never came counts as infinitely late: the p99 rank is taken over all expected.
const missing = expected - latencies.length;
const rank = Math.ceil(0.99 * expected) - 1;
const p99 = rank < latencies.length ? latencies[rank] : Infinity;
console.table({
  sockets: SOCKETS,
  visits: VISITS,
  deliveries: latencies.length,
  expected,
  p50ms: pct(50),
  p99ms: p99,
  maxMs: latencies.at(-1),
});
const ok = verdict([
  ["fan-out p99", p99 <= 1000, `${p99} ms from visit to each socket's update (target ≤ 1000 ms)`],
  ["delivered", missing === 0, `${latencies.length} of ${expected} (socket, visit) updates`],
  ["messages", malformed === 0, `${malformed} malformed`],
]);
process.exit(ok ? 0 : 1);
