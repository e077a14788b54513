#!/usr/bin/env node
// Browser tests of the public site: `node web/e2e/run.mjs [filter...]`.
// Against a running gateway: E2E_BASE_URL=http://127.0.0.1:3000 node web/e2e/run.mjs
// Without it, web/dist (built when missing, or always with E2E_BUILD=1) is served by a local stub.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./runner.ts");
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(error);
  console.log("0 passed, 1 failed");
  process.exitCode = 1;
}
