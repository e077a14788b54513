import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GoogleAdsFeedUrl } from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import { createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import { GOOGLE_ADS_CONVERSIONS_SQL } from "../repositories/google-ads";
import { startLeads } from "../service";
import { adminCookie } from "../testing";

// The Google Ads file's secret URL is a public route: each address gets the forms' rate limit
// there too, and the file's query reads only the consented leads with a Google click id (its
// partial index), however many other leads there are. The whole path: tests/system/google-ads.test.ts.

let db: TestDatabase;
let svc: RunningService;
let cookie: string;
let sql: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase("googleads");
  const env = testEnv({ DATABASE_URL: db.url, LEAD_RATE_LIMIT: "3" });
  svc = await startLeads(env);
  cookie = await adminCookie(env);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});

afterAll(async () => {
  await sql?.end();
  await svc?.stop();
  await db?.drop();
});

/** GET as Google's fetcher through the gateway: `ip` is the client address the gateway forwards. */
const fetchFeed = (path: string, ip: string) =>
  fetch(`${svc.url}${path}`, { headers: { "x-forwarded-for": ip } });

describe("GET /api/google-ads/conversions/{secret}.csv", () => {
  describe("the Google Ads file's secret URL", () => {
    it("counts every request of an address toward the forms' limit: a fourth in the window is 429, right secret or not", async () => {
      const rotated = await fetch(`${svc.url}/api/admin/google-ads-settings/feed-url`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: "{}",
      });
      expect(rotated.status).toBe(200);
      const { path } = GoogleAdsFeedUrl.parse(await rotated.json());
      const wrong = "/api/google-ads/conversions/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.csv";
      for (let i = 0; i < 3; i++) expect((await fetchFeed(wrong, "203.0.113.7")).status).toBe(404);
      const limited = await fetchFeed(path, "203.0.113.7");
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await fetchFeed(path, "203.0.113.8")).status).toBe(200);
    });
  });
});

describe("PUT /api/admin/google-ads-settings", () => {
  describe("the Google Ads settings", () => {
    it("is audited when the conversion names change (the fields, never the names)", async () => {
      const res = await fetch(`${svc.url}/api/admin/google-ads-settings`, {
        method: "PUT",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ conversionNames: { offerte: "Offerte gemaild", lead: "Offerteaanvraag" } }),
      });
      expect(res.status).toBe(200);
      const { rows } = await sql.query<{ payload: { action: string; detail: string } }>(
        "SELECT payload FROM leads.outbox WHERE payload->>'action' = 'settings.google_ads_changed'",
      );
      // The lead's name is the default already: only the offer's changed.
      expect(rows.map((r) => r.payload.detail)).toEqual(["googleAdsOfferteConversion"]);
    });
  });
});

describe("GET /api/google-ads/conversions/{secret}.csv · GET /api/admin/google-ads/conversions.csv", () => {
  describe("the file's query", () => {
    it("reads the consented leads with a Google click id through their partial index, not the whole table", async () => {
      await sql.query(`
        INSERT INTO leads.lease_requests (car_url, contact_number, email, email_key, phone_key, marketing_consent, click_ids)
        SELECT 'https://example.nl/auto', '0612345678', 'l' || n || '@x.nl', 'l' || n || '@x.nl', '0612345678',
               n % 10 = 0, CASE WHEN n % 10 = 0 THEN '{"fbclid":"IwAR"}'::jsonb END
          FROM generate_series(1, 20000) AS n`);
      await sql.query(`
        INSERT INTO leads.lease_requests (car_url, contact_number, email, email_key, phone_key, marketing_consent, click_ids)
        SELECT 'https://example.nl/auto', '0612345678', 'g' || n || '@x.nl', 'g' || n || '@x.nl', '0612345678',
               true, jsonb_build_object('gclid', 'Cj0' || n)
          FROM generate_series(1, 20) AS n`);
      await sql.query("ANALYZE leads.lease_requests");
      const since = new Date(Date.now() - 90 * 24 * 3600 * 1000);
      const { rows } = await sql.query<{ "QUERY PLAN": unknown }>(
        `EXPLAIN (FORMAT JSON) ${GOOGLE_ADS_CONVERSIONS_SQL}`,
        [since, since.getTime()],
      );
      const scans: { type: string; index?: string }[] = [];
      const walk = (node: Record<string, unknown>) => {
        if (node["Relation Name"] === "lease_requests")
          scans.push({ type: String(node["Node Type"]), index: node["Index Name"] as string | undefined });
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk((rows[0]!["QUERY PLAN"] as { Plan: Record<string, unknown> }[])[0]!.Plan);
      expect(scans.length).toBeGreaterThan(0);
      for (const scan of scans) {
        expect(scan.type).not.toBe("Seq Scan");
        expect(scan.index).toBe("lease_requests_google_click_idx");
      }
    });
  });
});

describe("GET /api/admin/google-ads/conversions.csv", () => {
  describe("the panel's download", () => {
    // Runs after "the file's query", whose 20 consented leads with a gclid are each a lead conversion.

    it("is audited with who took it and how many conversions it held", async () => {
      const res = await fetch(`${svc.url}/api/admin/google-ads/conversions.csv`, { headers: { cookie } });
      expect(res.status).toBe(200);
      const lines = (await res.text()).trim().split("\n");
      expect(lines[0]).toMatch(/^Parameters:TimeZone=/);
      expect(lines.length - 2).toBe(20);
      const { rows } = await sql.query<{ payload: { actor: string; action: string; detail: string } }>(
        "SELECT payload FROM leads.outbox WHERE payload->>'action' = 'google_ads.downloaded'",
      );
      expect(rows.map((r) => [r.payload.actor, r.payload.detail])).toEqual([["admin", "20 conversies"]]);
    });
  });
});

describe("GET /api/google-ads/conversions/{secret}.csv", () => {
  describe("the panel's download", () => {
    // Runs after "the file's query", whose 20 consented leads with a gclid are each a lead conversion.

    it("is not audited when Google Ads fetches it at the secret URL (its fetch time is shown instead)", async () => {
      const rotated = await fetch(`${svc.url}/api/admin/google-ads-settings/feed-url`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: "{}",
      });
      const { path } = GoogleAdsFeedUrl.parse(await rotated.json());
      expect((await fetchFeed(path, "203.0.113.9")).status).toBe(200);
      const { rows } = await sql.query(
        "SELECT 1 FROM leads.outbox WHERE payload->>'action' = 'google_ads.downloaded'",
      );
      expect(rows).toHaveLength(1);
    });
  });
});
