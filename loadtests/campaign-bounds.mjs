#!/usr/bin/env node
// One admin against the campaign report: many distinct campaigns imported and stored, the
// two-year report asked for in parallel, and what the live view (GET /api/admin/visitor-stats, the
// tracking service's other work) answers meanwhile. Through the gateway of the built stack, on a
// database of its own (dropped at the end):
//   node loadtests/campaign-bounds.mjs   (IMPORTS=9, PER_IMPORT=10000, STORED=80000, PARALLEL=3; KEEP=1
//   keeps the database)
// 1. Baselines of the same run: the live view alone, and a realistic import (20 campaigns, 30 days).
// 2. The attack's imports: IMPORTS files of PER_IMPORT distinct campaigns each (one day each), with
//    the live view asked every 100 ms while each runs.
// 3. STORED distinct campaigns of spend put into the database directly (as if stored before any
//    bound, or over many imports), then the two-year report: alone, and PARALLEL at once with the
//    live view asked every 100 ms; its answer's size and rows. Baseline: the same report of a
//    store of 20 campaigns (read first, before the bulk).
import { performance } from "node:perf_hooks";
import pg from "pg";
import { startBenchStack } from "./bench-admin.mjs";
import { rebuildSpendTotals } from "./spend-totals.mjs";

const IMPORTS = Number(process.env.IMPORTS ?? 9);
const PER_IMPORT = Number(process.env.PER_IMPORT ?? 10_000);
const STORED = Number(process.env.STORED ?? 80_000);
const PARALLEL = Number(process.env.PARALLEL ?? 3);
const ADMIN_URL = process.env.ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const ymd = (ms) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(new Date(ms));
const today = ymd(Date.now());
const addDays = (day, n) => ymd(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000);
const twoYears = { from: addDays(today, -729), to: today };

const stats = (values) => {
  const ms = [...values].sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? NaN;
  return { n: ms.length, p50: at(0.5), p99: at(0.99), max: ms[ms.length - 1] ?? NaN };
};
const f = (ms) =>
  Number.isNaN(ms) ? "-" : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`;

const copy = `campaign_bounds_${process.pid}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${copy}`);
const databaseUrl = ADMIN_URL.replace(/\/[^/]*$/, `/${copy}`);
const { stack, token, stop } = await startBenchStack(databaseUrl);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
pool.on("error", () => undefined);
const out = (line = "") => console.log(line);

try {
  const call = async (method, path, body) => {
    const t = performance.now();
    const res = await fetch(`${stack.url}${path}`, {
      method,
      headers: {
        cookie: `admin_session=${token}`,
        origin: stack.url,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - t, bytes: text.length, text };
  };
  /** The live view's answer times (every `everyMs`) while `work` runs. */
  const liveDuring = async (work, everyMs = 100) => {
    const times = [];
    let done = false;
    const poll = (async () => {
      while (!done) {
        const r = await call("GET", "/api/admin/visitor-stats");
        if (r.status !== 200) throw new Error(`visitor-stats answered ${r.status}`);
        times.push(r.ms);
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    })();
    try {
      return { result: await work(), live: stats(times) };
    } finally {
      done = true;
      await poll;
    }
  };
  const csvOf = (rows) => ["Campaign name,Day,Amount spent (EUR)", ...rows].join("\n");
  const report = () => call("GET", `/api/admin/campaign-report?from=${twoYears.from}&to=${twoYears.to}`);
  const describe = (r) => {
    if (r.status !== 200) return `${r.status} ${JSON.parse(r.text).message ?? ""}`.slice(0, 160);
    const body = JSON.parse(r.text);
    if (body.rows) return `200, ${body.rows.length} rows, ${Math.round(r.bytes / 1024)} KiB`;
    return `200, ${body.imported} stored, ${body.unchanged} unchanged`;
  };

  // 1. Baselines.
  for (let i = 0; i < 20; i++) await call("GET", "/api/admin/visitor-stats");
  const alone = [];
  for (let i = 0; i < 100; i++) alone.push((await call("GET", "/api/admin/visitor-stats")).ms);
  const liveAlone = stats(alone);
  const small = csvOf(
    Array.from({ length: 600 }, (_, i) => `bench-klein-${i % 20},${addDays(today, -(i % 30))},12.50`),
  );
  const smallImport = await call("POST", "/api/admin/ad-spend/import", { csv: small });
  const smallReports = [];
  for (let i = 0; i < 10; i++) smallReports.push(await report());
  out(`## The campaign report against one admin (${today})`);
  out();
  out("| step | answer | time | live view p50 / p99 / max meanwhile |");
  out("| --- | --- | --- | --- |");
  out(
    `| baseline: live view alone, 100 calls | 200 | - | ${f(liveAlone.p50)} / ${f(liveAlone.p99)} / ${f(liveAlone.max)} |`,
  );
  out(
    `| baseline: import of 20 campaigns × 30 days (600 lines) | ${describe(smallImport)} | ${f(smallImport.ms)} | - |`,
  );
  const smallReport = stats(smallReports.map((r) => r.ms));
  out(
    `| baseline: two-year report of that store, 10 calls | ${describe(smallReports[0])} | p50 ${f(smallReport.p50)}, max ${f(smallReport.max)} | - |`,
  );

  // 2. The attack's imports: each a file of PER_IMPORT distinct campaigns.
  for (let n = 0; n < IMPORTS; n++) {
    const csv = csvOf(
      Array.from(
        { length: PER_IMPORT },
        (_, i) => `bench-${n}-${i},${addDays(today, -((n * PER_IMPORT + i) % 700))},3.00`,
      ),
    );
    const { result, live } = await liveDuring(() => call("POST", "/api/admin/ad-spend/import", { csv }));
    out(
      `| import ${n + 1} of ${IMPORTS}: ${PER_IMPORT} distinct campaigns | ${describe(result)} | ${f(result.ms)} | ${f(live.p50)} / ${f(live.p99)} / ${f(live.max)} |`,
    );
  }

  // The largest import the bounds let through: 20,000 lines (the most a file may have), 1,000 new
  // campaigns on the first day of 20 months each (every new day adds a running total up to its
  // month's end: the most work a line can make).
  const months = Array.from({ length: 20 }, (_, m) => `${addDays(today, -31 * (m + 1)).slice(0, 8)}01`);
  const largest = csvOf(
    Array.from({ length: 20_000 }, (_, i) => `bench-groot-${i % 1000},${months[Math.floor(i / 1000)]},2.00`),
  );
  const { result: big, live: liveBig } = await liveDuring(() =>
    call("POST", "/api/admin/ad-spend/import", { csv: largest }),
  );
  out(
    `| largest import within the bounds: 20,000 lines, 1,000 new campaigns × 20 first days of a month | ${describe(big)} | ${f(big.ms)} | ${f(liveBig.p50)} / ${f(liveBig.p99)} / ${f(liveBig.max)} |`,
  );

  // 3. A store of STORED campaigns, whatever let them in.
  const have = Number(
    (await pool.query("SELECT count(DISTINCT campaign) AS n FROM tracking.ad_spend_monthly")).rows[0].n,
  );
  if (have < STORED) {
    await pool.query("ALTER TABLE tracking.ad_spend DISABLE TRIGGER USER");
    await pool.query(
      `INSERT INTO tracking.ad_spend (platform, day, campaign, spend_cents)
       SELECT (ARRAY['meta','tiktok','snapchat','google'])[1 + i % 4], $2::date - (i % 700), 'bench-stored-' || i, 300 + i % 5000
         FROM generate_series(1, $1) i ON CONFLICT DO NOTHING`,
      [STORED - have, today],
    );
    await pool.query("ALTER TABLE tracking.ad_spend ENABLE TRIGGER USER");
    await rebuildSpendTotals(pool);
  }
  const stored = (
    await pool.query(
      "SELECT count(DISTINCT (platform, campaign)) AS n, count(*) AS days FROM tracking.ad_spend",
    )
  ).rows[0];
  const first = await report();
  out(
    `| two-year report, ${stored.n} campaigns stored (${stored.days} days of spend), first call | ${describe(first)} | ${f(first.ms)} | - |`,
  );
  const { result: together, live } = await liveDuring(() =>
    Promise.all(Array.from({ length: PARALLEL }, report)),
  );
  out(
    `| ${PARALLEL} two-year reports at once | ${together.map(describe).join("; ")} | ${together.map((r) => f(r.ms)).join(", ")} | ${f(live.p50)} / ${f(live.p99)} / ${f(live.max)} |`,
  );
  const { result: again, live: liveOne } = await liveDuring(async () => {
    const r = [];
    for (let i = 0; i < 5; i++) r.push(await report());
    return r;
  });
  const one = stats(again.map((r) => r.ms));
  out(
    `| the same report 5 times in a row | ${describe(again[0])} | p50 ${f(one.p50)}, max ${f(one.max)} | ${f(liveOne.p50)} / ${f(liveOne.p99)} / ${f(liveOne.max)} |`,
  );
} finally {
  await pool.end();
  await stop();
  if (process.env.KEEP) console.log(`kept ${copy}`);
  else await admin.query(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
  await admin.end();
}
