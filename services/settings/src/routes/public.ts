import { contractRouter, type ContractRouter } from "@lease/platform";
import type { Context } from "koa";
import type { SettingsDomain } from "../domain/settings";
import type { PublicKind, PublicSnapshots } from "../domain/public-snapshots";

/**
 * Browsers and proxies may keep public settings but must ask before each use; the ETag makes
 * that a 304. A longer max-age would show staff (and everyone) the old theme or company details
 * for that long after a save.
 */
export const PUBLIC_CACHE_CONTROL = "public, no-cache";

async function sendCacheable(
  ctx: Context,
  snapshots: PublicSnapshots,
  kind: PublicKind,
  load: () => Promise<unknown>,
) {
  const { json, etag } = await snapshots.get(kind, load);
  ctx.set("Cache-Control", PUBLIC_CACHE_CONTROL);
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

export function publicRoutes(domain: SettingsDomain, snapshots: PublicSnapshots): ContractRouter {
  const router = contractRouter("settings");
  router.get("/api/company-settings", (ctx) =>
    sendCacheable(ctx, snapshots, "company", () => domain.publicCompany()),
  );
  router.get("/api/theme-settings", (ctx) => sendCacheable(ctx, snapshots, "theme", () => domain.theme()));
  return router;
}
