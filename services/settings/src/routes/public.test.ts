// The site's settings as every visitor's browser reads them (public.ts): the company details and
// the theme, with an ETag and Cache-Control, 304 for a matching If-None-Match, and a change made
// on another replica served once its settings-changed event arrives.
import { describe, expect, it } from "vitest";
import { CHANNELS, DEFAULT_COMPANY_NAME, THEME_DEFAULTS } from "@lease/contracts";
import { createLogger, createPool } from "@lease/platform";
import { useSettingsHarness } from "../testing";

const h = useSettingsHarness();

const put = (path: string, body: unknown) => h.api(path, { method: "PUT", body, cookie: h.cookie });

describe("GET /api/company-settings · GET /api/theme-settings", () => {
  describe("public settings", () => {
    it("serves the default company name and the default theme before anything was saved", async () => {
      const company = await (await h.api("/api/company-settings")).json();
      expect(company.companyName).toBe(DEFAULT_COMPANY_NAME);
      expect(company.updatedAt).toBeNull();
      const theme = await (await h.api("/api/theme-settings")).json();
      expect(theme).toMatchObject(THEME_DEFAULTS);
    });

    it("answers with an ETag and Cache-Control, and 304 for a matching If-None-Match", async () => {
      for (const path of ["/api/company-settings", "/api/theme-settings"]) {
        const first = await h.api(path);
        expect(first.status).toBe(200);
        expect(first.headers.get("cache-control")).toBe("public, no-cache");
        const etag = first.headers.get("etag");
        expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
        const again = await h.api(path, { headers: { "if-none-match": etag! } });
        expect(again.status).toBe(304);
        expect(await again.text()).toBe("");
        const stale = await h.api(path, { headers: { "if-none-match": '"other"' } });
        expect(stale.status).toBe(200);
      }
    });

    it("gives a new ETag after a change", async () => {
      const before = (await h.api("/api/theme-settings")).headers.get("etag");
      await put("/api/admin/theme-settings", { accentColor: "#123456" });
      const after = await h.api("/api/theme-settings", { headers: { "if-none-match": before! } });
      expect(after.status).toBe(200);
      expect((await after.json()).accentColor).toBe("#123456");
      await h.api("/api/admin/theme-settings/reset", { method: "POST", cookie: h.cookie });
    });

    it("serves a change written by another replica once its settings-changed event arrives", async () => {
      await h.api("/api/theme-settings"); // this replica now holds the theme in memory
      const pool = createPool(h.db.url, createLogger("test", "silent"));
      const redis = h.sessionDeps.redis;
      try {
        await pool.query("UPDATE settings.theme_settings SET accent_color = '#ABCDEF'");
        await redis.publish(
          h.sessionDeps.keys("events", CHANNELS.settingsChanged),
          JSON.stringify({ kind: "theme", at: new Date().toISOString() }),
        );
        await expect
          .poll(async () => (await (await h.api("/api/theme-settings")).json()).accentColor)
          .toBe("#ABCDEF");
      } finally {
        await pool.end();
        await h.api("/api/admin/theme-settings/reset", { method: "POST", cookie: h.cookie });
      }
    });
  });
});
