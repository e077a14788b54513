// Prints the gzipped size of the JavaScript the home page loads: the entry script of dist/index.html,
// its static imports, and the home page chunk that the entry loads before hydrating.
// `node web/scripts/js-size.mjs [--max-kb 120]` exits 1 above the budget.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const distDir = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const budgetFlag = process.argv.indexOf("--max-kb");
const budgetKb = budgetFlag > 0 ? Number(process.argv[budgetFlag + 1]) : 120;

if (!existsSync(join(distDir, "index.html"))) {
  console.error("web/dist/index.html is missing: run `npm run build -w web` first");
  process.exit(1);
}
const html = readFileSync(join(distDir, "index.html"), "utf8");
const roots = [
  ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/(assets\/[^"]+\.js)"/g),
].map((match) => match[1]);
roots.push(...homeChunks(roots));

const seen = new Set();
const queue = [...roots];
while (queue.length > 0) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const code = readFileSync(join(distDir, file), "utf8");
  // Static imports only: `import"./x.js"` and `from"./x.js"`; dynamic import() chunks load later, if ever.
  for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*["'`]\.\/([^"'`]+\.js)["'`]/g)) {
    queue.push(`assets/${match[1]}`);
  }
}

/**
 * The entry imports each page lazily but loads the current one before hydrating: for the home page
 * that is the HomePage chunk plus the chunks Vite preloads with it (its __vite__mapDeps entries).
 */
function homeChunks(entries) {
  for (const entry of entries) {
    const code = readFileSync(join(distDir, entry), "utf8");
    const match = code.match(
      /import\(\s*["'`]\.\/(HomePage-[^"'`]+\.js)["'`]\s*\)(?:\s*,\s*__vite__mapDeps\(\[([\d,\s]*)\]\))?/,
    );
    if (!match) continue;
    const depsList = code.match(/m\.f=\[([^\]]*)\]/);
    const deps = depsList ? [...depsList[1].matchAll(/["'`]([^"'`]+)["'`]/g)].map((m) => m[1]) : [];
    const indexes = (match[2] ?? "").split(",").filter(Boolean).map(Number);
    return [`assets/${match[1]}`, ...indexes.map((i) => deps[i]).filter((file) => file?.endsWith(".js"))];
  }
  console.error("could not find the home page chunk in the entry");
  process.exitCode = 1;
  return [];
}

let total = 0;
for (const file of [...seen].sort()) {
  const size = gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
const totalKb = total / 1024;
console.log(
  `${totalKb.toFixed(1).padStart(7)} KB  gzipped JS loaded by the home page (budget ${budgetKb} KB)`,
);
if (totalKb > budgetKb) process.exitCode = 1;
