import { createHash, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InternalLeadConversion } from "@lease/contracts";
import { startGoogleReceiver, type GoogleReceiver } from "@lease/platform/testing";
import { googleEmail, googleRequest, googleTime, serviceAccountAssertion } from "./google";
import { googleTokens } from "./google-token";
import { sendToPlatform } from "./send";

// Google's Data Manager API event (events:ingest) checked against Google's documentation and its
// own formatter's rules, and the OAuth 2.0 token exchange checked by a local stand-in that verifies
// the service account's JWT signature with its public key.

const sha = (v: string) => createHash("sha256").update(v).digest("hex");
const lead: InternalLeadConversion = {
  id: "0b6c8f5e-2d7a-4c1b-9e3f-5a6b7c8d9e0f",
  marketingConsent: true,
  email: "  Jan.Jansen+lease@GoogleMail.com ",
  phone: "+31 (0)6-1234 5678",
  clickIds: { gclid: "Cj0KCQjw-gclid_1", wbraid: "W1", clickedAt: 1_764_000_000_123 },
  userAgent: "Mozilla/5.0 Test",
  pageUrl: "https://lease.example.nl/",
  fbp: null,
  clientIp: "203.0.113.7",
  createdAt: "2026-11-28T08:00:00.000Z",
};
const input = {
  lead,
  event: "lead" as const,
  eventId: "7d1f0c9e-1111-4222-8333-944455556666",
  at: "2026-07-01T12:00:05.000Z",
  valueCents: null,
};
/** An event of now: Google takes events of the last 90 days only. */
const recent = () => ({ ...input, at: new Date().toISOString() });
const opts = {
  baseUrl: "https://datamanager.example/",
  customerId: "1234567890",
  conversionActionId: "987654",
  accessToken: "ya29.tok",
};

describe("Google's normalisation", () => {
  it("trims and lower-cases every e-mail, and drops dots and +tags only for gmail.com and googlemail.com", () => {
    expect(googleEmail("  Jan.Jansen@Voorbeeld.NL ")).toBe("jan.jansen@voorbeeld.nl");
    expect(googleEmail("Jan.Jansen+lease@Gmail.com")).toBe("janjansen@gmail.com");
    expect(googleEmail("j.a.n+x+y@googlemail.com")).toBe("jan@googlemail.com");
    expect(googleEmail("jan.jansen+tag@outlook.com")).toBe("jan.jansen+tag@outlook.com");
  });

  it("writes the time in Amsterdam with its offset, summer and winter (RFC 3339)", () => {
    expect(googleTime("2026-07-01T12:00:05.000Z")).toBe("2026-07-01T14:00:05+02:00");
    expect(googleTime("2026-01-15T12:00:00.000Z")).toBe("2026-01-15T13:00:00+01:00");
    expect(googleTime("2026-12-31T23:30:00.000Z")).toBe("2027-01-01T00:30:00+01:00");
    expect(Date.parse(googleTime("2026-03-29T01:00:00.000Z"))).toBe(Date.parse("2026-03-29T01:00:00.000Z"));
  });
});

describe("the Data Manager API event", () => {
  it("carries the destination, hashed e-mail and E.164 phone, one click id, consent and the event id", () => {
    const r = googleRequest(input, opts);
    expect(r.url).toBe("https://datamanager.example/v1/events:ingest");
    expect(r.headers.authorization).toBe("Bearer ya29.tok");
    expect(r.body).toEqual({
      destinations: [
        {
          operatingAccount: { accountType: "GOOGLE_ADS", accountId: "1234567890" },
          productDestinationId: "987654",
        },
      ],
      encoding: "HEX",
      events: [
        {
          transactionId: input.eventId,
          eventTimestamp: "2026-07-01T14:00:05+02:00",
          eventSource: "WEB",
          adIdentifiers: { gclid: "Cj0KCQjw-gclid_1" },
          userData: {
            userIdentifiers: [
              { emailAddress: sha("janjansen@googlemail.com") },
              { phoneNumber: sha("+31612345678") },
            ],
          },
          consent: { adUserData: "CONSENT_GRANTED", adPersonalization: "CONSENT_GRANTED" },
        },
      ],
    });
    expect(r.matchKeys).toEqual(["email", "phone", "click_id"]);
    expect(JSON.stringify(r.body)).not.toContain("203.0.113.7");
  });

  it("takes the wbraid, else the gbraid, without a gclid; without any it sends the hashed contact only", () => {
    const w = googleRequest({ ...input, lead: { ...lead, clickIds: { gbraid: "B1", wbraid: "W1" } } }, opts);
    expect((w.body as { events: { adIdentifiers: unknown }[] }).events[0]!.adIdentifiers).toEqual({
      wbraid: "W1",
    });
    const g = googleRequest({ ...input, lead: { ...lead, clickIds: { gbraid: "B1" } } }, opts);
    expect((g.body as { events: { adIdentifiers: unknown }[] }).events[0]!.adIdentifiers).toEqual({
      gbraid: "B1",
    });
    const none = googleRequest(
      { ...input, lead: { ...lead, clickIds: { fbclid: "IwAR" }, phone: "123" } },
      opts,
    );
    const event = (none.body as { events: Record<string, unknown>[] }).events[0]!;
    expect(event.adIdentifiers).toBeUndefined();
    expect(event.userData).toEqual({ userIdentifiers: [{ emailAddress: sha("janjansen@googlemail.com") }] });
    expect(none.matchKeys).toEqual(["email"]);
  });

  it("gives a signed contract its commission in EUR, and a test event validateOnly", () => {
    const r = googleRequest(
      { ...input, event: "getekend", valueCents: 120_050 },
      { ...opts, validateOnly: true },
    );
    const body = r.body as { validateOnly: boolean; events: Record<string, unknown>[] };
    expect(body.validateOnly).toBe(true);
    expect(body.events[0]).toMatchObject({ conversionValue: 1200.5, currency: "EUR" });
  });
});

describe("Google's OAuth token and the ingest call, against the local stand-in", () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const clientEmail = "conversies@lease-test.iam.gserviceaccount.com";
  const account = {
    kind: "serviceAccount" as const,
    clientEmail,
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
  const client = {
    kind: "oauthClient" as const,
    clientId: "cid.apps.googleusercontent.com",
    clientSecret: "GOCSPX-s",
    refreshToken: "1//r",
  };
  let google: GoogleReceiver;
  beforeAll(async () => {
    google = await startGoogleReceiver({
      serviceAccount: {
        clientEmail,
        publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
      },
      oauthClient: {
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        refreshToken: client.refreshToken,
      },
    });
  });
  afterAll(() => google.close());

  it("signs the service account's JWT (RS256, iss, scope, aud, one hour) and is given a token, kept for the next event", async () => {
    const jwt = serviceAccountAssertion(account, google.tokenUrl, 1_800_000_000);
    const claims = JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString());
    expect(claims).toEqual({
      iss: clientEmail,
      scope: "https://www.googleapis.com/auth/datamanager",
      aud: google.tokenUrl,
      iat: 1_800_000_000,
      exp: 1_800_003_600,
    });
    const tokens = googleTokens({ tokenUrl: google.tokenUrl, timeoutMs: 5000 });
    const t = await tokens.token(account);
    expect(t.ok).toBe(true);
    const again = await tokens.token(account);
    expect(again).toEqual(t);
    expect(google.grants).toEqual(["urn:ietf:params:oauth:grant-type:jwt-bearer"]);
    const sent = await sendToPlatform(
      "google",
      googleRequest(recent(), { ...opts, baseUrl: google.url, accessToken: (t as { token: string }).token }),
      5000,
    );
    expect(sent).toEqual({ ok: true });
    expect(google.accepted().at(-1)).toMatchObject({
      destination: { accountId: "1234567890", conversionActionId: "987654" },
      encoding: "HEX",
    });
  });

  it("is refused a token for a JWT signed with another key, with Google's words and no retry", async () => {
    const forged = {
      ...account,
      privateKey: other.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    };
    const t = await googleTokens({ tokenUrl: google.tokenUrl, timeoutMs: 5000 }).token(forged);
    expect(t).toEqual({ ok: false, retry: false, error: expect.stringContaining("Invalid JWT Signature.") });
  });

  it("exchanges an OAuth client's refresh token, and refuses a wrong secret", async () => {
    const tokens = googleTokens({ tokenUrl: google.tokenUrl, timeoutMs: 5000 });
    expect((await tokens.token(client)).ok).toBe(true);
    const wrong = await tokens.token({ ...client, clientSecret: "nope" });
    expect(wrong).toMatchObject({ ok: false, retry: false });
    expect((wrong as { error: string }).error).toContain("Google weigerde de inloggegevens (401)");
  });

  it("is refused by the API without a token it issued, and a down endpoint means a retry", async () => {
    const refused = await sendToPlatform(
      "google",
      googleRequest(recent(), { ...opts, baseUrl: google.url, accessToken: "ya29.forged" }),
      5000,
    );
    expect(refused).toEqual({
      ok: false,
      retry: false,
      error: "Google weigerde het event (401): Request had invalid authentication credentials.",
    });
    await google.down();
    try {
      const t = await googleTokens({ tokenUrl: google.tokenUrl, timeoutMs: 2000 }).token(client);
      expect(t).toMatchObject({ ok: false, retry: true });
    } finally {
      await google.up();
    }
  });
});
