#!/usr/bin/env node
// Analytics over years of history: imports generated page views spread over 26 months through
// `tracking:import` (1 M, then 10 M, then 100 M in all; each step's lines written to a file in the
// system's temporary directory before its clock starts, some 110 bytes a line, 10 GB for the 100 M
// step's 90 M, and removed after it), and after each step measures the analytics
// API (p50/p99 for a day, 30 days, 12 months and the whole history, each also filtered to one
// campaign and to channel Direct), the import rate, the bytes on disk per page view and the retention
// pass. Beside them, the same questions asked of the design
// before (one unpartitioned page_views table, read by scans) at 1 M and 10 M rows, and a plain COPY
// of the same rows (from a CSV file written with the NDJSON) as the import's baseline. While the reads run, quote requests arrive from visits of a
// paid campaign (one a second): the time from each request to its lead's attribution stored in the
// leads service (p50/p99), beside the read figures, and no job of the tracking queue may end failed.
//   HISTORY_SIZES=1000000,10000000 node loadtests/analytics-history.mjs   (a shorter run)
//   HISTORY_IMPORTED=10000000 HISTORY_SIZES=10000000 ...   (the database already holds this run's first
//     10 M page views, e.g. a copy of one built before: reads and conversions only, no import, no baseline)
// Needs BASE_URL (gateway), ADMIN_COOKIE and DATABASE_URL of the running stack, and REDIS_URL and
// REDIS_PREFIX for its queues (run-all.mjs passes them; against `npm start` set them by hand, with
// LEAD_RATE_LIMIT raised and the load generator in TRUSTED_PROXIES). Writes its table to
// .tmp/bench/analytics-history.md.
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import {
  createReadStream,
  createWriteStream,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { finished, pipeline } from "node:stream/promises";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { tsImport } from "tsx/esm/api";
import { Redis } from "ioredis";
import { entryArgs } from "../scripts/lib/ts-entry.mjs";
import { history, retentionWindow } from "./history-generator.mjs";
import { BROWSER_UA, visitorAddress } from "./tracking-common.mjs";

// The retention pass is timed in-process, with clocks a day and a month ahead.
const { runRetention, compactClosedMonths } = await tsImport(
  "../services/tracking/src/domain/retention.ts",
  import.meta.url,
);
const { Partitions } = await tsImport("../services/tracking/src/repositories/partitions.ts", import.meta.url);

const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:8080";
const COOKIE = process.env.ADMIN_COOKIE;
const DATABASE_URL = process.env.DATABASE_URL;
if (!COOKIE || !DATABASE_URL) {
  console.error("set ADMIN_COOKIE and DATABASE_URL (loadtests/run-all.mjs passes both)");
  process.exit(2);
}
const SIZES = (process.env.HISTORY_SIZES ?? "1000000,10000000,100000000").split(",").map(Number);
const BASELINE_UP_TO = 10_000_000;
const RETENTION_MONTHS = 26;
const REPEAT = Number(process.env.REPEAT ?? 60);
const RAW_TIMEOUT_MS = 10_000;
const TARGET = {
  p99Ms: 100,
  flat: 1.5,
  retentionMs: 2000,
  importPerSec: 50_000,
  importOfCopy: 0.25,
  bytesPerView: 150,
  attributionP99Ms: 5000,
};
const CONVERSION_EVERY_MS = 1000;
const ATTRIBUTION_TIMEOUT_MS = 60_000;

const DAY = 86_400_000;
const now = Date.now();
const ymd = (ms) =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Amsterdam",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(ms));
const today = ymd(now);
const window = retentionWindow(now, RETENTION_MONTHS);
const historyStart = window.start;
const DAYS = Math.floor((now - historyStart) / DAY);

/**
 * Writes a step's generated page views to files before any clock starts: NDJSON for the import
 * and, for the baseline, the same rows as CSV for COPY. Both timed loads then read a file, as an
 * import of an export does; until run 7 the generator ran inside each timed load, in this process,
 * feeding the import through a pipe (and the COPY through its stream), so the import waited for
 * lines the generator had not made yet, and both shared the two cores with it (loadtests/REPORT.md,
 * run 7). Answers the files' directory, removed by the caller.
 */
async function writeHistory(count, step, withCsv) {
  const dir = mkdtempSync(join(tmpdir(), "analytics-history-"));
  const ndjson = createWriteStream(join(dir, "lines.ndjson"));
  const csv = withCsv ? createWriteStream(join(dir, "rows.csv")) : undefined;
  const esc = (s) => (s === "" ? "" : `"${s.replaceAll('"', '""')}"`);
  let lines = "";
  let rows = "";
  const flush = async () => {
    const waits = [];
    if (!ndjson.write(lines)) waits.push(new Promise((r) => ndjson.once("drain", r)));
    if (csv && !csv.write(rows)) waits.push(new Promise((r) => csv.once("drain", r)));
    lines = rows = "";
    await Promise.all(waits);
  };
  for (const v of history(count, step, window)) {
    lines += `${JSON.stringify(v)}\n`;
    if (csv) rows += `${v.id},${esc(v.session)},${esc(v.page)},${esc(v.referrer)},${v.at}\n`;
    if (lines.length > 1 << 20) await flush();
  }
  await flush();
  ndjson.end();
  csv?.end();
  await Promise.all([finished(ndjson), csv && finished(csv)]);
  return dir;
}

/**
 * Runs `tracking:import` on the step's NDJSON file as its stdin, as `npm run tracking:import`
 * runs it (the entry's cached bundle, built before the clock starts; through tsx the command spent
 * some 2 CPU-seconds compiling first); resolves with its wall time and summary line.
 */
async function importHistory(file) {
  const args = await entryArgs("services/tracking/src/cli/import.ts");
  const input = openSync(file, "r");
  try {
    return await new Promise((resolve, reject) => {
      const started = performance.now();
      const child = spawn(process.execPath, args, {
        env: { ...process.env, DATABASE_URL },
        stdio: [input, "pipe", "inherit"],
      });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.on("error", reject);
      child.on("exit", (code) => {
        const seconds = (performance.now() - started) / 1000;
        if (code !== 0) reject(new Error(`tracking:import exited ${code}: ${out}`));
        else resolve({ seconds, summary: out.trim() });
      });
    });
  } finally {
    closeSync(input);
  }
}

// ---------- measurements ----------

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const addDays = (day, n) => ymd(new Date(`${day}T12:00:00Z`).getTime() + n * DAY);
const PERIODS = [
  { name: "a day", from: today, to: today },
  { name: "30 days", from: addDays(today, -29), to: today },
  { name: "12 months", from: ymd(new Date(`${today}T12:00:00Z`).getTime() - 364 * DAY), to: today },
  { name: "whole history", from: ymd(historyStart), to: today },
];
/**
 * Filtered reads beside the unfiltered ones: one campaign (a narrow filter, a few % of visits) and
 * channel Direct (the broad case: most visits, so the most rollup rows to sum).
 */
const FILTERS = [
  {
    name: "campaign google / cpc / najaar",
    query: "campaign=najaar&campaignSource=google&campaignMedium=cpc",
  },
  { name: "channel Direct", query: "channel=Direct" },
];
const QUERIES = [
  ...PERIODS,
  ...FILTERS.flatMap((f) => PERIODS.map((p) => ({ ...p, name: `${p.name}, ${f.name}`, filter: f.query }))),
];

async function timeApi(query) {
  const url = `${BASE_URL}/api/admin/analytics?from=${query.from}&to=${query.to}${query.filter ? `&${query.filter}` : ""}`;
  const times = [];
  for (let i = 0; i < REPEAT + 5; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: { cookie: COOKIE } });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
    if (i >= 5) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99) };
}

/**
 * Waits for what the import and the pass leave writing in the background (a checkpoint of the
 * gigabytes they rewrote, autovacuum of the tables they filled), so the reads after are timed on
 * their own, as in a service whose daily pass packs one month: at 100 M a p99 (one sample of 60)
 * once came out at twice its rerun's right after the pass. Answers the seconds it took.
 */
async function settle(pool) {
  const started = performance.now();
  await pool.query("CHECKPOINT").catch((err) => console.log(`no CHECKPOINT (${err.message})`));
  for (let i = 0; i < 600; i++) {
    const r = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND backend_type = 'autovacuum worker'`,
    );
    if (r.rows[0].n === 0) break;
    await sleep(1000);
  }
  return (performance.now() - started) / 1000;
}

async function bytesPerView(pool) {
  const r = await pool.query(
    `SELECT (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'tracking' AND c.relkind IN ('r', 'm')) AS bytes,
            (SELECT coalesce(sum(views), 0) FROM tracking.monthly) AS views`,
  );
  return { bytes: Number(r.rows[0].bytes), views: Number(r.rows[0].views) };
}

// ---------- conversions while the reads run ----------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const run = randomBytes(3).toString("hex");
let conversionsSent = 0;

/**
 * One converting visitor, as a browser with analytics consent sends it: the landing page of a paid
 * campaign and a second page (visit beacons), then the quote form with the visitor-session id.
 * Answers the time from sending the form to its lead's attribution stored (or a timeout).
 */
async function conversion(pool) {
  const i = conversionsSent++;
  const sessionId = `session-bench${run}x${i}-${Date.now()}`;
  const headers = {
    "content-type": "application/json",
    origin: new URL(BASE_URL).origin,
    "user-agent": BROWSER_UA,
    "x-forwarded-for": visitorAddress(1000 + i),
  };
  const post = (path, body) =>
    fetch(`${BASE_URL}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  for (const page of [
    `/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=najaar&gclid=b${i}`,
    "/over-ons",
  ]) {
    const res = await post("/api/track/visit", { sessionId, page, referrer: "https://www.google.com/" });
    if (res.status !== 204) throw new Error(`visit beacon: ${res.status} ${await res.text()}`);
  }
  const sent = performance.now();
  const res = await post("/api/lease-requests", {
    carUrl: `https://www.example.nl/occasions/${run}/${i}`,
    contactNumber: "0612345678",
    email: `bench${i}@lt-${run}.example.nl`,
    companyName: `Benchmark ${run} ${i}`,
    sessionId,
  });
  if (res.status !== 201) throw new Error(`quote request: ${res.status} ${await res.text()}`);
  const { id } = await res.json();
  for (;;) {
    const r = await pool.query(
      "SELECT attribution->>'campaign' AS campaign FROM leads.lease_requests WHERE id = $1",
      [id],
    );
    const campaign = r.rows[0]?.campaign;
    if (campaign) {
      if (campaign !== "najaar") throw new Error(`lead ${id} attributed to ${campaign}, not najaar`);
      return { ms: performance.now() - sent };
    }
    if (performance.now() - sent > ATTRIBUTION_TIMEOUT_MS) return { timeout: true };
    await sleep(20);
  }
}

/** Sends a conversion every second until `stop` resolves; answers their outcomes. */
async function conversionsDuring(pool, stop) {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const pending = [];
  while (!stopped) {
    pending.push(conversion(pool));
    await Promise.race([sleep(CONVERSION_EVERY_MS), stop]);
  }
  const outcomes = await Promise.all(pending);
  const times = outcomes
    .filter((o) => !o.timeout)
    .map((o) => o.ms)
    .sort((a, b) => a - b);
  return {
    count: outcomes.length,
    timeouts: outcomes.length - times.length,
    p50: times.length ? pct(times, 50) : undefined,
    p99: times.length ? pct(times, 99) : undefined,
    max: times.at(-1),
  };
}

/** Jobs of the tracking queue in BullMQ's failed set (the conversions). */
async function failedTrackingJobs() {
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  try {
    return await redis.zcard(`${process.env.REDIS_PREFIX ?? "lease"}:bull:tracking:failed`);
  } finally {
    redis.disconnect();
  }
}

// ---------- the design before, as the baseline ----------

const RAW_RANGE = `occurred_at >= ($1::date)::timestamp AT TIME ZONE 'Europe/Amsterdam'
  AND occurred_at < (($2::date + 1)::timestamp AT TIME ZONE 'Europe/Amsterdam')`;
const RAW_QUERIES = {
  /** The old visitor-series statement, with the bucket the new API would choose. */
  series: (unit) => `WITH buckets AS (
       SELECT (b AT TIME ZONE 'Europe/Amsterdam') AS start,
              ((b + '1 ${unit}'::interval) AT TIME ZONE 'Europe/Amsterdam') AS stop
       FROM generate_series(($1::date)::timestamp, ($2::date)::timestamp, '1 ${unit}'::interval) AS b)
     SELECT b.start, count(DISTINCT v.session_id) AS visitors, count(v.event_id) AS page_views
     FROM buckets b LEFT JOIN rawscan.page_views v ON v.occurred_at >= b.start AND v.occurred_at < b.stop
     GROUP BY b.start ORDER BY b.start`,
  totals: `SELECT count(*) AS views, count(DISTINCT session_id) AS visitors FROM rawscan.page_views WHERE ${RAW_RANGE}`,
  top: `SELECT page, count(*) AS views, count(DISTINCT session_id) AS visitors FROM rawscan.page_views
        WHERE ${RAW_RANGE} GROUP BY page ORDER BY count(*) DESC LIMIT 10`,
};

async function loadRaw(pool, file) {
  await pool.query("CREATE SCHEMA IF NOT EXISTS rawscan");
  await pool.query(`CREATE TABLE IF NOT EXISTS rawscan.page_views (
      event_id text PRIMARY KEY, session_id text NOT NULL, page text NOT NULL, referrer text,
      occurred_at timestamptz NOT NULL)`);
  await pool.query("CREATE INDEX IF NOT EXISTS raw_occurred_at ON rawscan.page_views (occurred_at)");
  const client = await pool.connect();
  const started = performance.now();
  try {
    await pipeline(
      createReadStream(file),
      client.query(copyFrom("COPY rawscan.page_views FROM STDIN (FORMAT csv)")),
    );
  } finally {
    client.release();
  }
  await pool.query("ANALYZE rawscan.page_views");
  return (performance.now() - started) / 1000;
}

async function timeRaw(pool, query) {
  const days = Math.round((Date.parse(query.to) - Date.parse(query.from)) / DAY) + 1;
  const unit = days <= 2 ? "hour" : days <= 92 ? "day" : "month";
  const times = [];
  for (let i = 0; i < 3; i++) {
    const client = await pool.connect();
    try {
      await client.query(`SET statement_timeout = ${RAW_TIMEOUT_MS}`);
      const t = performance.now();
      await Promise.all([
        client.query(RAW_QUERIES.series(unit), [query.from, query.to]),
        client.query(RAW_QUERIES.totals, [query.from, query.to]),
        client.query(RAW_QUERIES.top, [query.from, query.to]),
      ]);
      times.push(performance.now() - t);
    } catch (err) {
      if (!/statement timeout/.test(err.message)) throw err;
      return { timeout: true };
    } finally {
      client.release();
    }
  }
  times.sort((a, b) => a - b);
  return { p50: times[1], p99: times[2] };
}

// ---------- the run ----------

const fmt = (ms) => (ms === undefined ? "-" : ms >= 100 ? String(Math.round(ms)) : ms.toFixed(1));
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
const rows = [];
const steps = [];
const attributionRows = [];
let imported = Number(process.env.HISTORY_IMPORTED ?? 0);
let failed = false;
const verdict = (ok, text) => {
  if (!ok) failed = true;
  console.log(`${ok ? "PASS" : "FAIL"} ${text}`);
  return `${ok ? "PASS" : "FAIL"} ${text}`;
};
try {
  console.log(`history: ${DAYS} days from ${ymd(historyStart)} to ${today}; steps ${SIZES.join(", ")}`);
  for (const [i, size] of SIZES.entries()) {
    const count = size - imported;
    console.log(
      `\n--- importing ${count.toLocaleString("en")} page views (to ${size.toLocaleString("en")}) ---`,
    );
    const baseline = size <= BASELINE_UP_TO;
    const dir = count > 0 ? await writeHistory(count, i + 1, baseline) : undefined;
    let run;
    let copyRate;
    try {
      run = dir ? await importHistory(join(dir, "lines.ndjson")) : undefined;
      if (run && baseline) copyRate = Math.round(count / (await loadRaw(pool, join(dir, "rows.csv"))));
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
    imported = size;
    const rate = run ? Math.round(count / run.seconds) : undefined;
    if (run) console.log(`${run.summary}\nimport: ${run.seconds.toFixed(0)} s, ${rate} page views/s`);
    // What the service's daily pass does next (domain/retention.ts): the closed months' page views
    // packed per session and day. Timed apart from the import; waits for a pass of the service.
    const t0 = performance.now();
    const packed = await compactClosedMonths(pool, new Partitions(pool), { now: () => now }, { wait: true });
    const packSeconds = (performance.now() - t0) / 1000;
    console.log(
      `daily pass packing: ${packSeconds.toFixed(1)} s, ${packed.views} page views of ${packed.months.length} months`,
    );
    await pool.query("VACUUM ANALYZE tracking.page_views, tracking.visitors, tracking.page_view_days");
    console.log(`writes settled before the reads: ${(await settle(pool)).toFixed(1)} s`);
    const disk = await bytesPerView(pool);
    const step = {
      size,
      rate,
      copyRate,
      packSeconds,
      bytes: disk.bytes,
      perView: disk.bytes / disk.views,
      queries: {},
    };
    let readsDone;
    const conversions = conversionsDuring(pool, new Promise((r) => (readsDone = r)));
    for (const q of QUERIES) {
      const api = await timeApi(q);
      // The design before had no filters: its scans are timed for the unfiltered periods only.
      const raw = copyRate && !q.filter ? await timeRaw(pool, q) : undefined;
      step.queries[q.name] = api;
      rows.push(
        `| ${size.toLocaleString("en")} | ${q.name} | ${fmt(api.p50)} | ${fmt(api.p99)} | ${
          raw
            ? raw.timeout
              ? `timeout (> ${RAW_TIMEOUT_MS / 1000} s)`
              : `${fmt(raw.p50)} / ${fmt(raw.p99)}`
            : "not run"
        } |`,
      );
      console.log(
        `${size}: ${q.name} p50 ${fmt(api.p50)} ms p99 ${fmt(api.p99)} ms; raw scan ${raw ? JSON.stringify(raw) : "-"}`,
      );
    }
    readsDone();
    step.attribution = await conversions;
    const a = step.attribution;
    attributionRows.push(
      `| ${size.toLocaleString("en")} | ${a.count} | ${fmt(a.p50)} | ${fmt(a.p99)} | ${fmt(a.max)} | ${a.timeouts} |`,
    );
    console.log(`${size}: attribution of ${a.count} quote requests during the reads: ${JSON.stringify(a)}`);
    steps.push(step);
  }

  // The retention pass at the largest size: the daily pass (one day past the cutoff) and the pass
  // that crosses a month boundary (one whole month dropped as a partition).
  const partitions = new Partitions(pool);
  const clock = (ms) => ({ now: () => ms });
  const t1 = performance.now();
  const daily = await runRetention(pool, partitions, clock(now + DAY), RETENTION_MONTHS);
  const dailyMs = performance.now() - t1;
  const nextMonth = new Date(`${daily.keepFrom}T12:00:00Z`);
  nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1, 1);
  const monthNow = now + (nextMonth.getTime() - Date.parse(`${daily.keepFrom}T12:00:00Z`));
  const t2 = performance.now();
  const monthly = await runRetention(pool, partitions, clock(monthNow), RETENTION_MONTHS);
  const monthlyMs = performance.now() - t2;
  console.log(`retention, daily pass: ${Math.round(dailyMs)} ms ${JSON.stringify(daily)}`);
  console.log(`retention, month pass: ${Math.round(monthlyMs)} ms ${JSON.stringify(monthly)}`);

  const first = steps[0];
  const last = steps.at(-1);
  const verdicts = [];
  for (const q of QUERIES) {
    const p99 = last.queries[q.name].p99;
    verdicts.push(
      verdict(
        p99 <= TARGET.p99Ms,
        `${q.name}: p99 ${fmt(p99)} ms at ${last.size.toLocaleString("en")} page views (target ≤ ${TARGET.p99Ms} ms)`,
      ),
    );
    const ratio = p99 / first.queries[q.name].p99;
    verdicts.push(
      verdict(
        ratio <= TARGET.flat || p99 <= 10,
        `${q.name}: p99 at ${last.size.toLocaleString("en")} is ${ratio.toFixed(2)}x its figure at ${first.size.toLocaleString("en")} (target ≤ ${TARGET.flat}x, or ≤ 10 ms)`,
      ),
    );
  }
  verdicts.push(
    verdict(
      dailyMs <= TARGET.retentionMs,
      `retention daily pass ${Math.round(dailyMs)} ms at ${last.size.toLocaleString("en")} (target ≤ ${TARGET.retentionMs} ms)`,
    ),
  );
  verdicts.push(
    verdict(
      monthlyMs <= TARGET.retentionMs,
      `retention month pass ${Math.round(monthlyMs)} ms (target ≤ ${TARGET.retentionMs} ms)`,
    ),
  );
  verdicts.push(
    verdict(
      last.attribution.timeouts === 0 && last.attribution.p99 <= TARGET.attributionP99Ms,
      `attribution of a lead during the reads: p99 ${fmt(last.attribution.p99)} ms at ${last.size.toLocaleString("en")} page views, ${last.attribution.timeouts} not within ${ATTRIBUTION_TIMEOUT_MS / 1000} s (target ≤ ${TARGET.attributionP99Ms} ms)`,
    ),
  );
  const failedJobs = await failedTrackingJobs();
  verdicts.push(
    verdict(failedJobs === 0, `${failedJobs} jobs of the tracking queue in the failed set (target 0)`),
  );
  const rates = steps.filter((s) => s.rate !== undefined).map((s) => s.rate);
  const slowest = rates.length > 0 ? Math.min(...rates) : undefined;
  if (slowest !== undefined)
    verdicts.push(
      verdict(
        slowest >= TARGET.importPerSec,
        `import ${slowest} page views/s at the slowest step (target ≥ ${TARGET.importPerSec})`,
      ),
    );
  // The COPY baseline runs up to BASELINE_UP_TO (the old table it fills is what the raw scans
  // read); the import at each step is set against the COPY rate of the largest step that had one.
  const copied = steps.filter((s) => s.copyRate).at(-1);
  for (const s of steps.filter((x) => x.rate !== undefined && copied))
    verdicts.push(
      verdict(
        s.rate >= TARGET.importOfCopy * copied.copyRate,
        `import ${(s.rate / copied.copyRate).toFixed(2)} × the COPY baseline at ${s.size.toLocaleString("en")} (COPY of the ${copied.size.toLocaleString("en")} step, ${copied.copyRate.toLocaleString("en")} rows/s; target ≥ ${TARGET.importOfCopy})`,
      ),
    );
  verdicts.push(
    verdict(
      last.perView <= TARGET.bytesPerView,
      `${last.perView.toFixed(0)} bytes on disk per page view at ${last.size.toLocaleString("en")} (target ≤ ${TARGET.bytesPerView})`,
    ),
  );

  const table = [
    "| page views | period | p50 ms | p99 ms | before: scan of page_views, p50 / p99 ms (3 runs) |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    "Quote requests from a paid campaign's visits, one a second while the reads above ran: time from the request to the lead's attribution stored (the conversion job waits 2 s before its first attempt, for the visit's last page views to leave the visit stream).",
    "",
    "| page views | quote requests | attribution p50 ms | p99 ms | max ms | not within 60 s |",
    "| --- | --- | --- | --- | --- | --- |",
    ...attributionRows,
    "",
    "| page views | import rate (page views/s) | baseline: COPY into the old table (rows/s) | import / COPY | daily pass packing the closed months (s) | bytes on disk | bytes per page view |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...steps.map(
      (s) =>
        `| ${s.size.toLocaleString("en")} | ${s.rate?.toLocaleString("en") ?? "imported before"} | ${s.copyRate ? s.copyRate.toLocaleString("en") : "not run"} | ${s.rate && s.copyRate ? (s.rate / s.copyRate).toFixed(2) : "-"} | ${s.packSeconds.toFixed(1)} | ${(s.bytes / 2 ** 20).toFixed(0)} MB | ${s.perView.toFixed(0)} |`,
    ),
    "",
    `Retention at ${last.size.toLocaleString("en")}: daily pass ${Math.round(dailyMs)} ms (trimmed ${daily.trimmedPageViews} page views of the cutoff's month), month pass ${Math.round(monthlyMs)} ms (dropped ${monthly.droppedMonths.join(", ") || "nothing"}).`,
    "",
    ...verdicts.map((v) => `- ${v}`),
  ].join("\n");
  console.log(`\n${table}`);
  mkdirSync(".tmp/bench", { recursive: true });
  writeFileSync(".tmp/bench/analytics-history.md", `${table}\n`);
} finally {
  await pool.query("DROP SCHEMA IF EXISTS rawscan CASCADE").catch(() => undefined);
  await pool.end();
}
process.exit(failed ? 1 : 0);
