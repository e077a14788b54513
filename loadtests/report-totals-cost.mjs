#!/usr/bin/env node
// What the campaign report's running totals (migration 0009: triggers on tracking.daily_dims and
// tracking.ad_spend) cost the visit writer (issue 35.3). A change of a channel or campaign row of
// day d adds its difference to every running row from d to the month's last day, so a batch of
// visits on the 1st of a month writes up to 31 rows per changed row, on its last day one.
//
// The real batch writer (insertBatch, as the tracking service's stream consumer calls it) writes
// batches of 500 visits of an ad burst (new visitors landing from 50 campaigns of two platforms)
// into a fresh database of its own, on the 1st, the 16th and the last day of a month. Baseline from
// the same run: the same batches with the two triggers disabled, alternated batch by batch with the
// enabled ones so both see the same machine. Prints ms per batch (p50/p99), the running rows each
// batch wrote, and the ratio to the baseline.
//   node loadtests/report-totals-cost.mjs          (ROUNDS=40 batches per day and mode)
// Needs only PostgreSQL (ADMIN_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { tsImport } from "tsx/esm/api";

const { insertBatch, writerDeps } = await tsImport(
  "../services/tracking/src/repositories/page-views.ts",
  import.meta.url,
);
const { runMigrations } = await tsImport("../libs/platform/src/pg.ts", import.meta.url);

const ADMIN_URL = process.env.ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ROUNDS = Number(process.env.ROUNDS ?? 40);
const BATCH = 500;
const CAMPAIGNS = 50;
const TRIGGERS = [
  ["daily_dims", "daily_dims_report_running"],
  ["ad_spend", "ad_spend_running"],
];
// A month that has passed (its partition exists like any other), at three places in it.
const now = new Date();
const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const lastDay = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0)).getUTCDate();
const DAYS = [1, 16, lastDay].map((d) => ({
  day: d,
  forward: lastDay - d + 1,
  at: (i) => new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), d, 10, 0, 0, i)),
}));

const name = `report_totals_cost_${randomBytes(3).toString("hex")}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const pool = new pg.Pool({ connectionString: ADMIN_URL.replace(/\/[^/]*$/, `/${name}`), max: 4 });
pool.on("error", () => undefined);

let visitor = 0;
/** 500 new visitors landing from the burst's campaigns: one page view each. */
const burst = (at) =>
  Array.from({ length: BATCH }, (_, i) => {
    const v = visitor++;
    const c = v % CAMPAIGNS;
    const source = c % 2 ? "facebook" : "google";
    const medium = c % 2 ? "paid_social" : "cpc";
    return {
      eventId: `cost-${name}-${v}`,
      sessionId: `session-cost${v}-${1700000000000 + v}`,
      isView: true,
      page: `/financiele-lease?utm_source=${source}&utm_medium=${medium}&utm_campaign=burst-${c}`,
      referrer: null,
      userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36",
      country: "NL",
      city: null,
      at: at(i),
    };
  });

const setTriggers = (on) =>
  Promise.all(
    TRIGGERS.map(([table, trigger]) =>
      pool.query(`ALTER TABLE tracking.${table} ${on ? "ENABLE" : "DISABLE"} TRIGGER ${trigger}`),
    ),
  );
const runningRows = async () =>
  Number(
    (
      await pool.query(
        "SELECT n_tup_ins + n_tup_upd AS n FROM pg_stat_user_tables WHERE relname = 'report_running_dims'",
      )
    ).rows[0]?.n ?? 0,
  );
const stats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99) };
};
const f = (ms) => ms.toFixed(1);

const lines = [];
try {
  await runMigrations(pool, "tracking", new URL("../services/tracking/migrations", import.meta.url));
  const deps = writerDeps(pool);
  // Warm-up: the dictionaries (pages, profiles, campaign values) and the month's partition.
  for (const d of DAYS) await insertBatch(deps, burst(d.at));
  await pool.query("VACUUM ANALYZE");
  lines.push(
    `| day of the month | running rows per changed row | batch ms p50 / p99, triggers on | baseline: triggers off | × baseline (p50) | running rows written per batch |`,
    "| --- | --- | --- | --- | --- | --- |",
  );
  for (const d of DAYS) {
    const on = [];
    const off = [];
    let written = 0;
    for (let i = 0; i < ROUNDS * 2; i++) {
      const enabled = i % 2 === 0;
      await setTriggers(enabled);
      const events = burst(d.at);
      const before = enabled ? await runningRows() : 0;
      const t = performance.now();
      await insertBatch(deps, events);
      (enabled ? on : off).push(performance.now() - t);
      if (enabled) {
        // The statistics collector reports a backend's counts when its transaction ends (and at
        // most once a second): wait for them.
        await pool.query("SELECT pg_stat_force_next_flush()").catch(() => undefined);
        await new Promise((r) => setTimeout(r, 50));
        await pool.query("SELECT pg_stat_clear_snapshot()");
        written += (await runningRows()) - before;
      }
    }
    const a = stats(on);
    const b = stats(off);
    const line = `| ${d.day} | ${d.forward} | ${f(a.p50)} / ${f(a.p99)} | ${f(b.p50)} / ${f(b.p99)} | ${(a.p50 / b.p50).toFixed(2)} | ${Math.round(written / ROUNDS)} |`;
    console.log(line);
    lines.push(line);
  }
  const load = (await import("node:os")).loadavg().map((x) => x.toFixed(1));
  lines.push(
    "",
    `${ROUNDS} batches of ${BATCH} visits per day and mode; load average at the end ${load.join(" / ")}.`,
  );
  mkdirSync(".tmp/bench", { recursive: true });
  writeFileSync(".tmp/bench/report-totals-cost.md", `${lines.join("\n")}\n`);
  console.log(`\n${lines.join("\n")}\nwrote .tmp/bench/report-totals-cost.md`);
} finally {
  await pool.end();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
