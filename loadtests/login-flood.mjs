#!/usr/bin/env node
// An admin's sign-in during a flood of wrong sign-ins from 1,000 addresses, next to the same
// sign-in alone in the same run (the baseline). The flood: FLOOD_ADDRESSES clients (1,000), each
// with its own address (X-Forwarded-For from the trusted load generator, as the security tests
// send it), each sending up to FLOOD_ATTEMPTS (19) wrong sign-ins for made-up usernames back to
// back. Measured meanwhile, one after the other: the admin signing in from an address they signed
// in from before ("known address", which the sign-in puts ahead of anonymous attempts) and from an
// address never seen ("new address"); latency p50/p99/max and answers. The flood runs in a child
// process, so its 1,000 clients do not slow the measuring client.
//
//   node --import tsx loadtests/login-flood.mjs                    this checkout
//   COMPARE=/work/old node --import tsx loadtests/login-flood.mjs  and a checkout of another commit
//                                                                  (e.g. the one before the bound)
// ROUNDS (1): floods per checkout. ALONE (30): sign-ins of each kind measured alone first.
// Starts a stack per checkout (its built services, real PostgreSQL and Redis, a database of its own).
// Not part of npm test. Every request goes to 127.0.0.1; the flood's addresses are header values
// from the benchmarking range 198.18.0.0/15.
import { fork } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { Agent, request } from "undici";
import { tsImport } from "tsx/esm/api";
import { commitOf, startCheckoutStack } from "./checkout-stack.mjs";

const FLOOD_ADDRESSES = Number(process.env.FLOOD_ADDRESSES ?? 1000);
const FLOOD_ATTEMPTS = Number(process.env.FLOOD_ATTEMPTS ?? 19);
const FLOOD_SECONDS = Number(process.env.FLOOD_SECONDS ?? 60);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const ALONE = Number(process.env.ALONE ?? 30);
const PASSWORD = "bench-owner-password-0123456789";
const HOME = "192.0.2.10";
const here = path.resolve(new URL("..", import.meta.url).pathname);
const checkouts = [here, ...(process.env.COMPARE ? [path.resolve(process.env.COMPARE)] : [])];
const { hashPassword } = await tsImport("../services/gateway/src/domain/passwords.ts", import.meta.url);

// One connection per flooding client and the admin's own: nothing waits for a socket here.
const agent = new Agent({ connections: null, headersTimeout: 120_000, bodyTimeout: 120_000 });

async function signIn(base, username, password, ip) {
  const started = performance.now();
  try {
    const res = await request(`${base}/api/admin/login`, {
      method: "POST",
      dispatcher: agent,
      headers: { origin: base, "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ username, password }),
    });
    await res.body.text();
    return { status: res.statusCode, ms: performance.now() - started };
  } catch (err) {
    return { status: err.code ?? "error", ms: performance.now() - started };
  }
}

const floodAddress = (round, i) => `198.${18 + (round & 1)}.${(i >> 8) & 255}.${i & 255}`;
let fresh = 0;
const newAddress = () => `203.0.${113 + ((fresh >> 8) & 1)}.${fresh++ & 255}`;

function stats(samples) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)] ?? NaN;
  const answers = {};
  for (const s of samples) answers[s.status] = (answers[s.status] ?? 0) + 1;
  return {
    n: samples.length,
    p50: Math.round(at(0.5)),
    p99: Math.round(at(0.99)),
    max: Math.round(ms.at(-1) ?? NaN),
    answers: Object.entries(answers)
      .map(([status, count]) => `${status}×${count}`)
      .join(" "),
  };
}

async function alone(base, kind) {
  const samples = [];
  for (let i = 0; i < ALONE; i++)
    samples.push(await signIn(base, "owner", PASSWORD, kind === "known" ? HOME : newAddress()));
  return samples;
}

/** The flood itself, in a process of its own (FLOOD_BASE set): answers by status, as JSON. */
async function floodProcess(base, round) {
  const started = performance.now();
  const answers = {};
  await Promise.all(
    Array.from({ length: FLOOD_ADDRESSES }, async (_, i) => {
      for (let n = 0; n < FLOOD_ATTEMPTS && performance.now() - started < FLOOD_SECONDS * 1000; n++) {
        const r = await signIn(base, `nobody-${round}-${i}-${n}`, "a wrong password", floodAddress(round, i));
        answers[r.status] = (answers[r.status] ?? 0) + 1;
      }
    }),
  );
  process.send({ answers, seconds: (performance.now() - started) / 1000 });
}

/**
 * The flood (a child process, so the 1,000 clients' event loop does not delay the admin's
 * measured sign-ins), and the admin's sign-ins one after the other until it ends.
 */
async function flood(base, round) {
  let running = true;
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, FLOOD_BASE: base, FLOOD_ROUND: String(round) },
    execArgv: process.execArgv,
  });
  const done = new Promise((resolve) => child.once("message", resolve));
  const admin = async (kind) => {
    const samples = [];
    // Give the flood a moment to fill the gate, then sign in, again and again, while it lasts.
    await new Promise((r) => setTimeout(r, 1000));
    while (running) {
      samples.push(await signIn(base, "owner", PASSWORD, kind === "known" ? HOME : newAddress()));
      await new Promise((r) => setTimeout(r, 100));
    }
    return samples;
  };
  const known = admin("known");
  const unknown = admin("new");
  const { answers, seconds } = await done;
  running = false;
  child.kill();
  return {
    known: await known,
    unknown: await unknown,
    seconds,
    floodAnswers: Object.entries(answers)
      .map(([status, count]) => `${status}×${count}`)
      .join(" "),
  };
}

async function addOwner(databaseUrl) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(`INSERT INTO gateway.admins (username, password) VALUES ('owner', $1)`, [
      await hashPassword(PASSWORD),
    ]);
  } finally {
    await db.end();
  }
}

if (process.env.FLOOD_BASE) {
  await floodProcess(process.env.FLOOD_BASE, Number(process.env.FLOOD_ROUND));
  await agent.close();
  process.exit(0);
}

const rows = [];
for (const dir of checkouts) {
  const s = await startCheckoutStack(dir, {
    env: { LOGIN_MAX_FAILURES: "5", LOGIN_MAX_ADDRESS_FAILURES: "20" },
    logDir: path.join(here, ".tmp/login-flood"),
    database: "lease_login_flood",
  });
  const name = commitOf(dir);
  try {
    await addOwner(s.databaseUrl);
    const base = s.stack.url;
    // The admin's home address becomes known with a first sign-in; a warm-up for both kinds.
    if ((await signIn(base, "owner", PASSWORD, HOME)).status !== 200) throw new Error("owner cannot sign in");
    await alone(base, "new");
    for (let round = 1; round <= ROUNDS; round++) {
      rows.push({
        checkout: name,
        round,
        what: "alone, known address",
        ...stats(await alone(base, "known")),
      });
      rows.push({ checkout: name, round, what: "alone, new address", ...stats(await alone(base, "new")) });
      const f = await flood(base, round);
      const during = `during the flood (${FLOOD_ADDRESSES} addresses, ${f.seconds.toFixed(1)} s; ${f.floodAnswers})`;
      rows.push({ checkout: name, round, what: `${during}, known address`, ...stats(f.known) });
      rows.push({ checkout: name, round, what: `${during}, new address`, ...stats(f.unknown) });
      console.log(
        `${name} round ${round} done; load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
      );
    }
  } finally {
    await s.stop();
  }
  // Each checkout's rows as soon as it is done: a later one that fails to start loses nothing.
  console.table(rows.filter((r) => r.checkout === name));
}
await agent.close();
console.log(
  `Admin sign-in (ms): alone, then during ${FLOOD_ADDRESSES} addresses × up to ${FLOOD_ATTEMPTS} wrong sign-ins for unknown usernames (at most ${FLOOD_SECONDS} s)`,
);
console.log(`${os.cpus().length} cores, Node ${process.version}`);
console.table(rows);
