import { createHash, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversionSettings, CreateLeaseRequestResponse, LeaseRequest } from "@lease/contracts";
import { startAdPlatformReceiver, waitFor, type AdPlatformReceiver } from "@lease/platform/testing";
import { adminFetch, startFullStack, type FullStack } from "./stack";

// Through the whole backend: a quote request sent with marketing consent
// reaches the ad platforms' conversion APIs (local receivers that check each documented payload)
// with the page's event id, hashed contact details and the click ids; one without marketing consent
// reaches none; a signed contract carries its commission; a platform that is down loses nothing.

let stack: FullStack;
let meta: AdPlatformReceiver;
let tiktok: AdPlatformReceiver;
let snapchat: AdPlatformReceiver;
let cookie: string;
let sql: pg.Pool;
const META_PIXEL = "123456789012345";
const TIKTOK_PIXEL = "C4ABCDEFGHIJ12345";
const SNAP_PIXEL = "3f1c2a4e-9b7d-4c1e-8a2f-0d5e6b7c8a9f";
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36";
const sha = (v: string) => createHash("sha256").update(v).digest("hex");

beforeAll(async () => {
  [meta, tiktok, snapchat] = await Promise.all([
    startAdPlatformReceiver("meta"),
    startAdPlatformReceiver("tiktok"),
    startAdPlatformReceiver("snapchat"),
  ]);
  stack = await startFullStack({
    META_API_BASE_URL: meta.url,
    TIKTOK_API_BASE_URL: tiktok.url,
    SNAPCHAT_API_BASE_URL: snapchat.url,
    LEAD_RATE_LIMIT: "100000",
    WORKER_NICE: "0",
    // This host stands in for the load balancer before the gateway: its X-Forwarded-For is believed.
    TRUSTED_PROXIES: "127.0.0.1,::1",
  });
  cookie = await stack.adminCookie();
  sql = new pg.Pool({ connectionString: stack.db.url, max: 2 });
  expect(
    (
      await call("PUT", "/api/admin/company-settings", {
        companyName: "Conversie Lease BV",
        facebookPixelId: META_PIXEL,
        tiktokPixelId: TIKTOK_PIXEL,
        snapchatPixelId: SNAP_PIXEL,
      })
    ).status,
  ).toBe(200);
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await stack?.stop();
  await Promise.all([meta?.close(), tiktok?.close(), snapchat?.close()]);
});

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  adminFetch(stack, cookie, method, path, body, headers);

async function quote(
  email: string,
  marketing: boolean,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const res = await call(
    "POST",
    "/api/lease-requests",
    {
      carUrl: "https://www.autoscout24.nl/aanbod/kia-ev6",
      contactNumber: "06 12345678",
      email,
      marketingConsent: marketing,
      pageUrl: "https://lease.example.nl/",
      ...extra,
    },
    { "user-agent": UA, ...headers },
  );
  expect(res.status).toBe(201);
  return (await res.json()) as CreateLeaseRequestResponse;
}

const detail = async (id: string) =>
  (await (await call("GET", `/api/admin/lease-requests/${id}`)).json()) as LeaseRequest;

describe("conversions sent server-side to the ad platforms", () => {
  it("stores the platforms' tokens encrypted and answers only whether one is set", async () => {
    const token = "EAAB-meta-secret-token-0123456789";
    const put = await call("PUT", "/api/admin/conversion-settings", {
      meta: { enabled: true, accessToken: token },
      tiktok: { enabled: true, accessToken: "tiktok-secret-token-0123456789" },
      snapchat: { enabled: true, accessToken: "snap-secret-token-0123456789" },
    });
    expect(put.status).toBe(200);
    const text = await (await call("GET", "/api/admin/conversion-settings")).text();
    expect(text).not.toContain(token);
    const settings = JSON.parse(text) as ConversionSettings;
    expect(settings.meta).toEqual({ enabled: true, tokenSet: true, pixelIdSet: true });
    const stored = await sql.query<{ meta_access_token_encrypted: string }>(
      "SELECT meta_access_token_encrypted FROM settings.company_settings",
    );
    expect(stored.rows[0]!.meta_access_token_encrypted).not.toContain(token);
    const bad = await call("PUT", "/api/admin/conversion-settings", { meta: { accessToken: "kort" } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("Het toegangstoken is te kort");
  });

  it("sends a consented lead to each platform with the page's event id, and nothing for one without consent", async () => {
    const eventId = randomUUID();
    const clickedAt = Date.now() - 60_000;
    const consented = await quote("Lead.Een@Voorbeeld.NL ", true, {
      eventId,
      clickIds: { fbclid: "IwAR2fbclid-_x", ttclid: "E.C.P.ttclid1", ScCid: "sc-click-1", clickedAt },
      pageUrl: "https://lease.example.nl/?utm_source=facebook&fbclid=IwAR2fbclid-_x",
    });
    expect(consented.eventId).toBe(eventId);
    const refused = await quote("lead.drie@voorbeeld.nl", false, {
      eventId: randomUUID(),
      clickIds: { fbclid: "IwAR2-third" },
    });
    expect(refused.eventId).toBeUndefined();

    const metaEvent = await waitFor(
      () => meta.accepted().find((r) => r.event.event_id === eventId),
      20_000,
      "the Lead event at Meta",
    );
    expect(metaEvent.pixelId).toBe(META_PIXEL);
    expect(metaEvent.token).toBe("EAAB-meta-secret-token-0123456789");
    expect(metaEvent.event).toMatchObject({
      event_name: "Lead",
      action_source: "website",
      event_source_url: "https://lease.example.nl/",
      user_data: {
        em: [sha("lead.een@voorbeeld.nl")],
        ph: [sha("31612345678")],
        fbc: `fb.1.${clickedAt}.IwAR2fbclid-_x`,
        client_user_agent: UA,
      },
    });
    expect(metaEvent.event.custom_data).toBeUndefined();
    const tt = await waitFor(
      () => tiktok.accepted().find((r) => r.event.event_id === eventId),
      10_000,
      "TikTok",
    );
    expect(tt.event).toMatchObject({
      event: "SubmitForm",
      user: { email: sha("lead.een@voorbeeld.nl"), phone: sha("+31612345678"), ttclid: "E.C.P.ttclid1" },
      page: { url: "https://lease.example.nl/" },
    });
    const sc = await waitFor(
      () => snapchat.accepted().find((r) => r.event.event_id === eventId),
      10_000,
      "Snap",
    );
    expect(sc.event).toMatchObject({
      event_name: "SIGN_UP",
      action_source: "WEB",
      user_data: { sc_click_id: "sc-click-1" },
    });

    // The lead's detail shows each platform's delivery.
    const shown = await waitFor(
      async () => {
        const lead = await detail(consented.id);
        return lead.conversions.filter((c) => c.status === "sent").length === 3 ? lead : undefined;
      },
      10_000,
      "three deliveries shown as sent",
    );
    expect(shown.marketingConsent).toBe(true);
    expect(shown.conversions.map((c) => `${c.platform}:${c.event}`).sort()).toEqual([
      "meta:lead",
      "snapchat:lead",
      "tiktok:lead",
    ]);

    // Nothing was queued, or sent, for the lead without marketing consent.
    const queued = await sql.query(
      "SELECT 1 FROM leads.outbox WHERE job_name = 'conversions.send' AND payload->>'leadId' = $1",
      [refused.id],
    );
    expect(queued.rowCount).toBe(0);
    const all = [...meta.received, ...tiktok.received, ...snapchat.received];
    expect(JSON.stringify(all)).not.toContain(sha("lead.drie@voorbeeld.nl"));
    expect((await detail(refused.id)).conversions).toEqual([]);
  }, 60_000);

  it("carries Meta's fbp, the visitor's address, the hashed lead id and country, and drops the address once every platform took the arrival", async () => {
    const fbp = "fb.1.1764000000000.1098765432";
    const lead = await quote(
      "match@voorbeeld.nl",
      true,
      { fbp, clickIds: { fbclid: "IwAR-match" }, contactNumber: "+31 (0)6-1234 5678" },
      { "x-forwarded-for": "203.0.113.9" },
    );
    const stored = async () =>
      (await sql.query("SELECT ip FROM leads.conversion_client_ips WHERE lease_request_id = $1", [lead.id]))
        .rows;
    const m = await waitFor(
      () => meta.accepted().find((r) => r.event.event_id === lead.eventId),
      20_000,
      "the Lead event at Meta",
    );
    expect(m.event.user_data).toMatchObject({
      ph: [sha("31612345678")],
      fbp,
      client_ip_address: "203.0.113.9",
      external_id: [sha(lead.id)],
      country: [sha("nl")],
    });
    const tt = await waitFor(
      () => tiktok.accepted().find((r) => r.event.event_id === lead.eventId),
      10_000,
      "TikTok",
    );
    expect(tt.event.user).toMatchObject({
      ip: "203.0.113.9",
      external_id: sha(lead.id),
      phone: sha("+31612345678"),
    });
    const sc = await waitFor(
      () => snapchat.accepted().find((r) => r.event.event_id === lead.eventId),
      10_000,
      "Snap",
    );
    expect(sc.event.user_data).toMatchObject({
      client_ip_address: "203.0.113.9",
      external_id: [sha(lead.id)],
    });
    // Sent everywhere: the address is gone, and the panel names the keys each event carried.
    await waitFor(async () => (await stored()).length === 0, 10_000, "the address removed");
    const shown = await waitFor(
      async () => {
        const d = await detail(lead.id);
        return d.conversions.filter((c) => c.status === "sent").length === 3 ? d : undefined;
      },
      10_000,
      "three deliveries",
    );
    expect(shown.conversions.find((c) => c.platform === "meta")?.matchKeys).toEqual([
      "email",
      "phone",
      "click_id",
      "fbp",
      "country",
      "ip",
      "external_id",
    ]);
    expect(JSON.stringify(shown)).not.toContain("203.0.113.9");
    // Without marketing consent neither fbp nor the address is kept.
    const refused = await quote(
      "geen-match@voorbeeld.nl",
      false,
      { fbp },
      { "x-forwarded-for": "203.0.113.10" },
    );
    const row = await sql.query("SELECT fbp FROM leads.lease_requests WHERE id = $1", [refused.id]);
    expect(row.rows[0].fbp).toBeNull();
    expect(
      (await sql.query("SELECT 1 FROM leads.conversion_client_ips WHERE lease_request_id = $1", [refused.id]))
        .rowCount,
    ).toBe(0);
  }, 60_000);

  it("keeps the address while a platform still waits for the arrival, and sends it when the platform is back", async () => {
    await tiktok.down();
    const lead = await quote("wacht-ip@voorbeeld.nl", true, {}, { "x-forwarded-for": "198.51.100.23" });
    await waitFor(
      async () =>
        (await detail(lead.id)).conversions.find((c) => c.platform === "tiktok")?.status === "waiting",
      20_000,
      "TikTok waiting",
    );
    await waitFor(
      () => meta.accepted().find((r) => r.event.event_id === lead.eventId),
      10_000,
      "Meta took it",
    );
    const kept = await sql.query("SELECT ip FROM leads.conversion_client_ips WHERE lease_request_id = $1", [
      lead.id,
    ]);
    expect(kept.rows).toEqual([{ ip: "198.51.100.23" }]);
    await tiktok.up();
    const tt = await waitFor(
      () => tiktok.accepted().find((r) => r.event.event_id === lead.eventId),
      40_000,
      "TikTok after it came back",
    );
    expect((tt.event.user as { ip?: string }).ip).toBe("198.51.100.23");
    await waitFor(
      async () =>
        (await sql.query("SELECT 1 FROM leads.conversion_client_ips WHERE lease_request_id = $1", [lead.id]))
          .rowCount === 0,
      10_000,
      "the address removed once TikTok took it",
    );
  }, 90_000);

  it("sends a signed contract with its commission as value in EUR", async () => {
    const lead = await quote("getekend@voorbeeld.nl", true, { clickIds: { fbclid: "IwAR-signed" } });
    expect(
      (
        await call("PATCH", `/api/admin/lease-requests/${lead.id}/status`, {
          status: "offerte",
          monthlyAmount: 349.5,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call("PATCH", `/api/admin/lease-requests/${lead.id}/status`, {
          status: "getekend",
          commission: 1200,
        })
      ).status,
    ).toBe(200);
    const purchase = await waitFor(
      () =>
        meta
          .accepted()
          .find(
            (r) =>
              r.event.event_name === "Purchase" &&
              JSON.stringify(r.event).includes(sha("getekend@voorbeeld.nl")),
          ),
      20_000,
      "the contract at Meta",
    );
    expect(purchase.event.custom_data).toEqual({ value: 1200, currency: "EUR" });
    expect(purchase.event.event_id).not.toBe(lead.eventId);
    const offer = meta
      .accepted()
      .find(
        (r) =>
          r.event.event_name === "Offerte" && JSON.stringify(r.event).includes(sha("getekend@voorbeeld.nl")),
      );
    expect(offer?.event.custom_data).toBeUndefined();
  }, 60_000);

  it("keeps an event waiting while Meta is down for a minute and sends it once when Meta is back; the quote still answers 201 at once", async () => {
    await meta.down();
    const downAt = Date.now();
    const asked = performance.now();
    const lead = await quote("storing@voorbeeld.nl", true, { clickIds: { fbclid: "IwAR-down" } });
    // The form does not wait for any platform (generous for a busy CI host; a send would hang far longer).
    expect(performance.now() - asked).toBeLessThan(5_000);
    const waiting = await waitFor(
      async () => {
        const c = (await detail(lead.id)).conversions.find((d) => d.platform === "meta");
        return c?.status === "waiting" ? c : undefined;
      },
      20_000,
      "Meta's delivery waiting",
    );
    expect(waiting.error).toContain("Meta is niet bereikbaar");
    // A whole minute down: the delivery keeps waiting through its retries, never failed.
    while (Date.now() - downAt < 60_000) {
      const c = (await detail(lead.id)).conversions.find((d) => d.platform === "meta");
      expect(c?.status).toBe("waiting");
      await new Promise((r) => setTimeout(r, 5_000));
    }
    await meta.up();
    await waitFor(
      () => meta.accepted().find((r) => r.event.event_id === lead.eventId),
      60_000,
      "the event after Meta came back",
    );
    await waitFor(
      async () => {
        const c = (await detail(lead.id)).conversions.find((d) => d.platform === "meta");
        return c?.status === "sent";
      },
      10_000,
      "Meta's delivery sent",
    );
    expect(meta.accepted().filter((r) => r.event.event_id === lead.eventId)).toHaveLength(1);
  }, 180_000);

  it("shows a refusal with the platform's own message, and a retry sends it again", async () => {
    snapchat.answer(400);
    const lead = await quote("geweigerd@voorbeeld.nl", true);
    const failed = await waitFor(
      async () => {
        const c = (await detail(lead.id)).conversions.find((d) => d.platform === "snapchat");
        return c?.status === "failed" ? c : undefined;
      },
      20_000,
      "Snapchat's delivery failed",
    );
    expect(failed.error).toBe("Snapchat weigerde het event (400): scripted 400");
    const none = await call("POST", `/api/admin/lease-requests/${lead.id}/conversions/retry`, {
      platform: "meta",
    });
    expect(none.status).toBe(409);
    const retry = await call("POST", `/api/admin/lease-requests/${lead.id}/conversions/retry`, {
      platform: "snapchat",
    });
    expect(retry.status).toBe(200);
    await waitFor(
      () => snapchat.accepted().find((r) => r.event.event_id === lead.eventId),
      20_000,
      "sent again",
    );
    await waitFor(
      async () => {
        const c = (await detail(lead.id)).conversions.find((d) => d.platform === "snapchat");
        return c?.status === "sent";
      },
      10_000,
      "Snapchat's delivery sent",
    );
    expect(meta.received.filter((r) => r.event.event_id === lead.eventId)).toHaveLength(1);
  }, 60_000);

  it("erases the click ids, deliveries and queued conversions with the person's lead", async () => {
    const lead = await quote("wissen@voorbeeld.nl", true, { clickIds: { fbclid: "IwAR-erase" } });
    await waitFor(async () => (await detail(lead.id)).conversions.length === 3, 20_000, "three deliveries");
    expect(
      (
        await call("PATCH", `/api/admin/lease-requests/${lead.id}/status`, {
          status: "offerte",
          monthlyAmount: 400,
        })
      ).status,
    ).toBe(200);
    const erased = await call("POST", "/api/admin/privacy/erase", {
      email: "wissen@voorbeeld.nl",
      confirm: "WISSEN",
    });
    expect(erased.status).toBe(200);
    for (const table of ["lease_requests", "conversion_deliveries", "conversion_events", "outbox"]) {
      const column =
        table === "lease_requests"
          ? "id::text"
          : table === "outbox"
            ? "payload->>'leadId'"
            : "lease_request_id::text";
      const left = await sql.query(`SELECT 1 FROM leads.${table} WHERE ${column} = $1`, [lead.id]);
      expect(left.rowCount, table).toBe(0);
    }
    const text = JSON.stringify(await (await call("GET", "/api/admin/lease-requests?q=IwAR-erase")).json());
    expect(text).not.toContain("wissen@voorbeeld.nl");
  }, 60_000);

  it("sends one test event to each platform's test tool with its code and answers the platform's words", async () => {
    const test = (platform: string, body: unknown) =>
      call("POST", `/api/admin/conversion-settings/${platform}/test`, body, { "user-agent": UA });
    const deliveries = (await sql.query("SELECT count(*)::int AS n FROM conversions.deliveries")).rows[0].n;
    const before = {
      meta: meta.received.length,
      tiktok: tiktok.received.length,
      snapchat: snapchat.received.length,
    };
    const m = await test("meta", { testEventCode: "TEST12345" });
    expect(m.status).toBe(200);
    expect(await m.json()).toEqual({
      platform: "meta",
      ok: true,
      status: 200,
      message: "Meta ontving 1 testgebeurtenis(sen) (events_received: 1).",
      matchKeys: ["email", "phone", "country", "external_id"],
    });
    expect(meta.received.slice(before.meta)).toEqual([
      expect.objectContaining({
        testEventCode: "TEST12345",
        event: expect.objectContaining({ event_name: "Lead" }),
      }),
    ]);
    const t = await (await test("tiktok", { testEventCode: "TEST67890" })).json();
    expect(t).toMatchObject({ platform: "tiktok", ok: true, status: 200, message: "OK" });
    expect(tiktok.received.slice(before.tiktok).map((r) => r.testEventCode)).toEqual(["TEST67890"]);
    const sc = await (await test("snapchat", {})).json();
    expect(sc).toMatchObject({ platform: "snapchat", ok: true, status: 200, message: "Snapchat: VALID." });
    expect(snapchat.received.slice(before.snapchat).map((r) => r.testEventCode)).toEqual(["validate"]);
    // A scripted refusal comes back with the platform's own message.
    meta.answer(400);
    const refused = await (await test("meta", { testEventCode: "TEST12345" })).json();
    expect(refused).toMatchObject({
      ok: false,
      status: 400,
      message: "Meta weigerde het event (400): scripted 400",
    });
    // Meta and TikTok without a code would count a made-up lead: refused before anything is sent.
    const count = meta.received.length;
    const noCode = await test("meta", {});
    expect(noCode.status).toBe(400);
    expect(((await noCode.json()) as { message: string }).message).toBe(
      "Vul de testcode uit Meta in (bij Testgebeurtenissen)",
    );
    const badCode = await test("tiktok", { testEventCode: "<script>" });
    expect(badCode.status).toBe(400);
    expect(JSON.stringify(await badCode.json())).toContain("4 tot 64 letters en cijfers");
    expect((await test("twitter", {})).status).toBe(400);
    expect(meta.received.length).toBe(count);
    // A test event is no lead's: no delivery is recorded for it.
    expect((await sql.query("SELECT count(*)::int AS n FROM conversions.deliveries")).rows[0].n).toBe(
      deliveries,
    );
  });

  it("bounds an admin's test events: beyond 10 a minute a 429 in Dutch, and nothing reaches the platform", async () => {
    const test = () => call("POST", "/api/admin/conversion-settings/snapchat/test", {}, { "user-agent": UA });
    // The test before this one sent some of this minute's already: at most 10 more get through.
    let refused: Response | undefined;
    for (let i = 0; i < 11 && !refused; i++) {
      const sent = snapchat.received.length;
      const res = await test();
      if (res.status === 429) {
        refused = res;
        expect(snapchat.received.length, "a refused test event is not sent").toBe(sent);
      } else {
        expect(res.status).toBe(200);
        expect(snapchat.received.length).toBe(sent + 1);
      }
    }
    expect(refused?.status, "the 11th test event of a minute is refused").toBe(429);
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused!.json()) as { message: string }).message).toBe(
      "Te veel testgebeurtenissen in korte tijd. Probeer het over een minuut opnieuw.",
    );
  });
});
