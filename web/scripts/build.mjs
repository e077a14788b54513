// Client build, SSR build, then pre-rendering of every public route into dist/<route>/index.html
// (the home page into dist/index.html, the not-found page into dist/404.html), plus the bare app shell
// dist/app.html for client-only routes.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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
