import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticSite } from "./static";

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
