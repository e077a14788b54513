// Prints the gzipped size of the JavaScript a pre-rendered page loads: the entry script of its HTML
// and every module it preloads (the islands' chunks: scripts/build.mjs), with their static imports.
// `node web/scripts/js-size.mjs [--page /financiele-lease] [--max-kb 100]` exits 1 above the budget
// (the home page by default). web/e2e/budget.e2e.ts holds the same budget on what the browser loads.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const distDir = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const flag = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const budgetKb = Number(flag("--max-kb", "100"));
const page = flag("--page", "/");
const htmlFile = join(distDir, page === "/" ? "index.html" : `${page.slice(1)}/index.html`);

if (!existsSync(htmlFile)) {
  console.error(`${htmlFile} is missing: run \`npm run build -w web\` first`);
  process.exit(1);
}
const html = readFileSync(htmlFile, "utf8");
const queue = [
  ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/(assets\/[^"]+\.js)"/g),
].map((match) => match[1]);

const seen = new Set();
while (queue.length > 0) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const code = readFileSync(join(distDir, file), "utf8");
  // Static imports only: `import"./x.js"` and `from"./x.js"`; an island the page does not hold is
  // a dynamic import() chunk it never loads.
  for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*["'`]\.\/([^"'`]+\.js)["'`]/g)) {
    queue.push(`assets/${match[1]}`);
  }
}

let total = 0;
for (const file of [...seen].sort()) {
  const size = gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
const totalKb = total / 1024;
console.log(`${totalKb.toFixed(1).padStart(7)} KB  gzipped JS loaded by ${page} (budget ${budgetKb} KB)`);
if (totalKb > budgetKb) process.exitCode = 1;
