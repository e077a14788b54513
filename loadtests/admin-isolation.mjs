#!/usr/bin/env node
// Isolation: while visits run at half the measured ingest rate, GET /api/admin/lease-requests keeps
// its p99 ≤ 3 × its idle p99 and ≤ 100 ms. Prints the figures next to a bare node:http 204 baseline
// under the same settings. Needs ADMIN_COOKIE ("admin_session=..."); VISIT_RATE overrides the probe.
// Run against a running stack: node loadtests/admin-isolation.mjs (BASE_URL, default :8080).
import { writeFileSync } from "node:fs";
import {
  BASE_URL,
  bareBaseline,
  requiredAdminCookie,
  runAutocannon,
  summarise,
  verdict,
  visitLoad,
} from "./tracking-common.mjs";

const cookie = requiredAdminCookie();
const origin = new URL(BASE_URL).origin;
const adminDuration = Number(process.env.DURATION ?? 10);

const adminOptions = (url) => ({
  url: `${url}/api/admin/lease-requests`,
  connections: 10,
  duration: adminDuration,
  headers: { cookie, origin },
});
const visitOptions = (rate, duration) =>
  visitLoad({ url: BASE_URL, duration, overallRate: rate, tag: "iso", sessions: 3000, origin });

console.log("baseline: bare node:http 204 under the admin settings (10 connections)");
const bare = summarise(await bareBaseline((url) => ({ ...adminOptions(url), url })));
console.table(bare);

console.log("admin list, idle");
const idle = summarise(await runAutocannon(adminOptions(BASE_URL)));
console.table(idle);

let visitRate = Number(process.env.VISIT_RATE ?? 0);
if (!visitRate) {
  console.log("probing the maximum visit rate (5 s)");
  visitRate = Math.round(
    summarise(await runAutocannon({ ...visitOptions(undefined, 5), overallRate: undefined })).reqPerSec / 2,
  );
}
console.log(`admin list while visits run at ${visitRate} req/s`);
const burst = runAutocannon(visitOptions(visitRate, adminDuration + 4));
await new Promise((r) => setTimeout(r, 2000));
const loaded = summarise(await runAutocannon(adminOptions(BASE_URL)));
const visits = summarise(await burst);
console.table({ admin: loaded, visits });

const ratio = loaded.p99ms / Math.max(idle.p99ms, 1);
const result = {
  scenario: "admin API during a tracking burst",
  baseline: bare,
  idle,
  loaded,
  visits,
  visitRate,
  checks: [
    [
      "admin p99 ≤ 3 × idle",
      loaded.p99ms <= 3 * Math.max(idle.p99ms, 1),
      `${loaded.p99ms} ms vs idle ${idle.p99ms} ms (× ${ratio.toFixed(2)})`,
    ],
    ["admin p99 ≤ 100 ms", loaded.p99ms <= 100, `${loaded.p99ms} ms`],
    [
      "no admin errors",
      loaded.errors === 0 && loaded.non2xx === 0,
      `${loaded.errors} errors, ${loaded.non2xx} non-2xx`,
    ],
  ],
};
const ok = verdict(result.checks);
if (process.env.RESULT_FILE) writeFileSync(process.env.RESULT_FILE, JSON.stringify(result, null, 2));
process.exit(ok ? 0 : 1);
