import type { Context } from "koa";
import { HttpError, contractRouter, requireAdmin, type RateLimiter, type SessionDeps } from "@lease/platform";
import type { GoogleAdsDomain } from "../domain/google-ads";

const FILE_NAME = "google-ads-conversies.csv";

function answerCsv(ctx: Context, csv: string) {
  ctx.type = "text/csv; charset=utf-8";
  ctx.set("Content-Disposition", `attachment; filename="${FILE_NAME}"`);
  ctx.set("Cache-Control", "no-store");
  ctx.body = csv;
}

/** The panel's Google Ads section: conversion names, the secret URL and the download. */
export function googleAdsAdminRoutes(deps: { googleAds: GoogleAdsDomain; session: SessionDeps }) {
  const router = contractRouter("leads", requireAdmin(deps.session));

  router.get("/api/admin/google-ads-settings", async (ctx) => {
    ctx.body = await deps.googleAds.settings();
  });

  router.put("/api/admin/google-ads-settings", async (ctx) => {
    const body = ctx.input.body;
    ctx.body = await deps.googleAds.updateSettings(body, ctx.state.admin!.username);
  });

  router.post("/api/admin/google-ads-settings/feed-url", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = await deps.googleAds.rotateFeed(ctx.state.admin!.username);
  });

  router.get("/api/admin/google-ads/conversions.csv", async (ctx) => {
    answerCsv(ctx, await deps.googleAds.file(ctx.state.admin!.username));
  });

  return router;
}

/**
 * The file at its secret URL, for Google Ads' scheduled upload (no cookie). Every request counts
 * towards the address's rate limit before the secret is looked at, as the forms' do; a wrong secret
 * is a 404 that does not repeat the path (the secret), and the logs show only the route's template.
 */
export function googleAdsFeedRoutes(deps: {
  googleAds: GoogleAdsDomain;
  limiter: RateLimiter;
  clientIp: (ctx: Context) => string;
}) {
  const router = contractRouter("leads");

  router.get("/api/google-ads/conversions/{secret}.csv", async (ctx) => {
    await deps.limiter.hit("google-ads-feed", deps.clientIp(ctx), ctx.state.log);
    const csv = await deps.googleAds.feed(String(ctx.params.secret ?? ""));
    if (csv === undefined) throw new HttpError(404, "not_found", "Dit bestand bestaat niet.");
    answerCsv(ctx, csv);
  });

  return router;
}
