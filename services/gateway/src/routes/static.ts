import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import type { Context } from "koa";

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};
const COMPRESSIBLE = new Set([
  ".html",
  ".js",
  ".mjs",
  ".css",
  ".json",
  ".svg",
  ".txt",
  ".xml",
  ".webmanifest",
]);

/** Client-rendered routes: they get the app shell, not the 404 page. */
const APP_ROUTES = new Set(["/admin", "/admin-login", "/email-compose"]);

interface CachedFile {
  type: string;
  etag: string;
  raw: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/** The pre-rendered public pages of a dist folder: `/` and every `<route>/index.html`. */
function prerenderedPaths(root: string): string[] {
  const paths = existsSync(path.join(root, "index.html")) ? ["/"] : [];
  for (const entry of readdirSync(root, { withFileTypes: true }))
    if (entry.isDirectory() && existsSync(path.join(root, entry.name, "index.html")))
      paths.push(`/${entry.name}`);
  return paths;
}

/**
 * What a build without SITE_URL leaves relative, made absolute with the deployment's own origin
 * (PUBLIC_ORIGIN): search engines want absolute canonical and og:url addresses, and a sitemap.
 * One image can then serve any domain.
 */
function withOrigin(rel: string, raw: Buffer, origin: string): Buffer {
  if (rel.endsWith(".html")) {
    const html = raw.toString("utf8");
    const absolute = html.replace(
      /(<link rel="canonical" href="|<meta property="og:url" content=")(\/[^"]*)"/g,
      (_, start: string, href: string) => `${start}${origin}${href}"`,
    );
    return absolute === html ? raw : Buffer.from(absolute);
  }
  if (rel === "robots.txt") {
    const text = raw.toString("utf8");
    return /^Sitemap:/m.test(text) ? raw : Buffer.from(`${text.trimEnd()}\nSitemap: ${origin}/sitemap.xml\n`);
  }
  return raw;
}

function sitemapFor(origin: string, root: string): Buffer {
  const urls = prerenderedPaths(root)
    .map((p) => `  <url><loc>${origin}${p}</loc></url>`)
    .join("\n");
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  );
}

/**
 * Serves web/dist: pre-rendered pages as `<route>/index.html`, hashed assets with a year-long
 * immutable cache, HTML never cached, the app shell for client routes, 404.html (status 404) otherwise.
 * Files are read once and kept compressed in memory: the set is small and fixed per deploy. The
 * build's own .br and .gz copies are used as they are; a file without them, or one completed with
 * the origin, is compressed here on its first request.
 * With `publicOrigin`, relative canonical links become absolute and a missing sitemap is made.
 */
export function createStaticSite(distDir: string, opts: { publicOrigin?: string } = {}) {
  const root = path.resolve(distDir);
  const origin = opts.publicOrigin?.replace(/\/+$/, "");
  // Only files that exist are kept: caching misses would let requests for made-up paths grow it.
  const cache = new Map<string, CachedFile>();

  /** The file's content, and whether it is the file as built (not completed with the origin). */
  const read = (rel: string, file: string): { raw: Buffer; asBuilt: boolean } | null => {
    if (file.startsWith(root + path.sep) && existsSync(file) && statSync(file).isFile()) {
      const built = readFileSync(file);
      const raw = origin ? withOrigin(rel, built, origin) : built;
      return { raw, asBuilt: raw === built };
    }
    if (origin && rel === "sitemap.xml" && existsSync(path.join(root, "index.html")))
      return { raw: sitemapFor(origin, root), asBuilt: false };
    return null;
  };

  /** The build's own .br and .gz of a file (web/scripts/build.mjs), when both are as new as it. */
  const precompressed = (file: string): { br: Buffer; gzip: Buffer } | undefined => {
    const built = statSync(file).mtimeMs;
    const br = statSync(`${file}.br`, { throwIfNoEntry: false });
    const gz = statSync(`${file}.gz`, { throwIfNoEntry: false });
    if (!br || !gz || br.mtimeMs < built || gz.mtimeMs < built) return undefined;
    return { br: readFileSync(`${file}.br`), gzip: readFileSync(`${file}.gz`) };
  };

  const load = (rel: string): CachedFile | null => {
    const cached = cache.get(rel);
    if (cached) return cached;
    // The build's compressed copies are not pages of the site.
    if (/\.(br|gz)$/i.test(rel)) return null;
    const file = path.join(root, rel);
    const content = read(rel, file);
    if (!content) return null;
    const { raw } = content;
    const ext = path.extname(file).toLowerCase();
    const entry: CachedFile = {
      type: MIME[ext] ?? "application/octet-stream",
      etag: `"${createHash("sha1").update(raw).digest("base64url")}"`,
      raw,
    };
    if (COMPRESSIBLE.has(ext) && raw.length > 512) {
      const stored = content.asBuilt ? precompressed(file) : undefined;
      entry.gzip = stored?.gzip ?? gzipSync(raw, { level: 9 });
      entry.br = stored?.br ?? brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
    }
    cache.set(rel, entry);
    return entry;
  };

  const send = (ctx: Context, file: CachedFile, status: number, cacheControl: string) => {
    ctx.status = status;
    ctx.type = file.type;
    ctx.set("Cache-Control", cacheControl);
    ctx.set("ETag", file.etag);
    ctx.vary("Accept-Encoding");
    if (status === 200 && ctx.fresh) {
      ctx.status = 304;
      return;
    }
    const accepts = ctx.get("accept-encoding");
    if (file.br && /\bbr\b/.test(accepts)) {
      ctx.set("Content-Encoding", "br");
      ctx.body = file.br;
    } else if (file.gzip && /\bgzip\b/.test(accepts)) {
      ctx.set("Content-Encoding", "gzip");
      ctx.body = file.gzip;
    } else {
      ctx.body = file.raw;
    }
  };

  return {
    available: () => existsSync(path.join(root, "index.html")),
    serve(ctx: Context): boolean {
      if (ctx.method !== "GET" && ctx.method !== "HEAD") return false;
      let pathname: string;
      try {
        pathname = decodeURIComponent(ctx.path);
      } catch {
        return false;
      }
      if (pathname.includes("\0") || pathname.split("/").includes("..")) return false;
      const clean = pathname.replace(/\/+$/, "") || "/";

      if (clean.startsWith("/assets/")) {
        const asset = load(clean.slice(1));
        if (asset) send(ctx, asset, 200, "public, max-age=31536000, immutable");
        return asset !== null;
      }
      if (path.extname(clean)) {
        const file = load(clean.slice(1));
        if (file) send(ctx, file, 200, "public, max-age=3600");
        return file !== null;
      }
      const page = load(clean === "/" ? "index.html" : `${clean.slice(1)}/index.html`);
      if (page) {
        send(ctx, page, 200, "no-cache");
        return true;
      }
      if (APP_ROUTES.has(clean)) {
        const shell = load("app.html") ?? load("index.html");
        if (shell) send(ctx, shell, 200, "no-cache");
        return shell !== null;
      }
      const notFound = load("404.html") ?? load("app.html") ?? load("index.html");
      if (notFound) {
        send(ctx, notFound, 404, "no-cache");
        return true;
      }
      return false;
    },
  };
}
