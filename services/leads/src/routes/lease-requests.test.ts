// The panel's lease requests (lease-requests.ts): the list with its counters, search, filters and
// paging; one request; deletion; the CSV export and its audit; a request's follow-up day and the
// list of those due. Every route refuses a request without a session at the service itself.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import type { RunningService } from "@lease/platform";
import {
  FOLLOW_UP_RANGE_MESSAGE,
  InternalFollowUpsDue,
  LeaseRequest,
  LeaseRequestListResponse,
} from "@lease/contracts";
import { startLeads } from "../service";
import { adminCookie, postJson, startLeadsHarness, validLead, type LeadsHarness } from "../testing";

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
describe("GET /api/admin/lease-requests · GET /api/admin/lease-requests/export.csv · GET /api/admin/lease-requests/{id} · PATCH /api/admin/lease-requests/{id}/status · DELETE /api/admin/lease-requests/{id}", () => {
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
});

describe("GET /api/admin/lease-requests", () => {
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
});

describe("GET /api/admin/lease-requests/{id}", () => {
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
});

describe("DELETE /api/admin/lease-requests/{id}", () => {
  it("deletes a request (204), then 404", async () => {
    const { id } = (await (await post(validLead)).json()) as { id: string };
    expect((await admin(`/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await admin(`/${id}`)).status).toBe(404);
    expect((await admin(`/${id}`, { method: "DELETE" })).status).toBe(404);
    expect((await admin(`/nope`, { method: "DELETE" })).status).toBe(400);
  });
});

describe("GET /api/admin/lease-requests/export.csv", () => {
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

describe("PUT /api/admin/lease-requests/{id}/follow-up", () => {
  // "Opvolgen op" per request, the list filtered to "Vandaag opvolgen" (overdue included),
  // the count of those due, and that count for the mailer's new-lead e-mail.

  let h: LeadsHarness;
  let ipSeq = 0;

  beforeAll(async () => {
    h = await startLeadsHarness("followup", { LEAD_RATE_LIMIT: "100" });
  });
  afterAll(async () => h?.stop());

  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${h.svc.url}/api/admin/lease-requests${path}`, {
      method,
      headers: { cookie: h.cookie, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function newLead(email: string): Promise<string> {
    const res = await postJson(
      `${h.svc.url}/api/lease-requests`,
      { ...validLead, email },
      `198.51.100.${++ipSeq}`,
    );
    return ((await res.json()) as { id: string }).id;
  }

  /** A day relative to today in Amsterdam, as Postgres computes it. */
  async function day(offset: number): Promise<string> {
    const { rows } = await h.sql.query<{ d: string }>(
      "SELECT to_char((now() AT TIME ZONE 'Europe/Amsterdam')::date + $1::int, 'YYYY-MM-DD') AS d",
      [offset],
    );
    return rows[0]!.d;
  }

  const list = async (query = "") => LeaseRequestListResponse.parse(await (await admin("GET", query)).json());

  describe("follow-up days", () => {
    it("are set, shown on the request and cleared", async () => {
      const id = await newLead("opvolgen@bedrijf.nl");
      const tomorrow = await day(1);
      const set = await admin("PUT", `/${id}/follow-up`, { followUpOn: tomorrow });
      expect(set.status).toBe(200);
      expect(LeaseRequest.parse(await set.json()).followUpOn).toBe(tomorrow);
      expect(LeaseRequest.parse(await (await admin("GET", `/${id}`)).json()).followUpOn).toBe(tomorrow);
      const cleared = await admin("PUT", `/${id}/follow-up`, { followUpOn: null });
      expect(LeaseRequest.parse(await cleared.json()).followUpOn).toBeNull();
    });

    it("refuses what is no day, with Dutch messages", async () => {
      const id = await newLead("fout@bedrijf.nl");
      const message = async (body: unknown) => {
        const res = await admin("PUT", `/${id}/follow-up`, body);
        expect(res.status).toBe(400);
        return ((await res.json()) as { fields: { message: string }[] }).fields.map((f) => f.message);
      };
      expect(await message({ followUpOn: "2026-02-30" })).toEqual(["Deze datum bestaat niet"]);
      expect(await message({ followUpOn: "morgen" })).toEqual(["Geef de datum op als JJJJ-MM-DD"]);
      expect(await message({ followUpOn: "1999-12-31" })).toEqual([FOLLOW_UP_RANGE_MESSAGE]);
      expect(await message({})).toHaveLength(1);
      expect(
        (await admin("PUT", "/2b1c9a52-6f0e-4c8e-9d4a-0c7c1f3e5a11/follow-up", { followUpOn: null })).status,
      ).toBe(404);
    });

    it("filters the list to today's and overdue ones, counts them, and tells the mailer", async () => {
      const [overdue, today, later] = [
        await newLead("te-laat@bedrijf.nl"),
        await newLead("vandaag@bedrijf.nl"),
        await newLead("later@bedrijf.nl"),
      ];
      await admin("PUT", `/${overdue}/follow-up`, { followUpOn: await day(-3) });
      await admin("PUT", `/${today}/follow-up`, { followUpOn: await day(0) });
      await admin("PUT", `/${later}/follow-up`, { followUpOn: await day(2) });

      const due = await list("?followUp=vandaag");
      expect(due.items.map((i) => i.id).sort()).toEqual([overdue, today].sort());
      expect(due.total).toBe(2);
      expect(due.counts.followUpDue).toBe(2);
      expect((await list()).counts.followUpDue).toBe(2);
      expect((await admin("GET", "?followUp=morgen")).status).toBe(400);

      const internal = await fetch(`${h.svc.url}/internal/follow-ups/due`, {
        headers: { "x-internal-token": h.env.INTERNAL_TOKEN! },
      });
      expect(InternalFollowUpsDue.parse(await internal.json())).toEqual({ due: 2 });
      expect((await fetch(`${h.svc.url}/internal/follow-ups/due`)).status).toBe(403);

      const csv = await (await admin("GET", "/export.csv?followUp=vandaag")).text();
      expect(csv).toContain("te-laat@bedrijf.nl");
      expect(csv).not.toContain("later@bedrijf.nl");
    });
  });
});
