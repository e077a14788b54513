// Client build, SSR build, then pre-rendering of every public route into dist/<route>/index.html
// (the home page into dist/index.html, the not-found page into dist/404.html), plus the bare app shell
// dist/app.html for client-only routes (the admin app, its own entry). A public page loads the site's
// entry and the chunks of the islands it holds (src/islands/), preloaded from its <head>.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { build } from "vite";

const webDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const distDir = join(webDir, "dist");
const ssrDir = join(webDir, ".tmp", "ssr");
const configFile = join(webDir, "vite.config.ts");

const client = await build({ configFile, logLevel: "warn" });
await build({
  configFile,
  logLevel: "warn",
  build: {
    ssr: join(webDir, "src", "entry-server.tsx"),
    outDir: ssrDir,
    emptyOutDir: true,
    copyPublicDir: false,
  },
});

const template = await readFile(join(distDir, "index.html"), "utf8");
const appTemplate = await readFile(join(distDir, "app.html"), "utf8");
for (const [name, html] of [
  ["index.html", template],
  ["app.html", appTemplate],
]) {
  if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(html)) throw new Error(`${name} holds an inline script (CSP)`);
}

// Each island's chunk and the chunks it imports statically, from the client build's output: what a
// page that holds the island loads, preloaded so that it does not wait for the entry to ask.
const chunks = (Array.isArray(client) ? client : [client])
  .flatMap((output) => output.output)
  .filter((item) => item.type === "chunk");
const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
function withStaticImports(fileName, into = new Set()) {
  if (into.has(fileName)) return into;
  into.add(fileName);
  for (const imported of byFile.get(fileName)?.imports ?? []) withStaticImports(imported, into);
  return into;
}
const islandChunks = new Map();
for (const chunk of chunks) {
  const island = chunk.facadeModuleId?.match(/[\\/]src[\\/]islands[\\/]([\w-]+)\.tsx$/)?.[1];
  if (island) islandChunks.set(island, withStaticImports(chunk.fileName));
}
/** modulepreload links for the islands' chunks that the template does not preload already. */
function islandPreloads(islands, html) {
  const files = new Set();
  for (const island of islands) {
    const found = islandChunks.get(island);
    if (!found) throw new Error(`no chunk for the island "${island}"`);
    for (const file of found) if (!html.includes(`/${file}"`)) files.add(file);
  }
  return [...files].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join("\n    ");
}

// Public pages carry their stylesheet inline: a render-blocking request less before the first paint
// on a phone (the CSP allows inline styles: the theme sets CSS variables). The admin shell keeps the link.
const stylesheetLink = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/;
const cssHref = stylesheetLink.exec(template)?.[1];
if (!cssHref) throw new Error("index.html has no stylesheet link to inline");
const css = await readFile(join(distDir, cssHref), "utf8");
if (/<\/style/i.test(css)) throw new Error("the stylesheet cannot be inlined: it holds </style");
const publicTemplate = template.replace(stylesheetLink, () => `<style>${css}</style>`);

const { renderPage, PRERENDER_KEYS } = await import(pathToFileURL(join(ssrDir, "entry-server.js")).href);
const siteUrl = process.env.SITE_URL || undefined;

for (const key of PRERENDER_KEYS) {
  const { html, head, islands } = await renderPage(key, siteUrl);
  const preloads = islandPreloads(islands, publicTemplate);
  // After the entry and its own preloads, which the browser should fetch first.
  const page = publicTemplate
    .replace("<!--app-head-->", () => head)
    .replace("</head>", () => (preloads ? `  ${preloads}\n  </head>` : "</head>"))
    .replace(
      '<div id="root"><!--app-html--></div>',
      `<div id="root" data-prerendered="${key}">${html}</div>`,
    );
  const file = key === "/" ? "index.html" : key === "404" ? "404.html" : join(key.slice(1), "index.html");
  await mkdir(dirname(join(distDir, file)), { recursive: true });
  await writeFile(join(distDir, file), page);
  console.log(`pre-rendered ${key} -> dist/${file}`);
}
// The gateway answers client-only routes (the admin) with app.html, the admin app's shell as Vite
// built it (rendered in the browser).
console.log("built the app shell -> dist/app.html");
// Crawlers: keep out of the admin; list the public pages when the site's address is known.
const robots = ["User-agent: *", "Disallow: /admin", "Disallow: /admin-login", "Disallow: /email-compose"];
if (siteUrl) {
  const origin = siteUrl.replace(/\/+$/, "");
  const urls = PRERENDER_KEYS.filter((key) => key !== "404")
    .map((key) => `  <url><loc>${origin}${key}</loc></url>`)
    .join("\n");
  await writeFile(
    join(distDir, "sitemap.xml"),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  );
  robots.push(`Sitemap: ${origin}/sitemap.xml`);
}
await writeFile(join(distDir, "robots.txt"), `${robots.join("\n")}\n`);

await rm(ssrDir, { recursive: true, force: true });

// Every file that compression makes a tenth smaller or more also as .br and .gz, made once here at
// the highest levels. The gateway serves them as they are: it compressed each file on its first
// request before, brotli 11 of the main script alone 0.5 s of CPU, on every new pod and during the
// burst that made it start.
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const files = (await readdir(distDir, { recursive: true, withFileTypes: true }))
  .filter((e) => e.isFile())
  .map((e) => join(e.parentPath, e.name));
let compressed = 0;
await Promise.all(
  files.map(async (file) => {
    const raw = await readFile(file);
    if (raw.length <= 512) return;
    const gz = await gzipped(raw, { level: 9 });
    if (gz.length > raw.length * 0.9) return; // already compressed (images, fonts)
    const br = await brotli(raw, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
    });
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    compressed++;
  }),
);
console.log(`compressed ${compressed} files -> .br and .gz beside them`);
