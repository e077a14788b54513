import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import type { RunningService } from "@lease/platform";
import { ConversionJobData, type LeaseRequestListResponse } from "@lease/contracts";
import { startLeads } from "../service";
import { adminCookie, postJson, validLead } from "../testing";

let db: TestDatabase;
let svc: RunningService;
let env: NodeJS.ProcessEnv;
let cookie: string;
let sql: pg.Pool;
let ipSeq = 0;
const freshIp = () => `198.51.100.${++ipSeq}`;

beforeAll(async () => {
  db = await createTestDatabase("leads");
  env = testEnv({ DATABASE_URL: db.url, LEAD_RATE_LIMIT: "3", LEAD_RATE_WINDOW_SECONDS: "600" });
  svc = await startLeads(env);
  cookie = await adminCookie(env);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});

afterAll(async () => {
  await sql?.end();
  await svc?.stop();
  await db?.drop();
});

const post = (body: unknown, ip = freshIp()) => postJson(`${svc.url}/api/lease-requests`, body, ip);
const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${svc.url}/api/admin/lease-requests${path}`, {
    ...init,
    headers: { cookie, "content-type": "application/json", ...(init.headers ?? {}) },
  });
const count = async (table: string) =>
  Number((await sql.query(`SELECT count(*) AS n FROM leads.${table}`)).rows[0].n);

async function fieldMessages(body: unknown): Promise<Record<string, string>> {
  const res = await post(body);
  expect(res.status).toBe(400);
  const json = (await res.json()) as { code: string; fields: { path: string; message: string }[] };
  expect(json.code).toBe("validation_failed");
  return Object.fromEntries(json.fields.map((f) => [f.path, f.message]));
}

describe("POST /api/lease-requests", () => {
  it("stores a valid quote request with its outbox rows and answers 201 {id}", async () => {
    const res = await post(validLead);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const { rows } = await sql.query("SELECT * FROM leads.lease_requests WHERE id = $1", [id]);
    expect(rows[0]).toMatchObject({
      email: validLead.email,
      status: "nieuw",
      is_read: false,
      lease_term: 48,
    });
    const outbox = await sql.query(
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
        await sql.query(
          "SELECT payload FROM leads.outbox WHERE job_name = 'tracking.conversion' AND payload->>'sourceId' = $1",
          [id],
        )
      ).rows[0].payload;
    const created = async (id: string) =>
      (await sql.query("SELECT created_at FROM leads.lease_requests WHERE id = $1", [id])).rows[0].created_at;
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
      `${svc.url}/api/lease-requests`,
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
        await sql.query(
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
});

describe("POST /api/contact", () => {
  const contact = { name: "Piet", email: "piet@example.nl", message: "Bel mij eens terug aub" };
  const postContact = (body: unknown, ip = freshIp()) => postJson(`${svc.url}/api/contact`, body, ip);

  it("stores a contact message and logs it as contact_form through the outbox", async () => {
    const res = await postContact(contact);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const outbox = await sql.query("SELECT payload FROM leads.outbox WHERE payload->>'sourceId' = $1", [id]);
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

describe("admin lease requests", () => {
  it("refuse every admin route without a session (401) at the service itself", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const calls: [string, string][] = [
      ["GET", ""],
      ["GET", "/export.csv"],
      ["GET", `/${id}`],
      ["PATCH", `/${id}/status`],
      ["DELETE", `/${id}`],
    ];
    for (const [method, path] of calls) {
      const res = await fetch(`${svc.url}/api/admin/lease-requests${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it("lists newest first with counters, search, status filter and paging", async () => {
    const ids: string[] = [];
    for (const company of ["Zoek Alpha BV", "Zoek Beta BV", "Zoek Gamma BV"]) {
      const res = await post({
        ...validLead,
        companyName: company,
        email: `${company.split(" ")[1]}@zoek.nl`,
      });
      ids.push(((await res.json()) as { id: string }).id);
    }
    const page1 = (await (await admin("?q=zoek&pageSize=2")).json()) as LeaseRequestListResponse;
    expect(page1.total).toBe(3);
    expect(page1.items.map((r) => r.companyName)).toEqual(["Zoek Gamma BV", "Zoek Beta BV"]);
    const page2 = (await (await admin("?q=zoek&pageSize=2&page=2")).json()) as LeaseRequestListResponse;
    expect(page2.items.map((r) => r.companyName)).toEqual(["Zoek Alpha BV"]);
    expect(page1.counts.total).toBeGreaterThanOrEqual(3);

    expect(
      (
        await admin(`/${ids[0]}/status`, {
          method: "PATCH",
          body: JSON.stringify({ status: "gereageerd", isRead: true }),
        })
      ).status,
    ).toBe(200);
    const filtered = (await (await admin("?q=zoek&status=gereageerd")).json()) as LeaseRequestListResponse;
    expect(filtered.items.map((r) => r.id)).toEqual([ids[0]]);
    expect(filtered.counts.gereageerd).toBe(1);
    // An opened new request has the yellow "Bekeken" badge: counted and filtered as bekeken.
    const before = ((await (await admin("")).json()) as LeaseRequestListResponse).counts;
    expect(
      (
        await admin(`/${ids[1]}/status`, {
          method: "PATCH",
          body: JSON.stringify({ status: "nieuw", isRead: true }),
        })
      ).status,
    ).toBe(200);
    const seen = (await (await admin("?q=zoek&status=bekeken")).json()) as LeaseRequestListResponse;
    expect(seen.items.map((r) => r.id)).toEqual([ids[1]]);
    expect(seen.counts.bekeken).toBe(before.bekeken + 1);
    expect(seen.counts.unread).toBe(before.unread - 1);
    const fresh = (await (await admin("?q=zoek&status=nieuw")).json()) as LeaseRequestListResponse;
    expect(fresh.items.map((r) => r.id)).toEqual([ids[2]]);
    const byPhone = (await (await admin("?q=612345")).json()) as LeaseRequestListResponse;
    expect(byPhone.total).toBeGreaterThan(0);
  });

  it("updates status and read flag; a malformed id is 400 and an unknown one 404", async () => {
    const { id } = (await (await post(validLead)).json()) as { id: string };
    const res = await admin(`/${id}/status`, {
      method: "PATCH",
      body: JSON.stringify({ status: "bekeken", isRead: true }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, status: "bekeken", isRead: true });
    expect(
      (
        await admin(`/not-a-uuid/status`, {
          method: "PATCH",
          body: JSON.stringify({ status: "bekeken", isRead: true }),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await admin(`/${id}/status`, {
          method: "PATCH",
          body: JSON.stringify({ status: "weg", isRead: true }),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await admin(`/00000000-0000-4000-8000-000000000000/status`, {
          method: "PATCH",
          body: JSON.stringify({ status: "bekeken", isRead: true }),
        })
      ).status,
    ).toBe(404);
  });

  it("reads one request by id; a malformed id is 400 and an unknown one 404", async () => {
    const { id } = (await (await post(validLead)).json()) as { id: string };
    const res = await admin(`/${id}`);
    expect(res.status).toBe(200);
    const lead = (await res.json()) as { id: string; email: string; status: string };
    expect(lead).toMatchObject({ id, email: validLead.email, status: "nieuw" });
    expect((await admin("/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const bad = await admin("/nope");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBeTruthy();
  });

  it("shows staff the phone number as the ad platforms get it (E.164), or none when it is no number", async () => {
    const typed = (await (await post({ ...validLead, contactNumber: "+31 (0)6-1234 5678" })).json()) as {
      id: string;
    };
    const belgian = (await (await post({ ...validLead, contactNumber: "0032 (0)470 12 34 56" })).json()) as {
      id: string;
    };
    const short = (await (await post({ ...validLead, contactNumber: "+31 6 1234 56" })).json()) as {
      id: string;
    };
    const e164 = async (id: string) =>
      ((await (await admin(`/${id}`)).json()) as { contactNumberE164: string | null }).contactNumberE164;
    expect(await e164(typed.id)).toBe("+31612345678");
    expect(await e164(belgian.id)).toBe("+32470123456");
    expect(await e164(short.id)).toBeNull();
    const list = (await (await admin(`?q=${encodeURIComponent("0032 (0)470")}`)).json()) as {
      items: { id: string; contactNumberE164: string | null }[];
    };
    expect(list.items.find((item) => item.id === belgian.id)?.contactNumberE164).toBe("+32470123456");
  });

  it("answers a bad search or page with 400 and a Dutch message", async () => {
    for (const [query, message] of [
      [`?q=${"x".repeat(201)}`, "De zoekterm mag hoogstens 200 tekens zijn"],
      ["?q=%00", "De zoekterm bevat een ongeldig teken"],
      ["?page=abc", "page moet een getal zijn"],
      ["?pageSize=500", "pageSize mag hoogstens 200 zijn"],
    ]) {
      const res = await admin(query!);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { message: string }).message, query).toContain(message);
    }
  });

  it("deletes a request (204), then 404", async () => {
    const { id } = (await (await post(validLead)).json()) as { id: string };
    expect((await admin(`/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await admin(`/${id}`)).status).toBe(404);
    expect((await admin(`/${id}`, { method: "DELETE" })).status).toBe(404);
    expect((await admin(`/nope`, { method: "DELETE" })).status).toBe(400);
  });

  it("exports CSV with BOM, semicolons and every cell quoted and formula-safe", async () => {
    await post({
      ...validLead,
      companyName: "ACME BV,=cmd|' /C calc'!A0",
      contactNumber: "+31 6 12345678",
      message: '+31 bel; mij\n@morgen =HYPERLINK("http://evil")',
      email: "csv@export.nl",
    });
    const res = await admin("/export.csv?q=csv@export.nl");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/csv/);
    const buf = Buffer.from(await res.arrayBuffer());
    expect([...buf.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = buf.toString("utf8").slice(1);
    const [header, row] = text.split("\r\n");
    expect(header).toBe(
      '"Datum";"Status";"Fase";"Fase sinds";"Opvolgen op";"Eigenaar";"Reageren vóór";"Eerste reactie";"Gelezen";' +
        '"Bedrijfsnaam";"E-mail";"Telefoon";"Looptijd (maanden)";"Auto URL";' +
        '"Bericht";"Id";"Dubbel van";"Kanaal";"Bron";"Medium";"Campagne";"Zoekterm";"Advertentie-inhoud";' +
        '"Betaalde klik";"Verwijzer";"Landingspagina";"Eerste bezoek";"Pagina\'s voor aanvraag";"Bezochte pagina\'s";' +
        '"Maandbedrag (EUR)";"Commissie (EUR)";"Looptijd contract (maanden)";"Reden verloren";"Toelichting verloren"',
    );
    expect(row).toContain(`;"ACME BV,'=cmd|' /C calc'!A0";"csv@export.nl";" +31 6 12345678";"48";`);
    expect(text).toContain(`"'+31 bel; mij\n'@morgen =HYPERLINK(""http://evil"")"`);
    // Split as a naive comma or semicolon import would: no part starts a formula (the phone
    // number, digits only after its space, is text in a spreadsheet and cannot be a function).
    const parts = text.split(/[,;\t\r\n]/).filter((part) => part !== '" +31 6 12345678"');
    for (const part of parts) expect(part.replace(/^"/, "")).not.toMatch(/^\s*[=+\-@]/);
  });

  it("exports each request's stage, the moment it reached it and its follow-up day", async () => {
    const email = "fase@export.nl";
    const { id } = (await (await post({ ...validLead, email })).json()) as { id: string };
    const { id: untouched } = (await (await post({ ...validLead, email })).json()) as { id: string };
    const patch = (body: unknown) => admin(`/${id}/status`, { method: "PATCH", body: JSON.stringify(body) });
    expect((await patch({ status: "offerte", monthlyAmount: 400 })).status).toBe(200);
    // The offer's day, set apart from a later correction of its amount (still the same stage).
    await sql.query(
      "UPDATE leads.status_changes SET changed_at = '2026-03-02T09:30:00Z' WHERE lease_request_id = $1",
      [id],
    );
    expect((await patch({ status: "offerte", monthlyAmount: 450 })).status).toBe(200);
    const followUp = await admin(`/${id}/follow-up`, {
      method: "PUT",
      body: JSON.stringify({ followUpOn: "2026-12-01" }),
    });
    expect(followUp.status).toBe(200);
    await sql.query("UPDATE leads.lease_requests SET created_at = '2026-03-01T08:00:00Z' WHERE id = $1", [
      untouched,
    ]);

    const text = (await (await admin(`/export.csv?q=${email}`)).text()).slice(1);
    const [header, ...rows] = text.split("\r\n").filter(Boolean);
    const names = header!.split(";");
    const cells = (row: string) =>
      Object.fromEntries(
        ["Id", "Status", "Fase", "Fase sinds", "Opvolgen op"].map((n) => [
          n,
          row.split(";")[names.indexOf(`"${n}"`)],
        ]),
      );
    expect(rows.map(cells)).toEqual([
      {
        Id: `"${id}"`,
        Status: '"offerte"',
        Fase: '"Offerte verstuurd"',
        "Fase sinds": '"02-03-2026 10:30:00"',
        "Opvolgen op": '"01-12-2026"',
      },
      // Never changed: new since it arrived, no follow-up day.
      {
        Id: `"${untouched}"`,
        Status: '"nieuw"',
        Fase: '"Nieuw"',
        "Fase sinds": '"01-03-2026 09:00:00"',
        "Opvolgen op": '""',
      },
    ]);
  });

  it("audits each CSV export with its row count and filter fields, never their values", async () => {
    // By id, not by position: the relay's update of published_at moves a row within the heap.
    const audits = async () =>
      new Map(
        (
          await sql.query(
            "SELECT id, payload FROM leads.outbox WHERE job_name = 'audit.record' AND payload->>'action' = 'lead.exported'",
          )
        ).rows.map((r) => [r.id as string, r.payload]),
      );
    const before = await audits();
    expect((await admin("/export.csv?q=csv@export.nl&status=nieuw")).status).toBe(200);
    const entries = [...(await audits())].filter(([id]) => !before.has(id)).map(([, p]) => p);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: "admin",
      action: "lead.exported",
      target: null,
      detail: "1 aanvraag (filter: zoekterm, status)",
    });
    expect(JSON.stringify(entries)).not.toContain("csv@export.nl");
  });
});

describe("internal lookups", () => {
  it("serve a lease request to holders of the internal token only", async () => {
    const { id } = (await (await post(validLead)).json()) as { id: string };
    expect((await fetch(`${svc.url}/internal/lease-requests/${id}`)).status).toBe(403);
    const res = await fetch(`${svc.url}/internal/lease-requests/${id}`, {
      headers: { "x-internal-token": env.INTERNAL_TOKEN! },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, email: validLead.email });
  });
});
