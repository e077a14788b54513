import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gzipSync, constants as zlib } from "node:zlib";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticSite } from "./static";
import { gw, useEchoStack } from "../testing/echo-stack";

// A build without SITE_URL leaves canonical addresses relative and has no sitemap; the gateway
// completes them with PUBLIC_ORIGIN, so one image serves any domain.
let dist: string;
const servers: Server[] = [];

async function serve(publicOrigin?: string): Promise<string> {
  const site = createStaticSite(dist, { publicOrigin });
  const app = new Koa().use((ctx) => {
    if (!site.serve(ctx)) ctx.status = 404;
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const page = (href: string) =>
  `<html><head><link rel="canonical" href="${href}" /><meta property="og:url" content="${href}" /></head></html>`;

beforeAll(() => {
  dist = mkdtempSync(path.join(tmpdir(), "dist-origin-"));
  mkdirSync(path.join(dist, "financiele-lease"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), page("/"));
  writeFileSync(path.join(dist, "financiele-lease", "index.html"), page("/financiele-lease"));
  writeFileSync(path.join(dist, "404.html"), "<html>404</html>");
  writeFileSync(path.join(dist, "robots.txt"), "User-agent: *\nDisallow: /admin\n");
});
afterAll(() => {
  for (const server of servers) server.close();
  rmSync(dist, { recursive: true, force: true });
});

describe("the static site with PUBLIC_ORIGIN", () => {
  it("makes canonical and og:url absolute, and lists the pages in a sitemap named in robots.txt", async () => {
    const base = await serve("https://lease.example.nl/");
    const html = await (await fetch(`${base}/financiele-lease`)).text();
    expect(html).toContain('<link rel="canonical" href="https://lease.example.nl/financiele-lease"');
    expect(html).toContain('<meta property="og:url" content="https://lease.example.nl/financiele-lease"');
    expect(await (await fetch(`${base}/`)).text()).toContain('href="https://lease.example.nl/"');

    const robots = await (await fetch(`${base}/robots.txt`)).text();
    expect(robots).toBe("User-agent: *\nDisallow: /admin\nSitemap: https://lease.example.nl/sitemap.xml\n");
    const sitemap = await fetch(`${base}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get("content-type")).toContain("application/xml");
    const xml = await sitemap.text();
    expect(xml).toContain("<loc>https://lease.example.nl/</loc>");
    expect(xml).toContain("<loc>https://lease.example.nl/financiele-lease</loc>");
    expect(xml).not.toContain("assets");
    expect(xml).not.toContain("404");
  });

  it("leaves a build's own files as they are without PUBLIC_ORIGIN", async () => {
    const base = await serve();
    expect(await (await fetch(`${base}/financiele-lease`)).text()).toBe(page("/financiele-lease"));
    expect((await fetch(`${base}/sitemap.xml`)).status).toBe(404);
    expect(await (await fetch(`${base}/robots.txt`)).text()).not.toContain("Sitemap");
  });

  it("keeps a sitemap and Sitemap line the build already wrote", async () => {
    writeFileSync(
      path.join(dist, "robots.txt"),
      "User-agent: *\nSitemap: https://build.example/sitemap.xml\n",
    );
    writeFileSync(path.join(dist, "sitemap.xml"), "<urlset>built</urlset>");
    try {
      const base = await serve("https://lease.example.nl");
      expect(await (await fetch(`${base}/sitemap.xml`)).text()).toBe("<urlset>built</urlset>");
      expect(await (await fetch(`${base}/robots.txt`)).text()).toBe(
        "User-agent: *\nSitemap: https://build.example/sitemap.xml\n",
      );
    } finally {
      rmSync(path.join(dist, "sitemap.xml"));
      writeFileSync(path.join(dist, "robots.txt"), "User-agent: *\nDisallow: /admin\n");
    }
  });
});

/** An answer's bytes as sent (fetch would decompress them) and its encoding. */
const rawGet = (url: string, encoding: string) =>
  new Promise<{ status: number; encoding?: string; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            encoding: res.headers["content-encoding"],
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on("error", reject);
  });

describe("the build's compressed copies", () => {
  // Fast, low-level copies: unlike what the gateway makes itself (brotli 11, gzip 9), so the test
  // tells which one was sent.
  const script = `export const text = "${"zakelijke lease ".repeat(200)}";\n`;
  const ownBr = brotliCompressSync(script, { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } });
  const ownGz = gzipSync(script, { level: 1 });
  const bigPage = (href: string) =>
    page(href).replace("</head>", `<meta name="x" content="${"x".repeat(800)}" /></head>`);

  beforeAll(() => {
    writeFileSync(path.join(dist, "assets", "app-1a2b.js"), script);
    writeFileSync(path.join(dist, "assets", "app-1a2b.js.br"), ownBr);
    writeFileSync(path.join(dist, "assets", "app-1a2b.js.gz"), ownGz);
    writeFileSync(path.join(dist, "assets", "plain-3c4d.js"), script);
    writeFileSync(path.join(dist, "over-ons.html"), bigPage("/over-ons"));
  });

  it("are sent as they are; a file without them is compressed by the gateway", async () => {
    const base = await serve();
    const br = await rawGet(`${base}/assets/app-1a2b.js`, "gzip, br");
    expect({ status: br.status, encoding: br.encoding, same: br.body.equals(ownBr) }).toEqual({
      status: 200,
      encoding: "br",
      same: true,
    });
    const gz = await rawGet(`${base}/assets/app-1a2b.js`, "gzip");
    expect({ encoding: gz.encoding, same: gz.body.equals(ownGz) }).toEqual({ encoding: "gzip", same: true });

    const plain = await rawGet(`${base}/assets/plain-3c4d.js`, "br");
    expect(plain.encoding).toBe("br");
    expect(brotliDecompressSync(plain.body).toString()).toBe(script);
    expect(plain.body.equals(ownBr)).toBe(false);
  });

  it("are not used for a page completed with PUBLIC_ORIGIN, and are not pages themselves", async () => {
    // Copies of the page as built, with its relative address.
    const built = bigPage("/over-ons");
    writeFileSync(path.join(dist, "over-ons.html.br"), brotliCompressSync(built));
    writeFileSync(path.join(dist, "over-ons.html.gz"), gzipSync(built));
    const base = await serve("https://lease.example.nl");
    const res = await rawGet(`${base}/over-ons.html`, "br");
    expect(brotliDecompressSync(res.body).toString()).toContain(
      '<link rel="canonical" href="https://lease.example.nl/over-ons"',
    );
    expect((await rawGet(`${base}/assets/app-1a2b.js.br`, "br")).status).toBe(404);
    expect((await rawGet(`${base}/over-ons.html.gz`, "gzip")).status).toBe(404);
  });
});

describe("the web app through the gateway", () => {
  useEchoStack();

  describe("gateway web app serving", () => {
    it("serves pre-rendered pages uncached and hashed assets immutable and compressed", async () => {
      const page = await fetch(`${gw.url}/financiele-lease`);
      expect(page.status).toBe(200);
      expect(page.headers.get("cache-control")).toBe("no-cache");
      expect(await page.text()).toContain("financiele lease");
      const asset = await fetch(`${gw.url}/assets/app-abc123.js`, { headers: { "accept-encoding": "gzip" } });
      expect(asset.headers.get("cache-control")).toContain("immutable");
      expect(asset.headers.get("content-encoding")).toBe("gzip");
      expect(await asset.text()).toContain("console.log");
    });

    it("gives client routes the app shell and unknown paths the 404 page with status 404", async () => {
      const admin = await fetch(`${gw.url}/admin`);
      expect(admin.status).toBe(200);
      expect(await admin.text()).toContain("app shell");
      const missing = await fetch(`${gw.url}/bestaat-niet`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain("404 Page Not Found");
      const traversal = await fetch(`${gw.url}/assets/..%2f..%2fetc/passwd`);
      expect(traversal.status).toBe(404);
    });

    it("sets the security headers on every kind of answer", async () => {
      for (const p of ["/", "/api/does-not-exist", "/healthz"]) {
        const res = await fetch(`${gw.url}${p}`);
        expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      }
    });
  });
});
