import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuditLogPage,
  GoogleAdsFeedUrl,
  GoogleAdsSettings,
  type CreateLeaseRequestResponse,
  type FormClickIds,
} from "@lease/contracts";
import { waitFor } from "@lease/platform/testing";
import { adminFetch, startFullStack, type FullStack } from "./stack";

// Google Ads through the gateway: the offline conversion file in Google's click
// conversions template for the panel's download (admins only) and at a secret URL Google Ads'
// scheduled upload fetches without a cookie. Only consented leads with a Google click id of the
// last 90 days are in it, with their offer and contract; an erased person's lead is not. A wrong
// secret is a 404, a new URL turns the old one into a 404 at once, and no log line holds a secret.

let stack: FullStack;
let cookie: string;
let sql: pg.Pool;
const logLines: string[] = [];
const TEMPLATE_LINES = [
  "Parameters:TimeZone=Europe/Amsterdam",
  "Google Click ID,GBRAID,WBRAID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency,Ad User Data,Ad Personalization",
];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  // Debug: the request log names every path; a secret URL's must show only its template.
  stack = await startFullStack({ LEAD_RATE_LIMIT: "100000" }, { logger: pino({ level: "debug" }, sink) });
  cookie = await stack.adminCookie();
  sql = new pg.Pool({ connectionString: stack.db.url, max: 2 });
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await stack?.stop();
});

const call = (method: string, path: string, body?: unknown) => adminFetch(stack, cookie, method, path, body);
/** A request as Google Ads' fetcher makes it: no cookie, no origin. */
const fetchAsGoogle = (path: string) => fetch(`${stack.gateway.url}${path}`);

async function quote(email: string, marketing: boolean, clickIds?: FormClickIds): Promise<string> {
  const res = await call("POST", "/api/lease-requests", {
    carUrl: "https://www.autoscout24.nl/aanbod/skoda-enyaq",
    contactNumber: "06 12345678",
    email,
    marketingConsent: marketing,
    ...(clickIds ? { clickIds } : {}),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as CreateLeaseRequestResponse).id;
}

async function stage(id: string, body: Record<string, unknown>) {
  expect((await call("PATCH", `/api/admin/lease-requests/${id}/status`, body)).status).toBe(200);
}

async function download(): Promise<string> {
  const res = await call("GET", "/api/admin/google-ads/conversions.csv");
  expect(res.status).toBe(200);
  return res.text();
}

async function rotate(): Promise<string> {
  const res = await call("POST", "/api/admin/google-ads-settings/feed-url", {});
  expect(res.status).toBe(200);
  return GoogleAdsFeedUrl.parse(await res.json()).path;
}

/** The rows of the file (after the parameter and header lines), without the last empty line. */
const rowsOf = (csv: string) => csv.split("\r\n").slice(2, -1);

/** "2026-07-01 14:00:00": the lead's arrival in Amsterdam time, as the file writes it. */
async function arrival(id: string): Promise<string> {
  const { rows } = await sql.query<{ at: string }>(
    `SELECT to_char(created_at AT TIME ZONE 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI:SS') AS at
       FROM leads.lease_requests WHERE id = $1`,
    [id],
  );
  return rows[0]!.at;
}

const randomSecret = () => randomBytes(32).toString("base64url");
/** The secret in a secret URL's path. */
const secretOf = (path: string) => path.slice("/api/google-ads/conversions/".length, -".csv".length);

describe("the Google Ads offline conversion file", () => {
  it("answers 404 at any secret URL before one is made, without repeating it", async () => {
    const secret = randomSecret();
    const res = await fetchAsGoogle(`/api/google-ads/conversions/${secret}.csv`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(secret);
  });

  it("lists consented leads with a Google click id of the last 90 days, their offer and contract (value: the commission)", async () => {
    const clickedAt = Date.now() - 60_000;
    const signed = await quote("getekend@gads.nl", true, { gclid: "Cj0KCQ-signed_1", clickedAt });
    await stage(signed, { status: "offerte", monthlyAmount: 349.5 });
    await stage(signed, { status: "getekend", commission: 1200.5 });
    const iphone = await quote("iphone@gads.nl", true, { wbraid: "WBRAID-iphone_1" });
    await quote("geen-toestemming@gads.nl", false, { gclid: "Cj0KCQ-no-consent" });
    await quote("meta@gads.nl", true, { fbclid: "IwAR-meta-only" });
    const old = await quote("oud@gads.nl", true, { gclid: "Cj0KCQ-too-old" });
    await sql.query("UPDATE leads.lease_requests SET created_at = now() - interval '91 days' WHERE id = $1", [
      old,
    ]);
    const lateClick = await quote("late@gads.nl", true, {
      gclid: "Cj0KCQ-click-too-old",
      clickedAt: Date.now() - 91 * 24 * 3600 * 1000,
    });
    expect(lateClick).toBeTruthy();

    expect((await fetchAsGoogle("/api/admin/google-ads/conversions.csv")).status).toBe(401);
    const res = await call("GET", "/api/admin/google-ads/conversions.csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="google-ads-conversies.csv"');
    const csv = await res.text();
    expect(csv.split("\r\n").slice(0, 2)).toEqual(TEMPLATE_LINES);
    const rows = rowsOf(csv);
    const { rows: events } = await sql.query<{ event: string; at: string }>(
      `SELECT event, to_char(at AT TIME ZONE 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI:SS') AS at
         FROM leads.conversion_events WHERE lease_request_id = $1`,
      [signed],
    );
    const at = (event: string) => events.find((e) => e.event === event)!.at;
    expect(rows).toEqual(
      expect.arrayContaining([
        `Cj0KCQ-signed_1,,,Offerteaanvraag,${await arrival(signed)},,EUR,Granted,Granted`,
        `Cj0KCQ-signed_1,,,Offerte verstuurd,${at("offerte")},,EUR,Granted,Granted`,
        `Cj0KCQ-signed_1,,,Contract getekend,${at("getekend")},1200.50,EUR,Granted,Granted`,
        `,,WBRAID-iphone_1,Offerteaanvraag,${await arrival(iphone)},,EUR,Granted,Granted`,
      ]),
    );
    expect(rows).toHaveLength(4);
    for (const absent of ["no-consent", "IwAR-meta-only", "too-old", "click-too-old"])
      expect(csv).not.toContain(absent);
  });

  it("uses the conversion names set in the panel, and refuses one Google Ads could not hold", async () => {
    const bad = await call("PUT", "/api/admin/google-ads-settings", {
      conversionNames: { lead: "=HYPERLINK()" },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain(
      "Een conversienaam mag niet beginnen met =, +, - of @",
    );
    const res = await call("PUT", "/api/admin/google-ads-settings", {
      conversionNames: { lead: " Lease-aanvraag ", getekend: "Lease, getekend" },
    });
    expect(res.status).toBe(200);
    expect(GoogleAdsSettings.parse(await res.json()).conversionNames).toEqual({
      lead: "Lease-aanvraag",
      offerte: "Offerte verstuurd",
      getekend: "Lease, getekend",
    });
    const rows = rowsOf(await download());
    expect(rows.filter((r) => r.includes(",Lease-aanvraag,"))).toHaveLength(2);
    expect(rows.filter((r) => r.includes(',"Lease, getekend",'))).toHaveLength(1);
  });

  it("never holds a formula, split on commas or on semicolons (Dutch Excel): names and click ids are refused", async () => {
    const attack = "Offerteaanvraag;=cmd|' /C calc'!A0;";
    for (const name of [attack, "Lead, -2+3", "Lead;@SUM(A1)", "Lead ; =1+1"]) {
      const bad = await call("PUT", "/api/admin/google-ads-settings", { conversionNames: { lead: name } });
      expect(bad.status, name).toBe(400);
      expect(((await bad.json()) as { message: string }).message, name).toBe(
        "Een conversienaam mag na een komma of puntkomma niet verdergaan met =, +, - of @; pas de naam ook in Google Ads aan",
      );
    }
    // At intake: a Google click id holds only what Google issues, never a "-" first.
    for (const gclid of ["-2+3", "-Cj0KCQ", "Cj0;=1+1", "Cj0,=1", "Cj0.x"]) {
      const res = await call("POST", "/api/lease-requests", {
        carUrl: "https://www.autoscout24.nl/aanbod/skoda-enyaq",
        contactNumber: "06 12345678",
        email: "formule@gads.nl",
        marketingConsent: true,
        clickIds: { gclid },
      });
      expect(res.status, gclid).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(
        "Een klik-id van de advertentie is ongeldig",
      );
    }
    // One stored before these checks is not written (the lead's arrival would be a formula cell).
    const old = await quote("oud-formule@gads.nl", true, { gclid: "Cj0KCQ-stored_1" });
    await sql.query(`UPDATE leads.lease_requests SET click_ids = '{"gclid": "-2+3"}' WHERE id = $1`, [old]);
    const csv = await download();
    for (const line of csv.split("\r\n"))
      for (const cell of line.split(/[,;]/)) expect(cell, line).not.toMatch(/^\s*[=+\-@]/);
    expect(csv).not.toContain("-2+3");
  });

  it("serves the same file at a secret URL without a cookie; a wrong secret is 404; a new URL makes the old one 404 at once", async () => {
    // A state change needs JSON, as every other one.
    const plain = await adminFetch(
      stack,
      cookie,
      "POST",
      "/api/admin/google-ads-settings/feed-url",
      undefined,
      {
        "content-type": "text/plain",
      },
    );
    expect(plain.status).toBe(415);

    const first = await rotate();
    expect(first).toMatch(/^\/api\/google-ads\/conversions\/[A-Za-z0-9_-]{43}\.csv$/);
    const fetched = await fetchAsGoogle(first);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(fetched.headers.get("cache-control")).toBe("no-store");
    expect(await fetched.text()).toBe(await download());

    const wrong = randomSecret();
    const refused = await fetchAsGoogle(`/api/google-ads/conversions/${wrong}.csv`);
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain(wrong);
    expect((await fetchAsGoogle("/api/google-ads/conversions/kort.csv")).status).toBe(404);

    const settingsText = await (await call("GET", "/api/admin/google-ads-settings")).text();
    const settings = GoogleAdsSettings.parse(JSON.parse(settingsText));
    expect(settings).toMatchObject({ feedUrlSet: true, importWindowDays: 90 });
    expect(settings.feedFetchedAt).not.toBeNull();
    expect(settingsText).not.toContain(secretOf(first));

    const second = await rotate();
    expect(second).not.toBe(first);
    expect((await fetchAsGoogle(first)).status).toBe(404);
    expect((await fetchAsGoogle(second)).status).toBe(200);

    // Stored as a hash only; the rotations are in the audit log, without the secret.
    const stored = await sql.query("SELECT * FROM leads.google_ads_feed");
    expect(JSON.stringify(stored.rows)).not.toContain(secretOf(second));
    const audited = await waitFor(
      async () => {
        const res = await call("GET", "/api/admin/audit-log?action=settings.google_ads_url_rotated&limit=10");
        const items = AuditLogPage.parse(await res.json()).items;
        return items.length === 2 ? items : undefined;
      },
      15_000,
      "two rotations in the audit log",
    );
    expect(audited.every((e) => e.actor === "admin")).toBe(true);
    expect(JSON.stringify(audited)).not.toContain(secretOf(first));
    expect(JSON.stringify(audited)).not.toContain(secretOf(second));

    // The request log (debug) names each call by path, a secret URL only by its template.
    const log = logLines.join("");
    expect(log).toContain("/api/google-ads/conversions/{secret}.csv");
    for (const secret of [secretOf(first), secretOf(second), wrong]) expect(log).not.toContain(secret);
  });

  it("has no row for an erased person's lead: the click ids go with it", async () => {
    const id = await quote("wissen@gads.nl", true, { gclid: "Cj0KCQ-erase-me" });
    await stage(id, { status: "offerte", monthlyAmount: 500 });
    expect(rowsOf(await download()).filter((r) => r.startsWith("Cj0KCQ-erase-me,"))).toHaveLength(2);
    const erased = await call("POST", "/api/admin/privacy/erase", {
      email: "wissen@gads.nl",
      confirm: "WISSEN",
    });
    expect(erased.status).toBe(200);
    expect(await download()).not.toContain("Cj0KCQ-erase-me");
    const left = await sql.query("SELECT 1 FROM leads.lease_requests WHERE click_ids->>'gclid' = $1", [
      "Cj0KCQ-erase-me",
    ]);
    expect(left.rowCount).toBe(0);
  });
});
