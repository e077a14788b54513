#!/usr/bin/env node
// The campaign report at scale: p99 of GET /api/admin/campaign-report's read for 30
// days, 12 months and two years, on a copy of a 10 M page-view history (bench_history_10m, made by
// loadtests/analytics-history.mjs) with 1,000 campaigns, 100,000 leads with their stages and two
// years of daily spend added. Beside it, the same two-year report read from the day rows alone
// (what it would cost without the month rollups) and the whole report read by the reader before the
// running totals (whole months plus every loose day's rows, BASELINE_COMMIT), from the same run.
//   node loadtests/campaign-report.mjs        (TEMPLATE_DB=bench_history_10m, REPEAT=300, WARMUP=5)
// The report is read in-process through the service's own reader (campaignReportReader): the
// database's and the reader's figures, beside the reader before. Then the same periods through the
// API, as the panel asks: the built stack started on the copy, GET /api/admin/campaign-report via
// the gateway (HTTP=0 leaves it out). The copy is dropped at the end.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { tsImport } from "tsx/esm/api";
import { rebuildSpendTotals } from "./spend-totals.mjs";

const { campaignReportReader } = await tsImport(
  "../services/tracking/src/repositories/campaign-report.ts",
  import.meta.url,
);
// Baseline from the same run: the reader as it was before the running totals (every loose day's
// rows), taken from git beside the current one (so its imports resolve) and removed again.
const BEFORE = process.env.BASELINE_COMMIT ?? "9406971";
const beforePath = new URL(
  "../services/tracking/src/repositories/campaign-report.baseline.ts",
  import.meta.url,
);
writeFileSync(
  beforePath,
  execFileSync("git", ["show", `${BEFORE}:services/tracking/src/repositories/campaign-report.ts`], {
    encoding: "utf8",
  }),
);
const { campaignReportReader: readerBefore } = await tsImport(beforePath.href, import.meta.url).finally(() =>
  rmSync(beforePath),
);
const { runMigrations } = await tsImport("../libs/platform/src/pg.ts", import.meta.url);

const ADMIN_URL = process.env.ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const TEMPLATE = process.env.TEMPLATE_DB ?? "bench_history_10m";
// 300 calls per period: a p99 of 60 calls is their slowest one.
const REPEAT = Number(process.env.REPEAT ?? 300);
const WARMUP = Number(process.env.WARMUP ?? 5);
const coldCalls = [];
const CAMPAIGNS = 1_000;
const LEADS = 100_000;
const DAYS = 730;
const TARGET_P99_MS = 100;
const copy = `campaign_bench_${process.pid}`;

const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${copy} TEMPLATE ${TEMPLATE}`);
const url = ADMIN_URL.replace(/\/[^/]*$/, `/${copy}`);
const pool = new pg.Pool({ connectionString: url, max: 4 });
// The copy is dropped WITH (FORCE) at the end: idle connections it ends are no error here.
pool.on("error", () => undefined);

const ymd = (ms) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(new Date(ms));
const today = ymd(Date.now());
const addDays = (day, n) => ymd(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000);

try {
  // The template may predate the stage and spend tables: bring it to this code's schema.
  await runMigrations(pool, "tracking", new URL("../services/tracking/migrations", import.meta.url));
  const started = performance.now();
  const first = addDays(today, -DAYS + 1);
  // 1,000 campaigns of four platforms' sources; every campaign has visits every day of two years,
  // 100,000 quote requests in all, about a third with an offer, a tenth signed, and daily spend.
  await pool.query(
    `INSERT INTO tracking.dim_values (dim, value)
     SELECT 3, format('["%s","paid_social","bench-%s"]', (ARRAY['facebook','tiktok','snapchat','google'])[1 + i % 4], i)
       FROM generate_series(1, $1) i
     ON CONFLICT (dim, value) DO NOTHING`,
    [CAMPAIGNS],
  );
  // The running totals' triggers are built for one change at a time: the bulk insert goes without
  // them, and the totals of its rows are then built at once, as migration 0009 does for old rows.
  await pool.query("ALTER TABLE tracking.daily_dims DISABLE TRIGGER daily_dims_report_running");
  await pool.query("ALTER TABLE tracking.ad_spend DISABLE TRIGGER USER");
  const p = LEADS / (CAMPAIGNS * DAYS);
  await pool.query(
    `INSERT INTO tracking.daily_dims AS t (day, dim, value_id, visitors, views, quotes, contacts, offers, contracts, commission_cents)
     SELECT day, 3, id, 5 + (random() * 20)::int, 10 + (random() * 40)::int, q, 0,
            (q > 0 AND random() < 0.35)::int, s, s * (50000 + (random() * 150000)::int)
       -- Drawn in the select lists, row by row (a volatile select list keeps the subqueries apart):
       -- an uncorrelated LATERAL draw was made once per campaign, so a campaign had a lead every
       -- day or never.
       FROM (SELECT day, id, q, (q > 0 AND random() < 0.1)::int AS s
               FROM (SELECT d::date AS day, v.id, (random() < $3)::int AS q
                       FROM tracking.dim_values v, generate_series($1::date, $2::date, interval '1 day') d
                      WHERE v.dim = 3 AND v.value LIKE '%"bench-%') a) b
     ON CONFLICT (day, dim, value_id) DO NOTHING`,
    [first, today, p],
  );
  await pool.query(
    `INSERT INTO tracking.monthly_dims AS t (month, dim, value_id, visits, views, quotes, contacts, offers, contracts, commission_cents)
     SELECT date_trunc('month', d.day)::date, d.dim, d.value_id, sum(d.visitors), sum(d.views), sum(d.quotes), 0,
            sum(d.offers), sum(d.contracts), sum(d.commission_cents)
       FROM tracking.daily_dims d JOIN tracking.dim_values v ON v.id = d.value_id AND v.dim = 3
      WHERE v.value LIKE '%"bench-%'
      GROUP BY 1, 2, 3
     ON CONFLICT (month, dim, value_id) DO NOTHING`,
  );
  await pool.query(
    `INSERT INTO tracking.ad_spend (platform, day, campaign, spend_cents)
     SELECT (ARRAY['meta','tiktok','snapchat','google'])[1 + i % 4], d::date, 'bench-' || i, 1000 + (random() * 20000)::int
       FROM generate_series(1, $1) i, generate_series($2::date, $3::date, interval '1 day') d
     ON CONFLICT DO NOTHING`,
    [CAMPAIGNS, first, today],
  );
  await pool.query(
    `INSERT INTO tracking.report_running_dims
       (day, dim, value_id, visitors, quotes, contacts, offers, contracts, commission_cents)
     SELECT g.day, f.dim, f.value_id,
            sum(coalesce(d.visitors, 0)) OVER w, sum(coalesce(d.quotes, 0)) OVER w, sum(coalesce(d.contacts, 0)) OVER w,
            sum(coalesce(d.offers, 0)) OVER w, sum(coalesce(d.contracts, 0)) OVER w, sum(coalesce(d.commission_cents, 0)) OVER w
       FROM (SELECT d.dim, d.value_id, date_trunc('month', d.day)::date AS month, min(d.day) AS first
               FROM tracking.daily_dims d JOIN tracking.dim_values v ON v.id = d.value_id AND v.dim = 3
              WHERE v.value LIKE '%"bench-%' GROUP BY 1, 2, 3) f
       CROSS JOIN LATERAL (SELECT g::date AS day FROM generate_series(f.first, f.month + interval '1 month - 1 day', interval '1 day') g) g
       LEFT JOIN tracking.daily_dims d ON d.day = g.day AND d.dim = f.dim AND d.value_id = f.value_id
     WINDOW w AS (PARTITION BY f.dim, f.value_id, f.month ORDER BY g.day)
     ON CONFLICT DO NOTHING`,
  );
  await pool.query("ALTER TABLE tracking.daily_dims ENABLE TRIGGER daily_dims_report_running");
  await pool.query("ALTER TABLE tracking.ad_spend ENABLE TRIGGER USER");
  await rebuildSpendTotals(pool);
  await pool.query(
    "VACUUM ANALYZE tracking.report_running_dims, tracking.ad_spend_running, tracking.daily_dims, tracking.monthly_dims, tracking.ad_spend, tracking.ad_spend_monthly, tracking.dim_values",
  );
  const facts = (
    await pool.query(
      `SELECT (SELECT count(*) FROM tracking.page_views) AS page_views,
              (SELECT count(*) FROM tracking.dim_values WHERE dim = 3) AS campaigns,
              (SELECT sum(quotes) FROM tracking.daily_dims WHERE dim = 3) AS leads,
              (SELECT count(*) FROM tracking.ad_spend) AS spend_days`,
    )
  ).rows[0];
  console.log(
    `data: ${JSON.stringify(facts)} (generated in ${Math.round((performance.now() - started) / 1000)} s)`,
  );

  const reader = campaignReportReader(pool);
  const stats = (ms) => {
    ms.sort((a, b) => a - b);
    const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
    return { p50: at(0.5), p99: at(0.99) };
  };
  const time = async (fn) => {
    const ms = [];
    for (let i = 0; i < Math.min(REPEAT, 60); i++) {
      const t = performance.now();
      await fn();
      ms.push(performance.now() - t);
    }
    return stats(ms);
  };
  const timeBoth = async (fa, fb) => {
    const a = [];
    const b = [];
    // Not counted: the first calls of a period (a cold reader and cold pages in a fresh copy; a
    // running service has read them before). Their times are printed beside the table.
    const cold = [];
    for (let i = 0; i < WARMUP; i++) {
      const t = performance.now();
      await fa();
      cold.push(performance.now() - t);
      await fb();
    }
    coldCalls.push(cold.map((ms) => ms.toFixed(1)).join(", "));
    for (let i = 0; i < REPEAT; i++) {
      for (const [fn, ms] of i % 2
        ? [
            [fb, b],
            [fa, a],
          ]
        : [
            [fa, a],
            [fb, b],
          ]) {
        const t = performance.now();
        await fn();
        ms.push(performance.now() - t);
      }
    }
    return [a, b].map(stats);
  };
  // Without month rollups: the same figures summed from every day of the period.
  const daysOnly = (from, to) =>
    Promise.all([
      pool.query(
        `SELECT x.dim, v.value, sum(visitors), sum(quotes), sum(contacts), sum(offers), sum(contracts), sum(commission_cents)
           FROM tracking.daily_dims x JOIN tracking.dim_values v ON v.id = x.value_id
          WHERE x.day BETWEEN $1 AND $2 AND x.dim IN (1, 3) GROUP BY x.dim, v.value`,
        [from, to],
      ),
      pool.query(
        `SELECT platform, campaign, sum(spend_cents) FROM tracking.ad_spend WHERE day BETWEEN $1 AND $2 GROUP BY 1, 2`,
        [from, to],
      ),
    ]);
  const periods = [
    ["30 days", addDays(today, -29)],
    ["12 months", addDays(today, -364)],
    ["2 years", first],
  ];
  // The report and its baseline alternate, call by call, so both see the same load.
  const rows = [];
  const before = [];
  const baseline = readerBefore(pool);
  for (const [name, from] of periods) {
    const period = { from, to: today };
    const [r, b] = await timeBoth(
      () => reader.report(period),
      () => baseline.report(period),
    );
    rows.push({ name, ...r, ok: r.p99 <= TARGET_P99_MS });
    before.push({ name, ...b });
  }
  const base = await time(() => daysOnly(first, today));
  console.log(`\n| period | p50 ms | p99 ms | target p99 ≤ ${TARGET_P99_MS} ms |\n| --- | --- | --- | --- |`);
  for (const r of rows)
    console.log(
      `| ${r.name} (report, previous period included) | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.ok ? "met" : "FAIL"} |`,
    );
  for (const r of before)
    console.log(
      `| baseline: ${r.name}, reader of ${BEFORE} (every loose day's rows) | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | - |`,
    );
  console.log(
    `| baseline: 2 years from day rows only, one period | ${base.p50.toFixed(1)} | ${base.p99.toFixed(1)} | - |`,
  );
  console.log(
    `\n${REPEAT} calls per period after ${WARMUP} not counted; those first calls (ms): ${periods
      .map(([name], i) => `${name}: ${coldCalls[i]}`)
      .join("; ")}`,
  );
  // The same reports as staff ask for them: GET /api/admin/campaign-report through the gateway of
  // the built stack running on the copy (HTTP=0 leaves this out), with a signed-in admin's cookie.
  const overHttp =
    process.env.HTTP === "0"
      ? []
      : await throughTheApi(
          url,
          periods.map(([name, from]) => [name, { from, to: today }]),
        );
  if (overHttp.length > 0) {
    console.log(
      `\n| period, over HTTP | p50 ms | p99 ms | target p99 ≤ ${TARGET_P99_MS} ms |\n| --- | --- | --- | --- |`,
    );
    for (const r of overHttp)
      console.log(
        `| ${r.name}: GET /api/admin/campaign-report via the gateway | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.ok ? "met" : "FAIL"} |`,
      );
    for (const r of overHttp)
      console.log(
        `| baseline: ${r.name}, the tracking service asked directly | ${r.direct.p50.toFixed(1)} | ${r.direct.p99.toFixed(1)} | - |`,
      );
  }
  process.exitCode = [...rows, ...overHttp].every((r) => r.ok) ? 0 : 1;
} finally {
  await pool.end();
  if (process.env.KEEP) console.log(`kept ${copy}`);
  else await admin.query(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
  await admin.end();
}

/** p50/p99 of GET /api/admin/campaign-report via the gateway of a stack started on the database. */
async function throughTheApi(databaseUrl, periods) {
  const { startBenchStack } = await import("./bench-admin.mjs");
  const { stack, token, stop } = await startBenchStack(databaseUrl);
  try {
    // Timed to the answer's last byte, as an HTTP load generator does; the check of its JSON
    // (and the client's parse of half a megabyte) comes after the clock stops.
    // Beside it, the tracking service asked directly (no gateway hop), call by call in turn.
    const tracking = stack.processes.find((p) => p.name === "tracking");
    const direct = `http://127.0.0.1:${tracking.port}`;
    const get = async (period, base = stack.url) => {
      const t = performance.now();
      const res = await fetch(`${base}/api/admin/campaign-report?from=${period.from}&to=${period.to}`, {
        headers: { cookie: `admin_session=${token}` },
      });
      const text = await res.text();
      const ms = performance.now() - t;
      const body = JSON.parse(text);
      if (res.status !== 200 || !Array.isArray(body.rows)) throw new Error(`report answered ${res.status}`);
      return { ms, rows: body.rows.length, bytes: text.length };
    };
    const out = [];
    const stats = (ms) => {
      ms.sort((a, b) => a - b);
      const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
      return { p50: at(0.5), p99: at(0.99) };
    };
    for (const [name, period] of periods) {
      for (let i = 0; i < WARMUP; i++) await Promise.all([get(period), get(period, direct)]);
      const viaGateway = [];
      const atService = [];
      let last;
      for (let i = 0; i < REPEAT; i++) {
        last = await get(period);
        viaGateway.push(last.ms);
        atService.push((await get(period, direct)).ms);
      }
      console.log(
        `${name} over HTTP: ${last.rows} campaign rows, ${Math.round(last.bytes / 1024)} KiB per answer`,
      );
      const g = stats(viaGateway);
      out.push({ name, ...g, ok: g.p99 <= TARGET_P99_MS, direct: stats(atService) });
    }
    return out;
  } finally {
    await stop();
  }
}
