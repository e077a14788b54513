#!/usr/bin/env node
// The unfiltered analytics reads timed in the reader's own process, on a database the history
// benchmark (or tracking:import of loadtests/history-generator.mjs) filled: 30 days, 12 months and
// the whole history, each read WARMUP times and then REPEAT times timed (p50 / max), by the reader
// with its sketch cache, beside the same reader without it (a bound of 0: every sketch's bytes
// fetched on every read) and, with BEFORE_ROOT set, the reader of another checkout (e.g. main
// before the cache). The variants take turns within each round and the order flips every round,
// so load from other processes falls on all alike; each round prints the load average. The variant
// "cache, today rewritten" writes today's sketch rows again, unchanged, before each of its reads,
// as the compactor does under live traffic. Every variant must give the same answers (checked, and
// the run fails otherwise).
//   DATABASE_URL=postgres://.../db node loadtests/analytics-reads.mjs
//   BEFORE_ROOT=/path/to/other/checkout ROUNDS=2 REPEAT=30 AS_OF=2026-11-30 ...
import { loadavg } from "node:os";
import { isDeepStrictEqual } from "node:util";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { tsImport } from "tsx/esm/api";
import { retentionWindow } from "./history-generator.mjs";

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) {
  console.error("set DATABASE_URL (a tracking database with imported history)");
  process.exit(2);
}
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const REPEAT = Number(process.env.REPEAT ?? 30);
const WARMUP = Number(process.env.WARMUP ?? 3);
const RETENTION_MONTHS = 26;

async function readerOf(root) {
  const base = new URL(`file://${root.replace(/\/?$/, "/")}services/tracking/src/repositories/`);
  const { AnalyticsReader } = await tsImport(new URL("analytics.ts", base).href, import.meta.url);
  const { PageDirectory } = await tsImport(new URL("dictionary.ts", base).href, import.meta.url);
  return { AnalyticsReader, PageDirectory };
}

const here = new URL("..", import.meta.url).pathname;
const mine = await readerOf(here);
const { SketchCache } = await tsImport(
  "../services/tracking/src/repositories/sketch-cache.ts",
  import.meta.url,
);
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
const variants = [];
if (process.env.BEFORE_ROOT) {
  const before = await readerOf(process.env.BEFORE_ROOT);
  variants.push({ name: "before", reader: new before.AnalyticsReader(pool, new before.PageDirectory(pool)) });
}
variants.push(
  {
    name: "no cache",
    reader: new mine.AnalyticsReader(pool, new mine.PageDirectory(pool), new SketchCache(0)),
  },
  { name: "cache", reader: new mine.AnalyticsReader(pool, new mine.PageDirectory(pool)) },
  // As with live traffic: before each read the compactor has rewritten today's sketches (the day,
  // its week piece and the month: new row versions of the same bytes), which the read fetches again.
  {
    name: "cache, today rewritten",
    live: true,
    reader: new mine.AnalyticsReader(pool, new mine.PageDirectory(pool)),
  },
);
const rewriteToday = () =>
  pool.query(
    `UPDATE tracking.sketches SET regs = regs
     WHERE (kind = 'd' AND period = $1) OR (kind = 'm' AND period = date_trunc('month', $1::date))
        OR (kind = 'w' AND period = (SELECT max(period) FROM tracking.sketches WHERE kind = 'w' AND period <= $1))`,
    [today],
  );

const DAY = 86_400_000;
// AS_OF=YYYY-MM-DD reads as if that day were today (e.g. a month's last day, whose month sketches are
// as full as a month's get, where live traffic rewrites them; the history's own today is a few
// hours old).
const now = process.env.AS_OF ? Date.parse(`${process.env.AS_OF}T21:00:00Z`) : Date.now();
/** The Amsterdam calendar day of an instant, as YYYY-MM-DD. */
const ymd = (ms) => new Date(ms).toLocaleDateString("en-CA", { timeZone: "Europe/Amsterdam" });
const today = ymd(now);
const addDays = (day, n) => ymd(new Date(`${day}T12:00:00Z`).getTime() + n * DAY);
const PERIODS = [
  { name: "30 days", from: addDays(today, -29), to: today },
  { name: "12 months", from: addDays(today, -364), to: today },
  { name: "whole history", from: ymd(retentionWindow(Date.now(), RETENTION_MONTHS).start), to: today },
];

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
/** fetched: sketch bytes fetched per timed read (known for this checkout's readers only). */
const results = new Map(); // `${period}|${variant}` -> [{ p50, max, fetched }] per round
const answers = new Map(); // period -> the first variant's answer
let differ = 0;

for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? variants : [...variants].reverse();
  const load = loadavg().map((l) => l.toFixed(1));
  console.log(`round ${round} (${order.map((v) => v.name).join(", ")}), load average ${load.join(" ")}`);
  for (const period of PERIODS)
    for (const { name, reader, live } of order) {
      for (let i = 0; i < WARMUP; i++) await reader.read(period, now);
      const fetchedBefore = reader.cache?.fetchedBytes ?? 0;
      const times = [];
      let answer;
      for (let i = 0; i < REPEAT; i++) {
        if (live) await rewriteToday();
        const t = performance.now();
        answer = await reader.read(period, now);
        times.push(performance.now() - t);
      }
      const first = answers.get(period.name);
      if (!first) answers.set(period.name, answer);
      else if (!isDeepStrictEqual(first, answer)) {
        differ++;
        console.log(`  DIFFERENT ANSWER: ${period.name}, ${name}`);
      }
      times.sort((a, b) => a - b);
      const fetched = reader.cache ? (reader.cache.fetchedBytes - fetchedBefore) / REPEAT : undefined;
      const row = { p50: pct(times, 50), max: times.at(-1), fetched };
      const key = `${period.name}|${name}`;
      results.set(key, [...(results.get(key) ?? []), row]);
      console.log(
        `  ${period.name.padEnd(14)} ${name.padEnd(22)} p50 ${row.p50.toFixed(1)} ms, max ${row.max.toFixed(1)} ms` +
          (fetched === undefined ? "" : `, sketch bytes fetched per read ${(fetched / 1024).toFixed(1)} KB`),
      );
    }
}
const cache = variants.find((v) => v.name === "cache").reader.cache;
console.log(
  `\ncache: ${cache.size} entries (sketches, unions, estimates), ${(cache.bytes / 2 ** 20).toFixed(1)} MB held (bound ${(cache.maxBytes / 2 ** 20).toFixed(0)} MB)`,
);
console.log(`\n| period | ${variants.map((v) => `${v.name}: p50 / max ms per round`).join(" | ")} |`);
console.log(`| --- | ${variants.map(() => "---").join(" | ")} |`);
for (const period of PERIODS)
  console.log(
    `| ${period.name} | ${variants
      .map((v) =>
        results
          .get(`${period.name}|${v.name}`)
          .map((r) => `${r.p50.toFixed(1)} / ${r.max.toFixed(1)}`)
          .join(", "),
      )
      .join(" | ")} |`,
  );
await pool.end();
if (differ > 0) {
  console.error(`${differ} answers differed between the variants`);
  process.exit(1);
}
console.log("every variant gave the same answers");
