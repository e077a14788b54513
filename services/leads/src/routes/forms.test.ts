// The website's two forms (forms.ts): POST /api/lease-requests, a quote request (its rules and
// their Dutch messages, the bodies the form would never send, consent, the honeypot, the rate limit
// per address, duplicates), and POST /api/contact, a contact message.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEnv } from "@lease/platform/testing";
import { ConversionJobData, type LeaseRequestListResponse } from "@lease/contracts";
import { postJson, startLeadsHarness, validLead, type LeadsHarness } from "../testing";

let h: LeadsHarness;
let ipSeq = 0;
const freshIp = () => `198.51.100.${++ipSeq}`;

beforeAll(async () => {
  h = await startLeadsHarness("leadforms", { LEAD_RATE_LIMIT: "3", LEAD_RATE_WINDOW_SECONDS: "600" });
});
afterAll(async () => h?.stop());

const post = (body: unknown, ip = freshIp()) => postJson(`${h.svc.url}/api/lease-requests`, body, ip);
const admin = (path: string) =>
  fetch(`${h.svc.url}/api/admin/lease-requests${path}`, { headers: { cookie: h.cookie } });
const count = async (table: string) =>
  Number((await h.sql.query(`SELECT count(*) AS n FROM leads.${table}`)).rows[0].n);

async function fieldMessages(body: unknown): Promise<Record<string, string>> {
  const res = await post(body);
  expect(res.status).toBe(400);
  const json = (await res.json()) as { code: string; fields: { path: string; message: string }[] };
  expect(json.code).toBe("validation_failed");
  return Object.fromEntries(json.fields.map((f) => [f.path, f.message]));
}

const fields = async (res: Response) =>
  Object.fromEntries(
    ((await res.json()) as { fields: { path: string; message: string }[] }).fields.map((f) => [
      f.path,
      f.message,
    ]),
  );

describe("POST /api/lease-requests", () => {
  it("stores a valid quote request with its outbox rows and answers 201 {id}", async () => {
    const res = await post(validLead);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const { rows } = await h.sql.query("SELECT * FROM leads.lease_requests WHERE id = $1", [id]);
    expect(rows[0]).toMatchObject({
      email: validLead.email,
      status: "nieuw",
      is_read: false,
      lease_term: 48,
    });
    const outbox = await h.sql.query(
      "SELECT job_name, payload FROM leads.outbox WHERE payload->>'sourceId' = $1",
      [id],
    );
    expect(outbox.rows.map((r) => r.job_name).sort()).toEqual(["lead.received", "tracking.conversion"]);
  });

  it("queues the conversion with the visitor session the form sent, or none", async () => {
    const sessionId = "session-abc123-1764000000000";
    const withSession = (await (await post({ ...validLead, sessionId })).json()) as { id: string };
    const without = (await (await post(validLead)).json()) as { id: string };
    const payload = async (id: string) =>
      (
        await h.sql.query(
          "SELECT payload FROM leads.outbox WHERE job_name = 'tracking.conversion' AND payload->>'sourceId' = $1",
          [id],
        )
      ).rows[0].payload;
    const created = async (id: string) =>
      (await h.sql.query("SELECT created_at FROM leads.lease_requests WHERE id = $1", [id])).rows[0]
        .created_at;
    const queued = await payload(withSession.id);
    expect(queued).toEqual({
      source: "lease_request",
      sourceId: withSession.id,
      sessionId,
      at: expect.any(String),
    });
    // The lead's own arrival time, in microseconds (JavaScript's Date keeps milliseconds).
    expect(ConversionJobData.parse(queued).at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Math.abs(Date.parse(queued.at) - (await created(withSession.id)).getTime())).toBeLessThan(1);
    expect(await payload(without.id)).toMatchObject({ sessionId: null });
    expect(await fieldMessages({ ...validLead, sessionId: "geen-sessie" })).toEqual({
      sessionId: "sessionId heeft niet de vorm session-<letters en cijfers>-<tijdstip>",
    });
  });

  it("keeps click ids, event id, user agent and page only with the page's marketing consent", async () => {
    const eventId = "5b0e8c1e-7a7f-4d8e-9d41-2f6f4a1c0b11";
    const clickIds = { fbclid: "IwAR1abc-_x", gclid: "Cj0KCQ", clickedAt: 1_764_000_000_000 };
    const page = "https://lease.example.nl/?utm_source=facebook#aanvraag";
    const consented = await postJson(
      `${h.svc.url}/api/lease-requests`,
      {
        ...validLead,
        marketingConsent: true,
        clickIds,
        eventId,
        pageUrl: page,
      },
      freshIp(),
      { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Test" },
    );
    expect(consented.status).toBe(201);
    const yes = (await consented.json()) as { id: string; eventId?: string };
    expect(yes.eventId).toBe(eventId);
    // Without consent the same ids are dropped: the server never infers consent from them.
    const refused = await post({ ...validLead, marketingConsent: false, clickIds, eventId, pageUrl: page });
    const no = (await refused.json()) as { id: string; eventId?: string };
    expect(no.eventId).toBeUndefined();
    const absent = (await (await post({ ...validLead, clickIds })).json()) as {
      id: string;
      eventId?: string;
    };
    // Consent without an event id from the page: the server makes one and answers it.
    const made = (await (await post({ ...validLead, marketingConsent: true })).json()) as {
      eventId?: string;
    };
    expect(made.eventId).toMatch(/^[0-9a-f-]{36}$/);
    const row = async (id: string) =>
      (
        await h.sql.query(
          "SELECT marketing_consent, click_ids, event_id, user_agent, page_url FROM leads.lease_requests WHERE id = $1",
          [id],
        )
      ).rows[0];
    expect(await row(yes.id)).toEqual({
      marketing_consent: true,
      click_ids: clickIds,
      event_id: eventId,
      user_agent: "Mozilla/5.0 (X11; Linux x86_64) Test",
      page_url: "https://lease.example.nl/",
    });
    const none = {
      marketing_consent: false,
      click_ids: null,
      event_id: null,
      user_agent: null,
      page_url: null,
    };
    expect(await row(no.id)).toEqual(none);
    expect(await row(absent.id)).toEqual(none);
    const detail = (await (await admin(`/${yes.id}`)).json()) as { marketingConsent: boolean };
    expect(detail.marketingConsent).toBe(true);
    const bad = await fieldMessages({ ...validLead, marketingConsent: true, clickIds: { fbclid: "a b" } });
    expect(bad["clickIds.fbclid"]).toBe("Een klik-id van de advertentie is ongeldig");
  });

  it("answers every rule of the quote form with its Dutch message", async () => {
    expect(
      await fieldMessages({ ...validLead, carUrl: "geen url", contactNumber: "06123", email: "jan@" }),
    ).toEqual({
      carUrl: "Voer een geldige auto URL in",
      contactNumber: "Voer een geldig telefoonnummer in",
      email: "Voer een geldig e-mailadres in",
    });
    expect(await fieldMessages({})).toEqual({
      carUrl: "Voer een geldige auto URL in",
      contactNumber: "Voer een geldig telefoonnummer in",
      email: "Voer een geldig e-mailadres in",
    });
    expect(await fieldMessages({ ...validLead, leaseTerm: 72 })).toEqual({
      leaseTerm: "Kies een looptijd van 24, 36, 48 of 60 maanden",
    });
  });

  it.each([
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd",
    "//evil.example/car",
    "https://exa mple.com",
    `https://example.com/${"a".repeat(2100)}`,
  ])("refuses the hostile car URL %s", async (carUrl) => {
    expect(await fieldMessages({ ...validLead, carUrl })).toEqual({ carUrl: "Voer een geldige auto URL in" });
  });

  it("refuses unknown fields and stores nothing", async () => {
    const before = await count("lease_requests");
    expect(await fieldMessages({ ...validLead, status: "gereageerd", isRead: true })).toEqual({
      "(body)": "Onbekend veld: status, isRead",
    });
    expect(await count("lease_requests")).toBe(before);
  });

  it("refuses a NUL character with 400 and a Dutch message instead of failing in Postgres", async () => {
    const before = await count("lease_requests");
    const res = await post({ ...validLead, companyName: "Jansen\u0000BV" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain("ongeldig teken (NUL)");
    expect(await count("lease_requests")).toBe(before);
  });

  it("gives a filled honeypot the normal 201 answer and stores nothing", async () => {
    const [leads, outbox] = [await count("lease_requests"), await count("outbox")];
    const res = await post({ ...validLead, website: "http://spam.example" });
    expect(res.status).toBe(201);
    expect((await res.json()) as { id: string }).toHaveProperty("id");
    expect(await count("lease_requests")).toBe(leads);
    expect(await count("outbox")).toBe(outbox);
  });

  it("limits each client IP to LEAD_RATE_LIMIT submissions per window with 429, Retry-After and a Dutch message", async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await post(validLead, ip)).status).toBe(201);
    const res = await post(validLead, ip);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(500);
    expect(((await res.json()) as { message: string }).message).toMatch(/te veel aanvragen/);
    expect((await post(validLead, freshIp())).status).toBe(201);
  });

  it("marks a request as duplicate of the newest earlier one with the same e-mail (any case) or phone digits", async () => {
    const first = (await (
      await post({ ...validLead, email: "Dup@Example.nl", contactNumber: "0611111111" })
    ).json()) as { id: string };
    const second = (await (
      await post({ ...validLead, email: "other@example.nl", contactNumber: "06-1111 1111" })
    ).json()) as { id: string };
    const third = (await (
      await post({ ...validLead, email: "dup@example.NL", contactNumber: "0622222222" })
    ).json()) as { id: string };
    const fresh = (await (
      await post({ ...validLead, email: "new@example.nl", contactNumber: "0633333333" })
    ).json()) as { id: string };
    const list = (await (await admin("?pageSize=200")).json()) as LeaseRequestListResponse;
    const byId = new Map(list.items.map((r) => [r.id, r]));
    expect(byId.get(first.id)?.duplicateOf).toBeNull();
    expect(byId.get(second.id)?.duplicateOf).toBe(first.id);
    expect(byId.get(third.id)?.duplicateOf).toBe(first.id);
    expect(byId.get(fresh.id)?.duplicateOf).toBeNull();
  });

  describe("quote request bodies the form would never send", () => {
    it("refuses over-long optional fields with 'Maximaal … tekens'", async () => {
      const res = await postJson(`${h.svc.url}/api/lease-requests`, {
        ...validLead,
        companyName: "x".repeat(201),
        message: "y".repeat(5001),
      });
      expect(res.status).toBe(400);
      expect(await fields(res)).toEqual({
        companyName: "Maximaal 200 tekens",
        message: "Maximaal 5000 tekens",
      });
    });

    it("answers 400 for a JSON array or string, 415 for non-JSON and 413 for an oversized body", async () => {
      const url = `${h.svc.url}/api/lease-requests`;
      const array = await postJson(url, [validLead]);
      expect(array.status).toBe(400);
      expect(await fields(array)).toEqual({ "(body)": "Stuur een JSON-object" });
      const form = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "email=a@b.nl",
      });
      expect(form.status).toBe(415);
      const big = await postJson(url, { ...validLead, message: "z".repeat(20_000) });
      expect(big.status).toBe(413);
    });

    it("trims values and stores empty optional fields as null", async () => {
      const res = await postJson(`${h.svc.url}/api/lease-requests`, {
        ...validLead,
        email: "  Trim@Bedrijf.nl ",
        companyName: "",
        leaseTerm: "",
        message: "   ",
      });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      const lookup = await fetch(`${h.svc.url}/internal/lease-requests/${id}`, {
        headers: { "x-internal-token": testEnv().INTERNAL_TOKEN! },
      });
      expect(await lookup.json()).toMatchObject({
        email: "Trim@Bedrijf.nl",
        companyName: null,
        leaseTerm: null,
        message: null,
      });
    });
  });
});

describe("POST /api/contact", () => {
  const contact = { name: "Piet", email: "piet@example.nl", message: "Bel mij eens terug aub" };
  const postContact = (body: unknown, ip = freshIp()) => postJson(`${h.svc.url}/api/contact`, body, ip);

  it("stores a contact message and logs it as contact_form through the outbox", async () => {
    const res = await postContact(contact);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const outbox = await h.sql.query("SELECT payload FROM leads.outbox WHERE payload->>'sourceId' = $1", [
      id,
    ]);
    expect(outbox.rows.map((r) => r.payload.source)).toEqual(["contact_form", "contact_form"]);
  });

  it("validates with Dutch messages, refuses unknown fields and drops honeypot submissions", async () => {
    const bad = await postContact({ name: "", email: "x", message: "kort", extra: 1 });
    expect(bad.status).toBe(400);
    const fields = ((await bad.json()) as { fields: { path: string; message: string }[] }).fields;
    expect(fields).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Naam is verplicht" },
        { path: "email", message: "Voer een geldig e-mailadres in" },
        { path: "message", message: "Bericht moet minimaal 10 karakters bevatten" },
      ]),
    );
    const before = await count("contact_messages");
    expect((await postContact({ ...contact, website: "bot" })).status).toBe(201);
    expect(await count("contact_messages")).toBe(before);
  });

  it("is rate limited per client IP", async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await postContact(contact, ip)).status).toBe(201);
    expect((await postContact(contact, ip)).status).toBe(429);
  });
});
