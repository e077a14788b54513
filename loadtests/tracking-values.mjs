#!/usr/bin/env node
// What do 100,000 visits with made-up UTM values and referrers do? Runs the
// writer's admission (services/tracking repositories/value-admission.ts, the Redis script every
// replica's writer calls per batch) on 100,000 visits (VISITS to change) in batches of 500, as the
// stream writer hands them over, against a real Redis, under a prefix of its own:
//   baseline   a real day: 20 campaigns from 5,000 address blocks, visitors from everywhere;
//   one block  every value made up, all from one address block;
//   every block every value made up, each visit from an address block of its own;
//   block pairs every value made up, each sent from two blocks.
// Prints per scenario the values stored by name per field, the profiles (combinations) admitted,
// the bytes of the gate's Redis keys, and the time to check a batch (p50, max). Targets: one block
// stores at most 5 values a field; any number of blocks at most 150 a field and 3,000 profiles;
// the keys stay within 10 MB; made-up values take at most 5 times the baseline's time a batch
// (p50). Needs only Redis (REDIS_URL, default 127.0.0.1:6379). Not part of npm test.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import { tsImport } from "tsx/esm/api";

const { SharedValueGate } = await tsImport(
  "../services/tracking/src/repositories/value-admission.ts",
  import.meta.url,
);
const { ADMITTED_FIELDS, COMBINATION_BIT, DEFAULT_ADMISSION } = await tsImport(
  "../services/tracking/src/domain/admission.ts",
  import.meta.url,
);

const VISITS = Number(process.env.VISITS ?? 100_000);
const BATCH = 500;
const TARGET = {
  oneBlock: 5,
  everyBlock: 150,
  profiles: DEFAULT_ADMISSION.profilesPerDay,
  mb: 10,
  slower: 5,
};
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const junk = () => randomBytes(6).toString("base64url");
const COUNTRIES = ["NL", "BE", "DE", "GB", "FR", "US"];
const DEVICES = ["desktop", "mobile", "tablet"];
const BROWSERS = ["Chrome", "Safari", "Firefox", "Edge"];
const rest = (i) =>
  ["Other", "false", COUNTRIES[i % 6], DEVICES[i % 3], BROWSERS[i % 4], i % 2 ? "Windows" : "iOS"].join(
    "\u0000",
  );

const scenarios = {
  baseline: (i) => ({
    tag: `block-${i % 5000}`,
    rest: rest(i),
    values: {
      source: ["google", "meta", "nieuwsbrief", "linkedin"][i % 4],
      medium: ["cpc", "paid", "email", "social"][i % 4],
      campaign: `campagne-${i % 20}`,
      term: "",
      content: "",
      referrer: ["google.com", "facebook.com", "", "linkedin.com"][i % 4],
    },
  }),
  "one block": (i) => ({
    tag: "attacker",
    rest: rest(i),
    values: Object.fromEntries(ADMITTED_FIELDS.map((f) => [f, junk()])),
  }),
  "every block": (i) => ({
    tag: `block-${i}`,
    rest: rest(i),
    values: Object.fromEntries(ADMITTED_FIELDS.map((f) => [f, junk()])),
  }),
  // Each made-up value from two blocks: what vouching admits on top of the first-sight ones.
  "block pairs": (i) => ({
    tag: `block-${i}`,
    rest: rest(i),
    values: Object.fromEntries(ADMITTED_FIELDS.map((f) => [f, `${f}-${Math.floor(i / 2)}`])),
  }),
};

async function keyBytes(prefix) {
  let bytes = 0;
  let keys = 0;
  let cursor = "0";
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    for (const key of found) {
      keys++;
      bytes += Number((await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0")) ?? 0);
    }
  } while (cursor !== "0");
  return { bytes, keys };
}

const results = [];
for (const [name, make] of Object.entries(scenarios)) {
  const prefix = `bench-values-${randomBytes(4).toString("hex")}`;
  const gate = new SharedValueGate(redis, (...parts) => [prefix, ...parts].join(":"));
  const stored = Object.fromEntries(ADMITTED_FIELDS.map((f) => [f, new Set()]));
  let profiles = 0;
  const times = [];
  for (let from = 0; from < VISITS; from += BATCH) {
    const visits = [];
    for (let i = from; i < Math.min(from + BATCH, VISITS); i++)
      visits.push({ day: "2026-11-18", ...make(i) });
    const t = performance.now();
    const answers = await gate.check(visits);
    times.push(performance.now() - t);
    visits.forEach((v, j) => {
      const bits = answers[j];
      if ((bits & COMBINATION_BIT) === 0) profiles++;
      ADMITTED_FIELDS.forEach((f, k) => {
        if (v.values[f] && (bits & (1 << k)) === 0 && (bits & COMBINATION_BIT) === 0)
          stored[f].add(v.values[f]);
      });
    });
  }
  const { bytes, keys } = await keyBytes(prefix);
  const profileSet = await redis.scard(`${prefix}:tracking:values:profiles:2026-11-18`);
  times.sort((x, y) => x - y);
  results.push({
    scenario: name,
    perField: Math.max(...ADMITTED_FIELDS.map((f) => stored[f].size)),
    profiles: profileSet,
    visitsWithOwnProfile: profiles,
    keys,
    mb: bytes / 1e6,
    p50: times[Math.floor(times.length / 2)],
    max: times.at(-1),
  });
  let cursor = "0";
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    if (found.length) await redis.del(...found);
  } while (cursor !== "0");
}
await redis.quit();

const load = (await import("node:os")).loadavg()[0].toFixed(1);
console.log(
  `\n${VISITS.toLocaleString("en")} visits per scenario, batches of ${BATCH}, load average ${load}\n`,
);
console.log("scenario      values/field  profiles  keys  Redis MB  batch p50 ms  batch max ms");
for (const r of results)
  console.log(
    `${r.scenario.padEnd(13)} ${String(r.perField).padStart(12)} ${String(r.profiles).padStart(9)} ${String(r.keys).padStart(5)} ${r.mb.toFixed(2).padStart(9)} ${r.p50.toFixed(1).padStart(13)} ${r.max.toFixed(1).padStart(13)}`,
  );
const [base, one, every, pairs] = results;
const checks = [
  [one.perField <= TARGET.oneBlock, `one block stores ≤ ${TARGET.oneBlock} values a field (${one.perField})`],
  [
    Math.max(every.perField, pairs.perField) <= TARGET.everyBlock,
    `many blocks store ≤ ${TARGET.everyBlock} values a field (${Math.max(every.perField, pairs.perField)})`,
  ],
  [
    results.every((r) => r.profiles <= TARGET.profiles),
    `≤ ${TARGET.profiles} profiles a day (${Math.max(...results.map((r) => r.profiles))})`,
  ],
  [results.every((r) => r.mb <= TARGET.mb), `keys ≤ ${TARGET.mb} MB`],
  [
    Math.max(one.p50, every.p50, pairs.p50) <= TARGET.slower * base.p50,
    `made-up values ≤ ${TARGET.slower}× the baseline's batch time (p50 ${base.p50.toFixed(1)} ms)`,
  ],
];
for (const [ok, text] of checks) console.log(`${ok ? "ok  " : "FAIL"} ${text}`);
process.exitCode = checks.every(([ok]) => ok) ? 0 : 1;
