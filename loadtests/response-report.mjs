#!/usr/bin/env node
// The response report at scale: p50/p99 of GET /api/admin/response-report through the
// gateway over two years holding 100,000 quote requests (5 owners, 8 channels, 40 campaigns, nine in
// ten answered), for two years, 12 months and 30 days, read from the packed weeks; then the first
// report after the fill (every week stale: packed from the leads) and reports that each follow a
// change of one lead (its week packed again). Beside it, from the same run and the same data: the
// lead list (GET /api/admin/lease-requests, its first page) through the gateway, and the naive path
// of the same report: the period's leads read from their rows and the working minutes walked
// through the calendar per lead (services/leads/src/domain/working-hours.ts), percentiles in
// JavaScript, which is also checked to give the API's figures. Then the plans, EXPLAIN (ANALYZE,
// BUFFERS), of the packed weeks' read and of packing one stale week, and the load average.
//   registered in loadtests/run-all.mjs (npm run bench -- response), or against `npm start`:
//   LEAD_RETENTION_DAYS=800 npm start   then   ADMIN_COOKIE=admin_session=… node --import tsx loadtests/response-report.mjs
// (the retention pass would remove the leads older than a year). BASE_URL, DATABASE_URL, REPEAT
// (300), WARMUP (5), NAIVE_REPEAT (5), CHANGED_REPEAT (40), LEADS (100000) override the defaults.
// The run's leads and owners are removed at the end.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { tsImport } from "tsx/esm/api";
import { BASE_URL, requiredAdminCookie, settings, verdict } from "./tracking-common.mjs";

const { workingCalendar } = await tsImport("../services/leads/src/domain/working-hours.ts", import.meta.url);
const { DEFAULT_RESPONSE_SETTINGS } = await tsImport("../libs/contracts/src/index.ts", import.meta.url);
const { LEADS_OF_WEEKS_SQL, REPORT_READS_SQL } = await tsImport(
  "../services/leads/src/repositories/response-report.ts",
  import.meta.url,
);
const { openLeadsQuery } = await tsImport(
  "../services/leads/src/repositories/weekly-summary.ts",
  import.meta.url,
);
const { PgDialect } = await import("drizzle-orm/pg-core");

const cookie = requiredAdminCookie();
const LEADS = Number(process.env.LEADS ?? 100_000);
const REPEAT = Number(process.env.REPEAT ?? 300);
const WARMUP = Number(process.env.WARMUP ?? 5);
const NAIVE_REPEAT = Number(process.env.NAIVE_REPEAT ?? 5);
const CHANGED_REPEAT = Number(process.env.CHANGED_REPEAT ?? 40);
const DAYS = 730;
const TARGET_P99_MS = 100;
const CHANNELS = [
  "Paid Search",
  "Organic Search",
  "Paid Social",
  "Direct",
  "Referral",
  "Email",
  "Organic Social",
  "Other",
];
const run = randomUUID().slice(0, 8);
const domain = `rr-${run}.example.invalid`;
const { databaseUrl } = settings();
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? databaseUrl, max: 2 });
const calendar = workingCalendar(
  DEFAULT_RESPONSE_SETTINGS.workingHours,
  DEFAULT_RESPONSE_SETTINGS.closedDays,
);

const ymd = (ms) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(new Date(ms));
const today = ymd(Date.now());
const dayBefore = (n) => ymd(Date.now() - n * 86_400_000);
const PERIODS = [
  { name: "2 years", from: dayBefore(DAYS), to: today },
  { name: "12 months", from: dayBefore(365), to: today },
  { name: "30 days", from: dayBefore(29), to: today },
];

/** A deterministic pseudo-random stream (the same data every run). */
let seed = 43;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

const owners = Array.from({ length: 5 }, (_, i) => ({ id: randomUUID(), username: `rr-${run}-${i + 1}` }));

async function fill() {
  await pool.query(
    `INSERT INTO leads.staff (admin_id, username, active, takes_new_leads, revision)
     SELECT id, username, true, false, 1 FROM unnest($1::uuid[], $2::text[]) AS o(id, username)`,
    [owners.map((o) => o.id), owners.map((o) => o.username)],
  );
  const start = Date.now() - DAYS * 86_400_000;
  const batch = 5_000;
  for (let done = 0; done < LEADS; done += batch) {
    const rows = { at: [], due: [], answered: [], working: [], owner: [], attribution: [], email: [] };
    for (let i = done; i < Math.min(LEADS, done + batch); i++) {
      const at = new Date(start + (i / LEADS) * DAYS * 86_400_000 + random() * 3_600_000);
      // Nine in ten answered: most within hours, some after days (a long tail for the p90).
      const answered =
        random() < 0.9 ? new Date(at.getTime() + Math.round(random() ** 3 * 4 * 86_400_000)) : null;
      const c = Math.floor(random() * 10);
      rows.at.push(at.toISOString());
      rows.due.push(new Date(at.getTime() + 24 * 3_600_000).toISOString());
      rows.answered.push(answered?.toISOString() ?? null);
      rows.working.push(answered ? Math.round(calendar.workingMinutesBetween(at, answered)) : null);
      rows.owner.push(owners[i % owners.length].id);
      rows.email.push(`lead${i}@${domain}`);
      rows.attribution.push(
        c < 8
          ? JSON.stringify({
              channel: CHANNELS[c],
              source: c < 3 ? "google" : "",
              medium: c === 0 ? "cpc" : "",
              campaign: c === 0 || c === 2 ? `campagne-${i % 40}` : "",
              term: "",
              content: "",
              paidClick: c === 0 || c === 2,
              referrerHost: "",
              landingPage: "/zakelijke-lease",
              firstSeenAt: at.toISOString(),
              pagesBeforeConversion: 3,
              pages: ["/", "/zakelijke-lease", "/aanbod"],
            })
          : null,
      );
    }
    await pool.query(
      `INSERT INTO leads.lease_requests (car_url, contact_number, email, email_key, phone_key, company_name,
         lease_term, message, status, created_at, response_due_at, first_response_at, first_response_kind,
         response_working_minutes, owner_id, attribution, attribution_status)
       SELECT 'https://www.autoscout24.nl/aanbod/volkswagen-id-4', '06 12345678', e, e, '0612345678', 'Bench BV',
              48, 'Graag een offerte voor deze auto, met onderhoud en verzekering.',
              CASE WHEN r IS NULL THEN 'nieuw' ELSE 'gereageerd' END, a, d, r, CASE WHEN r IS NOT NULL THEN 'call' END,
              w, o, j, CASE WHEN j IS NULL THEN 'no_consent' ELSE 'found' END
         FROM unnest($1::timestamptz[], $2::timestamptz[], $3::timestamptz[], $4::int[], $5::uuid[], $6::jsonb[], $7::text[])
           AS t(a, d, r, w, o, j, e)`,
      [rows.at, rows.due, rows.answered, rows.working, rows.owner, rows.attribution, rows.email],
    );
  }
  await pool.query("VACUUM ANALYZE leads.lease_requests");
}

const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: at(sorted, 0.5), p99: at(sorted, 0.99) };
};

async function timedHttp(path, repeat = REPEAT, warmup = WARMUP, before = async () => {}) {
  const get = async () => {
    const res = await fetch(`${BASE_URL}${path}`, { headers: { cookie } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text}`);
    return { body: JSON.parse(text), bytes: Buffer.byteLength(text) };
  };
  for (let i = 0; i < warmup; i++) await get();
  const ms = [];
  let answer;
  for (let i = 0; i < repeat; i++) {
    await before(i);
    const t = performance.now();
    answer = await get();
    ms.push(performance.now() - t);
  }
  return { ...stats(ms), ...answer };
}

/** The same totals the naive way: every lead's row read, its working minutes walked through the calendar. */
async function naive(period) {
  const { rows } = await pool.query(
    `SELECT created_at, first_response_at, response_due_at, owner_id, attribution
       FROM leads.lease_requests
      WHERE created_at >= ($1::date)::timestamp AT TIME ZONE 'Europe/Amsterdam'
        AND created_at < ($2::date + 1)::timestamp AT TIME ZONE 'Europe/Amsterdam'`,
    [period.from, period.to],
  );
  const working = [];
  const clock = [];
  let within = 0;
  for (const r of rows) {
    if (!r.first_response_at) continue;
    working.push(Math.round(calendar.workingMinutesBetween(r.created_at, r.first_response_at)));
    clock.push(Math.round((r.first_response_at - r.created_at) / 60_000));
    if (r.first_response_at <= r.response_due_at) within++;
  }
  working.sort((a, b) => a - b);
  clock.sort((a, b) => a - b);
  return {
    leads: rows.length,
    answered: working.length,
    withinPromise: within,
    medianMinutes: at(working, 0.5),
    p90Minutes: at(working, 0.9),
    medianClockMinutes: at(clock, 0.5),
    p90ClockMinutes: at(clock, 0.9),
  };
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const reportPath = (period) => `/api/admin/response-report?from=${period.from}&to=${period.to}`;

try {
  console.log(`load average before the fill (1, 5, 15 min): ${load()}`);
  const t0 = performance.now();
  await fill();
  console.log(
    `filled ${LEADS} quote requests over ${DAYS} days in ${((performance.now() - t0) / 1000).toFixed(0)} s; run ${run}`,
  );
  // The first report finds every week stale (the fill's trigger rows): it packs them from the leads.
  const { rows: staleRows } = await pool.query(
    "SELECT count(DISTINCT week)::int AS n FROM leads.response_report_stale",
  );
  const cold = await timedHttp(reportPath(PERIODS[0]), 1, 0);
  console.log(
    `first report after the fill: ${cold.p50.toFixed(0)} ms (${staleRows[0].n} stale weeks packed)`,
  );
  // Packing deleted the fill's stale marks: their dead rows vacuumed as autovacuum would, so the
  // timed reads do not scan 100,000 dead tuples of a mark table that is empty between changes.
  await pool.query("VACUUM ANALYZE leads.response_report_stale, leads.response_report_weeks");
  console.log(`load average before the reads: ${load()}`);
  const results = [];
  for (const period of PERIODS) {
    const r = await timedHttp(reportPath(period));
    results.push({ period, ...r });
  }
  // Each report after one lead's owner changed: its week is stale, packed again within the read.
  const { rows: changing } = await pool.query(
    "SELECT id FROM leads.lease_requests WHERE email LIKE $1 ORDER BY random() LIMIT $2",
    [`%@${domain}`, CHANGED_REPEAT],
  );
  const changed = await timedHttp(reportPath(PERIODS[0]), CHANGED_REPEAT, 0, (i) =>
    pool.query(
      "UPDATE leads.lease_requests SET owner_id = CASE WHEN owner_id = $2 THEN $3 ELSE $2 END::uuid WHERE id = $1",
      [changing[i].id, owners[0].id, owners[1].id],
    ),
  );
  const list = await timedHttp("/api/admin/lease-requests");
  const csv = await (async () => {
    const ms = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      const res = await fetch(
        `${BASE_URL}/api/admin/response-report.csv?from=${PERIODS[0].from}&to=${today}`,
        {
          headers: { cookie },
        },
      );
      await res.text();
      ms.push(performance.now() - t);
    }
    return stats(ms);
  })();
  const naiveMs = [];
  let naiveTotals;
  for (let i = 0; i < NAIVE_REPEAT; i++) {
    const t = performance.now();
    naiveTotals = await naive(PERIODS[0]);
    naiveMs.push(performance.now() - t);
  }
  const naiveStats = stats(naiveMs);

  console.log(
    `\n| read, ${LEADS} quote requests in the database | p50 ms | p99 ms | target p99 ≤ ${TARGET_P99_MS} ms |`,
  );
  console.log("| --- | --- | --- | --- |");
  for (const r of results)
    console.log(
      `| GET /api/admin/response-report, ${r.period.name} (${r.body.totals.leads} leads, ${(r.bytes / 1024).toFixed(1)} KiB of JSON), via the gateway, ${REPEAT} calls | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.p99 <= TARGET_P99_MS ? "met" : "FAIL"} |`,
    );
  console.log(
    `| GET /api/admin/response-report, 2 years, each after one lead's owner changed (its week packed again), ${CHANGED_REPEAT} calls | ${changed.p50.toFixed(1)} | ${changed.p99.toFixed(1)} | - |`,
  );
  console.log(
    `| GET /api/admin/response-report.csv, 2 years, 20 calls | ${csv.p50.toFixed(1)} | ${csv.p99.toFixed(1)} | - |`,
  );
  console.log(
    `| baseline: GET /api/admin/lease-requests (the list's first page, ${(list.bytes / 1024).toFixed(1)} KiB of JSON), ${REPEAT} calls | ${list.p50.toFixed(1)} | ${list.p99.toFixed(1)} | - |`,
  );
  console.log(
    `| baseline: the naive path, 2 years: rows read, calendar walked per lead, ${NAIVE_REPEAT} calls | ${naiveStats.p50.toFixed(1)} | ${naiveStats.p99.toFixed(1)} | - |`,
  );

  const api = results[0].body.totals;
  const same = Object.keys(naiveTotals).every((k) => naiveTotals[k] === api[k]);
  console.log(`\napi totals:   ${JSON.stringify(api)}\nnaive totals: ${JSON.stringify(naiveTotals)}`);

  const explain = async (sql, params) =>
    (await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).rows.map((r) => r["QUERY PLAN"]);
  // Every statement a report and a weekly summary make, as the service sends them. A stale week
  // packed again reads its leads by the covering index; the rest read the small cache tables.
  const period = [PERIODS[0].from, today];
  const { rows: allWeeks } = await pool.query(
    "SELECT kind, to_char(week, 'YYYY-MM-DD') AS week FROM leads.response_report_weeks",
  );
  // Last week (Amsterdam), Monday to Sunday: what Monday's summary reports.
  const noon = Date.parse(`${today}T12:00:00Z`);
  const lastMonday = noon - (((new Date(noon).getUTCDay() + 6) % 7) + 7) * 86_400_000;
  const lastWeek = [lastMonday, lastMonday + 6 * 86_400_000].map((ms) =>
    new Date(ms).toISOString().slice(0, 10),
  );
  const open = new PgDialect().sqlToQuery(openLeadsQuery(owners[0].id, new Date(), 10));
  const plans = [
    ["the stale weeks of 2 years", REPORT_READS_SQL.stale(REPORT_READS_SQL.period), period],
    ["the packed weeks' moments of 2 years", REPORT_READS_SQL.built(REPORT_READS_SQL.period), period],
    [
      "the records of all packed weeks (a process's first report)",
      REPORT_READS_SQL.records,
      [allWeeks.map((w) => w.kind), allWeeks.map((w) => w.week)],
    ],
    ["the owners' names", REPORT_READS_SQL.owners, [owners.map((o) => o.id)]],
    ["packing one stale week (quote requests)", LEADS_OF_WEEKS_SQL.lease_request, [[PERIODS[1].from]]],
    ["packing one stale week (contact messages)", LEADS_OF_WEEKS_SQL.contact_form, [[PERIODS[1].from]]],
    ["weekly summary: last week's stale weeks", REPORT_READS_SQL.stale(REPORT_READS_SQL.period), lastWeek],
    ["weekly summary: last week's packed weeks", REPORT_READS_SQL.built(REPORT_READS_SQL.period), lastWeek],
    ["weekly summary: one owner's open leads (20,000 of the 100,000)", open.sql, open.params],
  ];
  const explained = [];
  for (const [name, sql, params] of plans) explained.push([name, await explain(sql, params)]);
  const { rows: stored } = await pool.query(
    "SELECT count(*)::int AS weeks, sum(length(records))::int AS bytes FROM leads.response_report_weeks",
  );
  console.log(`\npacked weeks stored: ${stored[0].weeks}, ${stored[0].bytes} bytes of records`);
  for (const [name, plan] of explained)
    console.log(`\nEXPLAIN (ANALYZE, BUFFERS), ${name}:\n${plan.join("\n")}`);
  const packPlan = explained[4][1];
  const leadScans = explained.filter(([, plan]) =>
    plan.some((line) => /Seq Scan on (lease_requests|contact_messages)/.test(line)),
  );
  console.log(`\nload average after the reads (1, 5, 15 min): ${load()}`);

  const ok = verdict([
    ...results.map((r) => [
      `response report p99, ${r.period.name}`,
      r.p99 <= TARGET_P99_MS,
      `${r.p99.toFixed(1)} ms (target ≤ ${TARGET_P99_MS} ms)`,
    ]),
    ["the naive path gives the API's totals", same, same ? "same" : "different"],
    [
      "no statement reads every lead (no sequential scan of the lead tables)",
      leadScans.length === 0,
      leadScans.length === 0 ? "none" : leadScans.map(([name]) => name).join("; "),
    ],
    [
      "a stale week packed from the covering index",
      packPlan.some((line) => line.includes("Index Only Scan using lease_requests_response_report_idx")),
      "Index Only Scan",
    ],
  ]);
  process.exitCode = ok ? 0 : 1;
} finally {
  await pool.query("DELETE FROM leads.lease_requests WHERE email LIKE $1", [`%@${domain}`]);
  await pool.query("DELETE FROM leads.staff WHERE admin_id = ANY($1::uuid[])", [owners.map((o) => o.id)]);
  await pool.end();
}
