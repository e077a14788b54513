import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { InternalLeadConversion } from "@lease/contracts";
import {
  metaFbc,
  metaRequest,
  normalizeEmail,
  phoneDigits,
  snapchatRequest,
  tiktokRequest,
} from "./payloads";
import { platformMessage } from "./send";

const sha = (v: string) => createHash("sha256").update(v).digest("hex");
const lead: InternalLeadConversion = {
  id: "0b6c8f5e-2d7a-4c1b-9e3f-5a6b7c8d9e0f",
  marketingConsent: true,
  email: "  Jan.Jansen@Voorbeeld.NL ",
  phone: "06 12 34 56 78",
  clickIds: { fbclid: "IwAR2abc", ttclid: "E.C.P.tt", ScCid: "sc-1", clickedAt: 1_764_000_000_123 },
  userAgent: "Mozilla/5.0 Test",
  pageUrl: "https://lease.example.nl/",
  fbp: "fb.1.1764000000000.1098765432",
  clientIp: "203.0.113.7",
  createdAt: "2026-11-28T08:00:00.000Z",
};
const externalId = sha("0b6c8f5e-2d7a-4c1b-9e3f-5a6b7c8d9e0f");
const input = {
  lead,
  event: "lead" as const,
  eventId: "e1",
  at: "2026-11-28T08:00:05.000Z",
  valueCents: null,
};
const signed = { ...input, event: "getekend" as const, eventId: "e2", valueCents: 120_050 };

describe("normalising and hashing", () => {
  it("lower-cases and trims e-mail", () => {
    expect(normalizeEmail("  Jan.Jansen@Voorbeeld.NL ")).toBe("jan.jansen@voorbeeld.nl");
    expect(metaFbc("IwAR2abc", 1_764_000_000_123)).toBe("fb.1.1764000000123.IwAR2abc");
  });

  // Phones as people type them on the quote form. Meta and Snapchat hash the digits with the
  // country code and no "+" or national 0 (31612345678); TikTok hashes E.164 with its "+".
  const typed: [string, string | null][] = [
    ["+31 (0)6-1234 5678", "31612345678"],
    ["0031 (0)6 1234 5678", "31612345678"],
    ["06 1234 5678", "31612345678"],
    ["06-12345678", "31612345678"],
    ["(+31) 6 12345678", "31612345678"],
    ["020 123 4567", "31201234567"],
    ["+32 470 12 34 56", "32470123456"],
    ["0032 (0)470 12 34 56", "32470123456"],
    ["123", null],
    ["+31 6 123", null],
    ["06 1234 56789 0", null],
  ];
  it.each(typed)("reads %j as %s", (phone, digits) => {
    expect(phoneDigits(phone)).toBe(digits);
  });

  it("hashes '+31 (0)6-1234 5678' as 31612345678 for Meta and Snapchat and +31612345678 for TikTok", () => {
    const typedLead = { ...lead, phone: "+31 (0)6-1234 5678" };
    const metaBody = metaRequest(
      { ...input, lead: typedLead },
      { baseUrl: "https://g", version: "26.0", pixelId: "1", accessToken: "t" },
    ).body as { data: { user_data: { ph: string[] } }[] };
    const snapBody = snapchatRequest(
      { ...input, lead: typedLead },
      { baseUrl: "https://s", pixelId: "p", accessToken: "t" },
    ).body as { data: { user_data: { ph: string[] } }[] };
    const tiktokBody = tiktokRequest(
      { ...input, lead: typedLead },
      { baseUrl: "https://t", pixelId: "P", accessToken: "t" },
    ).body as { data: { user: { phone: string } }[] };
    expect(metaBody.data[0]!.user_data.ph).toEqual([sha("31612345678")]);
    expect(snapBody.data[0]!.user_data.ph).toEqual([sha("31612345678")]);
    expect(tiktokBody.data[0]!.user.phone).toBe(sha("+31612345678"));
  });

  it("leaves the phone out, for every platform, when it is no valid number", () => {
    const bad = { ...input, lead: { ...lead, phone: "+31 6 123" } };
    const m = metaRequest(bad, { baseUrl: "https://g", version: "26.0", pixelId: "1", accessToken: "t" })
      .body as { data: { user_data: Record<string, unknown> }[] };
    const t = tiktokRequest(bad, { baseUrl: "https://t", pixelId: "P", accessToken: "t" }).body as {
      data: { user: Record<string, unknown> }[];
    };
    const s = snapchatRequest(bad, { baseUrl: "https://s", pixelId: "p", accessToken: "t" }).body as {
      data: { user_data: Record<string, unknown> }[];
    };
    expect(m.data[0]!.user_data.ph).toBeUndefined();
    expect(t.data[0]!.user.phone).toBeUndefined();
    expect(s.data[0]!.user_data.ph).toBeUndefined();
  });
});

describe("Meta Conversions API", () => {
  it("posts the documented event to /v{version}/{pixel}/events with the token and Meta's match keys", () => {
    const req = metaRequest(input, {
      baseUrl: "https://graph.example/",
      version: "26.0",
      pixelId: "1234567890",
      accessToken: "tok",
    });
    expect(req.url).toBe("https://graph.example/v26.0/1234567890/events");
    expect(req.body).toEqual({
      access_token: "tok",
      data: [
        {
          event_name: "Lead",
          event_time: 1_795_852_805,
          event_id: "e1",
          action_source: "website",
          event_source_url: "https://lease.example.nl/",
          user_data: {
            em: [sha("jan.jansen@voorbeeld.nl")],
            ph: [sha("31612345678")],
            fbc: "fb.1.1764000000123.IwAR2abc",
            fbp: "fb.1.1764000000000.1098765432",
            country: [sha("nl")],
            external_id: [externalId],
            client_ip_address: "203.0.113.7",
            client_user_agent: "Mozilla/5.0 Test",
          },
        },
      ],
    });
    expect(req.matchKeys).toEqual(["email", "phone", "click_id", "fbp", "country", "ip", "external_id"]);
  });

  it("carries the test event code for Meta's Test Events tool, and leaves out what the lead lacks", () => {
    const bare = { ...input, lead: { ...lead, fbp: null, clientIp: null, clickIds: null, phone: "0800" } };
    const req = metaRequest(bare, {
      baseUrl: "https://g",
      version: "26.0",
      pixelId: "1",
      accessToken: "t",
      testEventCode: "TEST12345",
    });
    const body = req.body as { test_event_code: string; data: { user_data: Record<string, unknown> }[] };
    expect(body.test_event_code).toBe("TEST12345");
    expect(Object.keys(body.data[0]!.user_data).sort()).toEqual(["client_user_agent", "em", "external_id"]);
    expect(req.matchKeys).toEqual(["email", "external_id"]);
  });

  it("sends a contract as Purchase with its value in euros", () => {
    const body = metaRequest(signed, {
      baseUrl: "https://g",
      version: "26.0",
      pixelId: "1234567890",
      accessToken: "t",
    }).body as { data: { event_name: string; custom_data: unknown }[] };
    expect(body.data[0]).toMatchObject({
      event_name: "Purchase",
      custom_data: { value: 1200.5, currency: "EUR" },
    });
  });

  it("leaves out fbc without an fbclid, taking the lead's time when the click's is unknown", () => {
    const noClick = { ...input, lead: { ...lead, clickIds: null } };
    const body = metaRequest(noClick, {
      baseUrl: "https://g",
      version: "26.0",
      pixelId: "1",
      accessToken: "t",
    }).body as {
      data: { user_data: Record<string, unknown> }[];
    };
    expect(body.data[0]!.user_data.fbc).toBeUndefined();
    const noTime = { ...input, lead: { ...lead, clickIds: { fbclid: "X" } } };
    const b2 = metaRequest(noTime, { baseUrl: "https://g", version: "26.0", pixelId: "1", accessToken: "t" })
      .body as {
      data: { user_data: Record<string, unknown> }[];
    };
    expect(b2.data[0]!.user_data.fbc).toBe(`fb.1.${Date.parse(lead.createdAt)}.X`);
  });
});

describe("TikTok Events API 2.0", () => {
  it("posts to /open_api/v1.3/event/track/ with the Access-Token header and hashed e-mail and E.164 phone", () => {
    const req = tiktokRequest(signed, {
      baseUrl: "https://tt",
      pixelId: "C4ABCDEFGHIJ12345",
      accessToken: "tok",
    });
    expect(req.url).toBe("https://tt/open_api/v1.3/event/track/");
    expect(req.headers["Access-Token"]).toBe("tok");
    expect(req.body).toEqual({
      event_source: "web",
      event_source_id: "C4ABCDEFGHIJ12345",
      data: [
        {
          event: "CompletePayment",
          event_time: 1_795_852_805,
          event_id: "e2",
          user: {
            email: sha("jan.jansen@voorbeeld.nl"),
            phone: sha("+31612345678"),
            ttclid: "E.C.P.tt",
            external_id: externalId,
            ip: "203.0.113.7",
            user_agent: "Mozilla/5.0 Test",
          },
          page: { url: "https://lease.example.nl/" },
          properties: { value: 1200.5, currency: "EUR" },
        },
      ],
    });
  });
});

describe("Snapchat Conversions API v3", () => {
  it("posts to /v3/{pixel}/events with the token in the query and sc_click_id from ScCid", () => {
    const req = snapchatRequest(input, {
      baseUrl: "https://sc",
      pixelId: "3f1c2a4e-9b7d-4c1e-8a2f-0d5e6b7c8a9f",
      accessToken: "t k",
    });
    expect(req.url).toBe("https://sc/v3/3f1c2a4e-9b7d-4c1e-8a2f-0d5e6b7c8a9f/events?access_token=t+k");
    expect(req.body).toEqual({
      data: [
        {
          event_name: "SIGN_UP",
          event_time: 1_795_852_805,
          event_id: "e1",
          action_source: "WEB",
          event_source_url: "https://lease.example.nl/",
          user_data: {
            em: [sha("jan.jansen@voorbeeld.nl")],
            ph: [sha("31612345678")],
            sc_click_id: "sc-1",
            external_id: [externalId],
            client_ip_address: "203.0.113.7",
            client_user_agent: "Mozilla/5.0 Test",
          },
        },
      ],
    });
  });
});

describe("test events", () => {
  it("puts TikTok's test_event_code beside data and posts Snapchat's to /events/validate", () => {
    const tt = tiktokRequest(input, {
      baseUrl: "https://tt",
      pixelId: "C4ABCDEFGHIJ12345",
      accessToken: "tok",
      testEventCode: "TEST56789",
    });
    expect((tt.body as { test_event_code: string }).test_event_code).toBe("TEST56789");
    expect(tt.matchKeys).toEqual(["email", "phone", "click_id", "ip", "external_id"]);
    const sc = snapchatRequest(input, {
      baseUrl: "https://sc",
      pixelId: "p-1",
      accessToken: "t",
      validate: true,
    });
    expect(sc.url).toBe("https://sc/v3/p-1/events/validate?access_token=t");
  });
});

describe("the platforms' own messages", () => {
  it("reads Meta's error.message, TikTok's message and Snapchat's reason", () => {
    expect(platformMessage('{"error":{"message":"Invalid OAuth access token.","code":190}}')).toBe(
      "Invalid OAuth access token.",
    );
    expect(platformMessage('{"code":40001,"message":"Access token is invalid"}')).toBe(
      "Access token is invalid",
    );
    expect(platformMessage('{"status":"INVALID","reason":"Pixel not found"}')).toBe("Pixel not found");
    expect(platformMessage("Bad Gateway")).toBe("Bad Gateway");
  });
});
