import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLogPage, type AuditAction, type AuditEntry } from "@lease/contracts";
import { startFullStack, type FullStack } from "./stack";

// Across the services: what an admin does in leads (status changes, deletions), settings
// (which section and fields, never a value) and the mailer (e-mails sent, test e-mails, inbox
// deletions) reaches the gateway's one audit log over the audit queue, with the admin's username
// as the actor and ids only as targets: nothing of the lead's personal data, never the API key.

const LEAD_EMAIL = "logboek@klant.nl";
const LEAD_PHONE = "06 11223344";
const LEAD_COMPANY = "Logboek Klant BV";
const API_KEY = "SG.logboek-secret-0123456789abcdef";

let stack: FullStack;
let cookie: string;
let sql: pg.Pool;

beforeAll(async () => {
  stack = await startFullStack({ LEAD_RATE_LIMIT: "100000", WORKER_NICE: "0" });
  cookie = await stack.adminCookie();
  sql = new pg.Pool({ connectionString: stack.db.url, max: 2 });
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await stack?.stop();
});

function call(method: string, path: string, body?: unknown) {
  return fetch(`${stack.gateway.url}${path}`, {
    method,
    headers: {
      origin: stack.origin,
      cookie,
      // Every state change carries the JSON content type (the CSRF check), a body or not.
      ...(method === "GET" ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function auditLog(query = ""): Promise<AuditEntry[]> {
  const res = await call("GET", `/api/admin/audit-log?limit=200${query}`);
  expect(res.status).toBe(200);
  return AuditLogPage.parse(await res.json()).items;
}

/** The entries of these actions once `count` of them are there (they arrive over the queue). */
async function entriesOf(actions: AuditAction[], count: number): Promise<AuditEntry[]> {
  const until = Date.now() + 15_000;
  for (;;) {
    const items = (await auditLog()).filter((e) => actions.includes(e.action));
    if (items.length >= count || Date.now() > until) return items;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const brief = (e: AuditEntry) => [e.action, e.actor, e.target, e.detail];

async function newLead(): Promise<string> {
  const res = await call("POST", "/api/lease-requests", {
    carUrl: "https://www.autoscout24.nl/aanbod/kia-ev6",
    contactNumber: LEAD_PHONE,
    email: LEAD_EMAIL,
    companyName: LEAD_COMPANY,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("the audit log across the services", () => {
  let leadId: string;

  it("records a lease request's status change (only a real change) by lead id, queued with the change", async () => {
    leadId = await newLead();
    const status = (s: string) =>
      call("PATCH", `/api/admin/lease-requests/${leadId}/status`, { status: s, isRead: true });
    expect((await status("bekeken")).status).toBe(200);
    expect((await status("bekeken")).status).toBe(200); // no change: no entry
    expect((await status("gereageerd")).status).toBe(200);
    // The status change and its audit entry are written in one transaction (the outbox).
    const queued = await sql.query(
      "SELECT count(*)::int AS n FROM leads.outbox WHERE job_name = 'audit.record' AND payload->>'target' = $1",
      [leadId],
    );
    expect(queued.rows).toEqual([{ n: 2 }]);

    const changes = await entriesOf(["lead.status_changed"], 2);
    expect(changes.map(brief)).toEqual([
      ["lead.status_changed", "admin", leadId, "bekeken → gereageerd"],
      ["lead.status_changed", "admin", leadId, "nieuw → bekeken"],
    ]);
  });

  it("records a follow-up day (only a real change) and notes added, changed and deleted, by lead id, never a note's text", async () => {
    const lead = await newLead();
    const followUp = (day: string | null) =>
      call("PUT", `/api/admin/lease-requests/${lead}/follow-up`, { followUpOn: day });
    expect((await followUp("2026-12-01")).status).toBe(200);
    expect((await followUp("2026-12-01")).status).toBe(200); // the same day: no entry
    expect((await followUp(null)).status).toBe(200);
    const text = "Belt terug na de feestdagen, vraagt naar de EX30";
    const added = await call("POST", `/api/admin/lease-requests/${lead}/notes`, { body: text });
    expect(added.status).toBe(201);
    const noteId = ((await added.json()) as { id: string }).id;
    const note = `/api/admin/lease-requests/${lead}/notes/${noteId}`;
    expect((await call("PUT", note, { body: `${text}, en de XC40` })).status).toBe(200);
    expect((await call("DELETE", note)).status).toBe(204);
    // Each change and its audit entry are written in one transaction (the outbox).
    const queued = await sql.query(
      "SELECT count(*)::int AS n FROM leads.outbox WHERE job_name = 'audit.record' AND payload->>'target' = $1",
      [lead],
    );
    expect(queued.rows).toEqual([{ n: 5 }]);

    const actions: AuditAction[] = [
      "lead.follow_up_changed",
      "lead.note_added",
      "lead.note_edited",
      "lead.note_deleted",
    ];
    const entries = (await entriesOf(actions, 5)).filter((e) => e.target === lead);
    expect(entries.map(brief)).toEqual([
      ["lead.note_deleted", "admin", lead, null],
      ["lead.note_edited", "admin", lead, null],
      ["lead.note_added", "admin", lead, null],
      ["lead.follow_up_changed", "admin", lead, "gewist"],
      ["lead.follow_up_changed", "admin", lead, "2026-12-01"],
    ]);
    expect(JSON.stringify(await auditLog())).not.toContain("feestdagen");
  });

  it("records the e-mails sent from the panel (follow-up, test) and an inbox deletion, by id only", async () => {
    const saved = await call("PUT", "/api/admin/company-settings", {
      sendgridApiKey: API_KEY,
      fromEmailAddress: "noreply@logboek.nl",
    });
    expect(saved.status).toBe(200);
    const sent = await call("POST", "/api/admin/send-email", {
      to: LEAD_EMAIL,
      subject: "Follow-up op uw lease aanvraag",
      message: "Beste klant, hierbij onze offerte.",
      leaseRequestId: leadId,
    });
    expect(sent.status).toBe(202);
    const sentId = ((await sent.json()) as { id: string }).id;
    // SendGrid is an address nobody answers here: the test e-mail fails, and is recorded as such.
    const test = await call("POST", "/api/admin/email-settings/test");
    expect(test.status).toBe(502);
    expect((await call("DELETE", `/api/admin/emails/${sentId}`)).status).toBe(204);

    const [deleted] = await entriesOf(["email.deleted"], 1);
    const [follow] = await entriesOf(["email.sent"], 1);
    const [tested] = await entriesOf(["email.test_sent"], 1);
    expect(brief(follow!)).toEqual(["email.sent", "admin", leadId, `e-mail ${sentId}`]);
    expect(brief(deleted!)).toEqual(["email.deleted", "admin", sentId, null]);
    expect(tested!.actor).toBe("admin");
    expect(tested!.detail).toBe("mislukt");
  });

  it("records which settings sections and fields changed, never a value; an unchanged save adds nothing", async () => {
    const before = (await auditLog()).filter((e) => e.action.startsWith("settings.")).length;
    const body = {
      companyName: "Logboek Lease BV",
      phoneNumber: "020 1234567",
      facebookPixelId: "1234567890",
      sendgridApiKey: `${API_KEY}-nieuw`,
      notifyCompanyEmail: false,
    };
    expect((await call("PUT", "/api/admin/company-settings", body)).status).toBe(200);
    expect((await call("PUT", "/api/admin/company-settings", body)).status).toBe(200); // same again
    expect((await call("PUT", "/api/admin/theme-settings", { primaryColor: "#123456" })).status).toBe(200);
    const actions: AuditAction[] = [
      "settings.company_changed",
      "settings.email_changed",
      "settings.pixels_changed",
      "settings.theme_changed",
    ];
    await entriesOf(["settings.theme_changed"], 1);
    // The theme was saved last: once its entry is in, the company saves' entries are too.
    await new Promise((r) => setTimeout(r, 500));
    const entries = await entriesOf(actions, before + 4);
    const latest = entries.slice(0, entries.length - before).map(brief);
    expect(latest).toHaveLength(4);
    expect(latest).toEqual(
      expect.arrayContaining([
        ["settings.company_changed", "admin", null, "companyName, phoneNumber"],
        ["settings.email_changed", "admin", null, "notifyCompanyEmail, sendgridApiKey"],
        ["settings.pixels_changed", "admin", null, "facebookPixelId"],
        ["settings.theme_changed", "admin", null, "primaryColor"],
      ]),
    );
    // The first save of the key and sender was recorded too.
    expect(entries.map(brief)).toContainEqual([
      "settings.email_changed",
      "admin",
      null,
      "fromEmailAddress, sendgridApiKey",
    ]);
  });

  it("records every spend import (its platform and counts), a typed-in day and a campaign link, each with its admin, queued with the change", async () => {
    const csv = [
      "Campaign name,Day,Amount spent (EUR)",
      "Logboek lente,2026-03-02,100.00",
      "Logboek lente,2026-03-03,50.00",
      "Logboek zomer,2026-03-03,20.00",
      "Logboek zomer,nooit,1.00",
    ].join("\n");
    const imported = await call("POST", "/api/admin/ad-spend/import", { csv });
    expect(imported.status).toBe(200);
    expect((await call("POST", "/api/admin/ad-spend/import", { csv })).status).toBe(200); // again: unchanged
    const typed = { platform: "tiktok", day: "2026-03-04", campaign: "Logboek TT", amount: 45.5 };
    expect((await call("POST", "/api/admin/ad-spend", typed)).status).toBe(200);
    const link = { platform: "meta", campaign: "Logboek lente", utmCampaign: "lente" };
    expect((await call("PUT", "/api/admin/ad-spend/links", link)).status).toBe(204);
    expect((await call("PUT", "/api/admin/ad-spend/links", { ...link, utmCampaign: null })).status).toBe(204);
    // Each change and its entry are written in one transaction (tracking's outbox).
    const queued = await sql.query(
      "SELECT count(*)::int AS n FROM tracking.outbox WHERE job_name = 'audit.record' AND payload->>'action' LIKE 'ad_spend.%'",
    );
    expect(queued.rows).toEqual([{ n: 5 }]);

    const actions: AuditAction[] = ["ad_spend.imported", "ad_spend.entered", "ad_spend.linked"];
    const entries = await entriesOf(actions, 5);
    expect(entries.map(brief)).toEqual([
      ["ad_spend.linked", "admin", "Logboek lente", "Meta (Facebook, Instagram): koppeling verwijderd"],
      [
        "ad_spend.linked",
        "admin",
        "Logboek lente",
        "Meta (Facebook, Instagram): telt voor utm_campaign lente",
      ],
      ["ad_spend.entered", "admin", "Logboek TT", "TikTok, 4 maart 2026: € 45,50"],
      [
        "ad_spend.imported",
        "admin",
        "Meta (Facebook, Instagram)",
        "2 campagnes: 0 dagen ingelezen, 3 ongewijzigd, 1 regel overgeslagen",
      ],
      [
        "ad_spend.imported",
        "admin",
        "Meta (Facebook, Instagram)",
        "2 campagnes: 3 dagen ingelezen, 0 ongewijzigd, 1 regel overgeslagen",
      ],
    ]);
  });

  it("records a deletion, and holds nothing of the lead's personal data or the key anywhere", async () => {
    // The CSV export of the leads (up to 50,000 people) is recorded with its row count, never the
    // search it was filtered by.
    const csv = await call("GET", `/api/admin/lease-requests/export.csv?q=${encodeURIComponent(LEAD_EMAIL)}`);
    expect(csv.status).toBe(200);
    const csvRows = (await csv.text()).split("\r\n").slice(1, -1);
    expect(csvRows.length).toBeGreaterThan(1);
    expect(csvRows.every((row) => row.includes(LEAD_EMAIL))).toBe(true);
    const [exported] = await entriesOf(["lead.exported"], 1);
    expect(brief(exported!)).toEqual([
      "lead.exported",
      "admin",
      null,
      `${csvRows.length} aanvragen (filter: zoekterm)`,
    ]);

    expect((await call("DELETE", `/api/admin/lease-requests/${leadId}`)).status).toBe(204);
    const [deleted] = await entriesOf(["lead.deleted"], 1);
    expect(brief(deleted!)).toEqual(["lead.deleted", "admin", leadId, null]);

    const filtered = await auditLog(`&target=${leadId}&actor=admin`);
    expect(filtered.map((e) => e.action)).toEqual([
      "lead.deleted",
      "email.sent",
      "lead.status_changed",
      "lead.status_changed",
    ]);

    const { rows } = await sql.query("SELECT row_to_json(a)::text AS row FROM gateway.audit_log a");
    const everything = rows.map((r: { row: string }) => r.row).join("\n");
    for (const secret of [LEAD_EMAIL, LEAD_PHONE, LEAD_COMPANY, API_KEY, "noreply@logboek.nl", "1234567890"])
      expect(everything).not.toContain(secret);
    const outbox = await sql.query(
      "SELECT payload::text AS p FROM leads.outbox WHERE job_name = 'audit.record'",
    );
    for (const row of outbox.rows as { p: string }[]) expect(row.p).not.toContain(LEAD_EMAIL);
  });
});
