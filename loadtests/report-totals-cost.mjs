#!/usr/bin/env node
// What the campaign report's running totals cost the visit writer. A change of a
// channel or campaign row of day d adds its difference to every running row from d to the month's
// last day: up to 31 rows per changed row on the 1st of a month, one on its last day. Migration 0009
// did that in the writer's transaction (a trigger on tracking.daily_dims); migration 0010's trigger
// records the change once (report_running_pending) and compaction spreads it, off the writer's path.
//
// The real batch writer (insertBatch, as the tracking service's stream consumer calls it) writes
// batches of 500 visits of an ad burst (new visitors landing from 50 campaigns of two platforms)
// into a fresh database of its own, on the 1st, the 16th and the last day of a month, in three modes
// alternated batch by batch so all see the same machine: no trigger (the baseline), 0009's
// trigger (recreated here beside the current one), and the current trigger followed by a
// compaction (timed on its own: the service runs it every 2 s, not in the writer's batch).
//   node loadtests/report-totals-cost.mjs          (ROUNDS=40 batches per day and mode)
// Needs only PostgreSQL (ADMIN_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
const { compactRunningTotals } = await tsImport(
  "../services/tracking/src/repositories/running-totals.ts",
  import.meta.url,
);
const CURRENT = "daily_dims_report_running";
const BEFORE = "daily_dims_report_running_0009";
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

/** Which trigger of daily_dims is on: none, 0009's or the current one. */
const setMode = async (mode) => {
  await pool.query(
    `ALTER TABLE tracking.daily_dims ${mode === "current" ? "ENABLE" : "DISABLE"} TRIGGER ${CURRENT}`,
  );
  await pool.query(
    `ALTER TABLE tracking.daily_dims ${mode === "0009" ? "ENABLE" : "DISABLE"} TRIGGER ${BEFORE}`,
  );
};
/** Migration 0009's trigger function as it was, under its own name (from the migration's own text). */
const before0009 = () => {
  const sql = readFileSync(
    new URL("../services/tracking/migrations/0009_report_running_totals.sql", import.meta.url),
    "utf8",
  );
  const fn = sql
    .split("--> statement-breakpoint")
    .find((part) => part.includes('FUNCTION "tracking"."report_running_dims_follow"'));
  return fn.replace('"report_running_dims_follow"()', '"report_running_dims_follow_0009"()');
};
const rowsOf = async (table) =>
  Number(
    (
      await pool.query("SELECT n_tup_ins + n_tup_upd AS n FROM pg_stat_user_tables WHERE relname = $1", [
        table,
      ])
    ).rows[0]?.n ?? 0,
  );
/** Rows a table took since `before`, once the statistics of the ended transactions are in. */
const settled = async () => {
  await pool.query("SELECT pg_stat_force_next_flush()");
  await new Promise((r) => setTimeout(r, 50));
  await pool.query("SELECT pg_stat_clear_snapshot()");
};
const stats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99) };
};
const f = (ms) => ms.toFixed(1);

const lines = [];
try {
  await runMigrations(pool, "tracking", new URL("../services/tracking/migrations", import.meta.url));
  await pool.query(before0009());
  await pool.query(
    `CREATE TRIGGER ${BEFORE} AFTER INSERT OR UPDATE OR DELETE ON tracking.daily_dims
       FOR EACH ROW EXECUTE FUNCTION tracking.report_running_dims_follow_0009()`,
  );
  const deps = writerDeps(pool);
  // Warm-up: the dictionaries (pages, profiles, campaign values) and the month's partition.
  await setMode("current");
  for (const d of DAYS) await insertBatch(deps, burst(d.at));
  await compactRunningTotals(pool);
  await pool.query("VACUUM ANALYZE");
  lines.push(
    "| day of the month | running rows per change | writer's batch ms p50 / p99: no trigger (baseline) | 0009: running rows in the batch | × baseline | 0010: one pending row per change | × baseline | 0010's compaction, ms per batch p50 / p99 | rows written per batch: 0009 / 0010 pending + compaction |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const d of DAYS) {
    const ms = { off: [], "0009": [], current: [] };
    const compaction = [];
    const written = { "0009": 0, pending: 0, compacted: 0 };
    for (let i = 0; i < ROUNDS * 3; i++) {
      const mode = ["off", "0009", "current"][i % 3];
      await setMode(mode);
      const events = burst(d.at);
      await settled();
      const running = await rowsOf("report_running_dims");
      const pending = await rowsOf("report_running_pending");
      const t = performance.now();
      await insertBatch(deps, events);
      ms[mode].push(performance.now() - t);
      if (mode === "current") {
        const c = performance.now();
        await compactRunningTotals(pool);
        compaction.push(performance.now() - c);
      }
      await settled();
      if (mode === "0009") written["0009"] += (await rowsOf("report_running_dims")) - running;
      if (mode === "current") {
        written.pending += (await rowsOf("report_running_pending")) - pending;
        written.compacted += (await rowsOf("report_running_dims")) - running;
      }
    }
    const [off, sync, deferred, comp] = [ms.off, ms["0009"], ms.current, compaction].map(stats);
    const line = `| ${d.day} | ${d.forward} | ${f(off.p50)} / ${f(off.p99)} | ${f(sync.p50)} / ${f(sync.p99)} | ${(sync.p50 / off.p50).toFixed(2)} | ${f(deferred.p50)} / ${f(deferred.p99)} | ${(deferred.p50 / off.p50).toFixed(2)} | ${f(comp.p50)} / ${f(comp.p99)} | ${Math.round(written["0009"] / ROUNDS)} / ${Math.round(written.pending / ROUNDS)} + ${Math.round(written.compacted / ROUNDS)} |`;
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
