import { createHash } from "node:crypto";
import Router from "@koa/router";
import type { Context } from "koa";
import type { SettingsDomain } from "../domain/settings";

/** Browsers and proxies may keep public settings briefly; an ETag makes revalidation cheap. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=60";

function sendCacheable(ctx: Context, body: unknown) {
  const json = JSON.stringify(body);
  ctx.set("Cache-Control", PUBLIC_CACHE_CONTROL);
  const etag = `"${createHash("sha1").update(json).digest("base64url")}"`;
  ctx.set("ETag", etag);
  ctx.status = 200;
  ctx.type = "application/json";
  if (matchesIfNoneMatch(ctx.get("if-none-match"), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.body = json;
}

/**
 * RFC 9110 §13.1.2 (weak comparison). Koa's ctx.fresh is not used: it ignores If-None-Match when
 * the request says Cache-Control: no-cache, which fetch() adds to every conditional request.
 */
function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

export function publicRoutes(domain: SettingsDomain): Router {
  const router = new Router({ prefix: "/api" });
  router.get("/company-settings", async (ctx) => sendCacheable(ctx, await domain.publicCompany()));
  router.get("/theme-settings", async (ctx) => sendCacheable(ctx, await domain.theme()));
  return router;
}
