import { createHash, generateKeyPairSync } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversionSettings, CreateLeaseRequestResponse, LeaseRequest } from "@lease/contracts";
import { startGoogleReceiver, waitFor, type GoogleReceiver } from "@lease/platform/testing";
import { adminFetch, startFullStack, type FullStack } from "./stack";

// Through the whole backend: Google's conversions through the Data Manager API,
// with a local stand-in for Google's OAuth token endpoint (it verifies the service account's JWT
// signature) and for events:ingest (it checks the documented request and the bearer token it
// issued). A consented lead with a gclid, one with a wbraid and one without any click id each
// arrive with hashed e-mail and phone and consent granted; a contract carries its commission; a
// lead without marketing consent sends nothing; Google down keeps the event waiting, and a
// refused credential fails it with Google's words until the panel's retry after a fix.

let stack: FullStack;
let google: GoogleReceiver;
let cookie: string;
let sql: pg.Pool;
const sha = (v: string) => createHash("sha256").update(v).digest("hex");
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const CLIENT_EMAIL = "conversies@lease-test.iam.gserviceaccount.com";
const KEY_FILE = JSON.stringify({
  type: "service_account",
  project_id: "lease-test",
  private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  client_email: CLIENT_EMAIL,
});
const ACTIONS = { lead: "7001", offerte: "7002", getekend: "7003" };

beforeAll(async () => {
  google = await startGoogleReceiver({
    serviceAccount: {
      clientEmail: CLIENT_EMAIL,
      publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    },
    oauthClient: {
      clientId: "cid.apps.googleusercontent.com",
      clientSecret: "GOCSPX-x",
      refreshToken: "1//r",
    },
  });
  stack = await startFullStack({
    GOOGLE_CONVERSIONS_API_BASE_URL: google.url,
    GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
    LEAD_RATE_LIMIT: "100000",
    WORKER_NICE: "0",
  });
  cookie = await stack.adminCookie();
  sql = new pg.Pool({ connectionString: stack.db.url, max: 2 });
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await stack?.stop();
  await google?.close();
});

const call = (method: string, path: string, body?: unknown) => adminFetch(stack, cookie, method, path, body);

async function quote(email: string, marketing: boolean, extra: Record<string, unknown> = {}) {
  const res = await call("POST", "/api/lease-requests", {
    carUrl: "https://www.autoscout24.nl/aanbod/skoda-enyaq",
    contactNumber: "+31 (0)6-1234 5678",
    email,
    marketingConsent: marketing,
    ...extra,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as CreateLeaseRequestResponse;
}
const detail = async (id: string) =>
  (await (await call("GET", `/api/admin/lease-requests/${id}`)).json()) as LeaseRequest;
const arrivalAtGoogle = (eventId: string | undefined) =>
  waitFor(
    () => google.accepted().find((r) => r.event.transactionId === eventId),
    20_000,
    "the arrival at Google",
  );
const CONSENT = { adUserData: "CONSENT_GRANTED", adPersonalization: "CONSENT_GRANTED" };

describe("Google's conversions through the Data Manager API", () => {
  it("stores the service account key encrypted and answers only credentialsSet", async () => {
    const put = await call("PUT", "/api/admin/conversion-settings", {
      google: {
        enabled: true,
        customerId: "123-456-7890",
        conversionActions: ACTIONS,
        credentials: { serviceAccountKey: KEY_FILE },
      },
    });
    expect(put.status).toBe(200);
    const text = await (await call("GET", "/api/admin/conversion-settings")).text();
    expect(text).not.toContain("PRIVATE KEY");
    expect((JSON.parse(text) as ConversionSettings).google).toEqual({
      enabled: true,
      customerId: "1234567890",
      conversionActions: ACTIONS,
      credentialsSet: true,
      credentialsKind: "serviceAccount",
    });
  });

  it("sends arrivals with a gclid, a wbraid and no click id, each hashed and with consent granted; nothing without consent", async () => {
    const clickedAt = Date.now() - 60_000;
    const gclid = await quote(" Jan.Klik+ads@Gmail.com", true, {
      clickIds: { gclid: "Cj0KCQ-gclid_1", clickedAt },
    });
    const iphone = await quote("iphone@voorbeeld.nl", true, { clickIds: { wbraid: "WBRAID-1", clickedAt } });
    const direct = await quote("Zonder.Klik@Voorbeeld.NL", true);
    const refused = await quote("geen-toestemming@voorbeeld.nl", false, {
      clickIds: { gclid: "Cj0-refused" },
    });

    const g = await arrivalAtGoogle(gclid.eventId);
    expect(g.destination).toEqual({ accountId: "1234567890", conversionActionId: ACTIONS.lead });
    expect(g.encoding).toBe("HEX");
    expect(g.event).toMatchObject({
      eventSource: "WEB",
      adIdentifiers: { gclid: "Cj0KCQ-gclid_1" },
      userData: {
        userIdentifiers: [{ emailAddress: sha("janklik@gmail.com") }, { phoneNumber: sha("+31612345678") }],
      },
      consent: CONSENT,
    });
    expect(String(g.event.eventTimestamp)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
    expect(g.event.conversionValue).toBeUndefined();
    expect((await arrivalAtGoogle(iphone.eventId)).event.adIdentifiers).toEqual({ wbraid: "WBRAID-1" });
    const d = await arrivalAtGoogle(direct.eventId);
    expect(d.event.adIdentifiers).toBeUndefined();
    expect(d.event).toMatchObject({
      userData: {
        userIdentifiers: [
          { emailAddress: sha("zonder.klik@voorbeeld.nl") },
          { phoneNumber: sha("+31612345678") },
        ],
      },
      consent: CONSENT,
    });
    expect(google.grants).toEqual(["urn:ietf:params:oauth:grant-type:jwt-bearer"]);

    const shown = await waitFor(
      async () => {
        const lead = await detail(gclid.id);
        return lead.conversions.find((c) => c.platform === "google" && c.status === "sent")
          ? lead
          : undefined;
      },
      10_000,
      "Google's delivery on the lead",
    );
    expect(shown.conversions.find((c) => c.platform === "google")?.matchKeys).toEqual([
      "email",
      "phone",
      "click_id",
    ]);
    expect(
      (
        await sql.query(
          "SELECT 1 FROM leads.outbox WHERE job_name = 'conversions.send' AND payload->>'leadId' = $1",
          [refused.id],
        )
      ).rowCount,
    ).toBe(0);
    expect(JSON.stringify(google.received)).not.toContain(sha("geen-toestemming@voorbeeld.nl"));
    expect(google.rejected).toEqual([]);
  }, 60_000);

  it("sends a signed contract to its own action with the commission in EUR, once", async () => {
    const lead = await quote("contract@voorbeeld.nl", true, { clickIds: { gclid: "Cj0-contract" } });
    await arrivalAtGoogle(lead.eventId);
    for (const body of [
      { status: "offerte", monthlyAmount: 349.5 },
      { status: "getekend", commission: 1200 },
    ])
      expect((await call("PATCH", `/api/admin/lease-requests/${lead.id}/status`, body)).status).toBe(200);
    const signed = await waitFor(
      () =>
        google
          .accepted()
          .find(
            (r) =>
              r.destination.conversionActionId === ACTIONS.getekend &&
              (r.event.adIdentifiers as { gclid?: string } | undefined)?.gclid === "Cj0-contract",
          ),
      20_000,
      "the contract at Google",
    );
    expect(signed.event).toMatchObject({ conversionValue: 1200, currency: "EUR", consent: CONSENT });
    expect(signed.event.transactionId).not.toBe(lead.eventId);
    const offer = google
      .accepted()
      .filter(
        (r) =>
          r.destination.conversionActionId === ACTIONS.offerte &&
          JSON.stringify(r.event).includes("Cj0-contract"),
      );
    expect(offer).toHaveLength(1);
    expect(offer[0]!.event.conversionValue).toBeUndefined();
  }, 60_000);

  it("keeps an event waiting while Google answers 503 and sends it once it takes it", async () => {
    google.answer(503);
    const lead = await quote("google-storing@voorbeeld.nl", true, { clickIds: { gclid: "Cj0-storing" } });
    await waitFor(
      async () =>
        (await detail(lead.id)).conversions.find((c) => c.platform === "google")?.status === "waiting",
      20_000,
      "Google waiting",
    );
    await arrivalAtGoogle(lead.eventId);
    expect(google.accepted().filter((r) => r.event.transactionId === lead.eventId)).toHaveLength(1);
  }, 60_000);

  it("fails with Google's words when the credentials are refused, and the retry sends it after they are fixed", async () => {
    const wrong = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const forged = JSON.stringify({
      ...JSON.parse(KEY_FILE),
      private_key: wrong.export({ type: "pkcs8", format: "pem" }),
    });
    expect(
      (
        await call("PUT", "/api/admin/conversion-settings", {
          google: { credentials: { serviceAccountKey: forged } },
        })
      ).status,
    ).toBe(200);
    const lead = await quote("fout-sleutel@voorbeeld.nl", true);
    const failed = await waitFor(
      async () =>
        (await detail(lead.id)).conversions.find((c) => c.platform === "google" && c.status === "failed"),
      20_000,
      "Google failed",
    );
    expect(failed.error).toContain("Google weigerde de inloggegevens (400): Invalid JWT Signature.");
    expect(failed.error).not.toContain("PRIVATE KEY");
    // The OAuth client instead, and the panel's retry.
    expect(
      (
        await call("PUT", "/api/admin/conversion-settings", {
          google: {
            credentials: {
              clientId: "cid.apps.googleusercontent.com",
              clientSecret: "GOCSPX-x",
              refreshToken: "1//r",
            },
          },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call("POST", `/api/admin/lease-requests/${lead.id}/conversions/retry`, { platform: "google" }))
        .status,
    ).toBe(200);
    await arrivalAtGoogle(lead.eventId);
    expect(google.grants).toContain("refresh_token");
  }, 60_000);

  it("validates a test event at Google (validateOnly) and counts nothing", async () => {
    const counted = google.accepted().length;
    const res = await call("POST", "/api/admin/conversion-settings/google/test", {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      platform: "google",
      ok: true,
      status: 200,
      message: "Google heeft de testgebeurtenis gecontroleerd en goedgekeurd (validateOnly).",
      matchKeys: ["email", "phone"],
    });
    const validated = google.received.at(-1)!;
    expect(validated).toMatchObject({
      validateOnly: true,
      destination: { conversionActionId: ACTIONS.lead },
    });
    expect(validated.event.consent).toEqual(CONSENT);
    expect(google.accepted().length).toBe(counted);
    // Not set up: a Dutch 409 names what is missing.
    expect(
      (await call("PUT", "/api/admin/conversion-settings", { google: { conversionActions: { lead: null } } }))
        .status,
    ).toBe(200);
    const missing = await call("POST", "/api/admin/conversion-settings/google/test", {});
    expect(missing.status).toBe(409);
    expect(((await missing.json()) as { message: string }).message).toBe(
      'Geen conversieactie van Google Ads voor "aanvraag" ingesteld (Conversies).',
    );
  });
});
