#!/usr/bin/env node
// What the public pages' settings calls cost the server. Every page load asks for
// GET /api/theme-settings and GET /api/company-settings; a browser that has them cached sends
// If-None-Match and gets a 304 when nothing changed (Cache-Control: no-cache, revalidated with
// the ETag, so a saved theme shows at once). Measures, through the gateway, for DURATION s each
// (autocannon, CONNECTIONS connections, as fast as it goes): both settings answered in full (200),
// both revalidated (304), and the pre-rendered home page itself for scale. Not part of npm test.
//   npm start        then:  node loadtests/public-settings.mjs
// BASE_URL, DURATION (10), CONNECTIONS (20) override the defaults.
import { BASE_URL, runAutocannon, summarise } from "./tracking-common.mjs";

const duration = Number(process.env.DURATION ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 20);
const PATHS = ["/api/theme-settings", "/api/company-settings"];

async function etagOf(path) {
  const res = await fetch(`${BASE_URL}${path}`);
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  console.log(
    `${path}: Cache-Control "${res.headers.get("cache-control")}", ETag ${res.headers.get("etag")}`,
  );
  return res.headers.get("etag");
}

const etags = Object.fromEntries(await Promise.all(PATHS.map(async (p) => [p, await etagOf(p)])));
const run = async (name, requests) => {
  const result = summarise(await runAutocannon({ url: BASE_URL, connections, duration, requests }));
  console.log(name);
  console.table(result);
  return { name, ...result };
};

const rows = [
  await run(
    "settings answered in full (200)",
    PATHS.map((path) => ({ method: "GET", path })),
  ),
  await run(
    "settings revalidated (If-None-Match, 304)",
    PATHS.map((path) => ({ method: "GET", path, headers: { "if-none-match": etags[path] } })),
  ),
  await run("the home page (pre-rendered HTML)", [{ method: "GET", path: "/" }]),
];
console.log("\n| calls | req/s | p50 ms | p99 ms | errors |");
console.log("| --- | --- | --- | --- | --- |");
for (const r of rows) console.log(`| ${r.name} | ${r.reqPerSec} | ${r.p50ms} | ${r.p99ms} | ${r.errors} |`);
