// Client build, SSR build, then pre-rendering of every public route into dist/<route>/index.html
// (the home page into dist/index.html, the not-found page into dist/404.html), plus the bare app shell
// dist/app.html for client-only routes.
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

await build({ configFile, logLevel: "warn" });
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
if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(template))
  throw new Error("index.html holds an inline script (CSP)");

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
  const { html, head } = await renderPage(key, siteUrl);
  const page = publicTemplate
    .replace("<!--app-head-->", () => head)
    .replace(
      '<div id="root"><!--app-html--></div>',
      `<div id="root" data-prerendered="${key}">${html}</div>`,
    );
  const file = key === "/" ? "index.html" : key === "404" ? "404.html" : join(key.slice(1), "index.html");
  await mkdir(dirname(join(distDir, file)), { recursive: true });
  await writeFile(join(distDir, file), page);
  console.log(`pre-rendered ${key} -> dist/${file}`);
}
// The gateway answers client-only routes (the admin) with app.html: the bare shell, rendered in the browser.
const shell = template
  .replace("<!--app-head-->", '<title>Beheer</title>\n    <meta name="robots" content="noindex" />')
  .replace("<!--app-html-->", "");
await writeFile(join(distDir, "app.html"), shell);
console.log("wrote the app shell -> dist/app.html");
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
