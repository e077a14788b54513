import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LeadCall, ResponseReport, type LeadAttribution } from "@lease/contracts";
import { testAdmin } from "@lease/platform/testing";
import { LEADS_OF_WEEKS_SQL } from "../repositories/response-report";
import { staffMember, startLeadsHarness, tellStaff, type LeadsHarness } from "../testing";

// How the promises are kept, over time: GET /api/admin/response-report and its CSV, per Amsterdam
// week, owner, channel and campaign, from the figures kept on each lead.

let h: LeadsHarness;
const alice = testAdmin("alice").id;
const bob = testAdmin("bob").id;

beforeAll(async () => {
  h = await startLeadsHarness("respreport", { LEAD_RATE_LIMIT: "1000" });
  await tellStaff(h, staffMember("alice"));
  await tellStaff(h, staffMember("bob"));
});
afterAll(() => h?.stop());
beforeEach(async () => {
  await h.sql.query("DELETE FROM leads.lease_requests");
});

const visit = (channel: string, campaign: string): LeadAttribution =>
  ({
    channel,
    source: "google",
    medium: "cpc",
    campaign,
    term: "",
    content: "",
    paidClick: channel.startsWith("Paid"),
    referrerHost: "",
    landingPage: "/",
    firstSeenAt: "2026-03-01T10:00:00.000Z",
    pagesBeforeConversion: 1,
    pages: ["/"],
  }) as LeadAttribution;

/** A lead as stored: arrival, deadline, first response and its working minutes, owner, visit. */
async function stored(lead: {
  at: string;
  dueMinutes?: number | null;
  answeredAfter?: number;
  workingMinutes?: number;
  owner?: string | null;
  attribution?: LeadAttribution | null;
}) {
  await h.sql.query(
    `INSERT INTO leads.lease_requests (car_url, contact_number, email, email_key, phone_key, created_at,
       response_due_at, first_response_at, first_response_kind, response_working_minutes, owner_id, attribution)
     VALUES ('https://www.autoscout24.nl/aanbod/x', '0612345678', 'jan@bedrijf.nl', 'jan@bedrijf.nl', '0612345678',
       $1::timestamptz, $1::timestamptz + make_interval(mins => $2), $1::timestamptz + make_interval(mins => $3),
       CASE WHEN $3::int IS NOT NULL THEN 'call' END, $4, $5, $6)`,
    [
      lead.at,
      lead.dueMinutes === undefined ? 24 * 60 : lead.dueMinutes,
      lead.answeredAfter ?? null,
      lead.workingMinutes ?? null,
      lead.owner === undefined ? alice : lead.owner,
      lead.attribution === undefined ? null : JSON.stringify(lead.attribution),
    ],
  );
}

const report = async (query: string) => {
  const res = await h.api("GET", `/api/admin/response-report?${query}`);
  expect(res.status).toBe(200);
  return ResponseReport.parse(await res.json());
};

/** Two Amsterdam weeks in March 2026 (winter time, UTC+1), and leads just outside them. */
async function march() {
  // Week 10. Monday 10:00, answered after 30 minutes.
  await stored({
    at: "2026-03-02T09:00:00Z",
    answeredAfter: 30,
    workingMinutes: 30,
    attribution: visit("Paid Search", "voorjaar"),
  });
  // Friday 17:00, answered Monday 09:45: 2 d 16 u 45 min on the clock, 75 working minutes, late.
  await stored({
    at: "2026-03-06T16:00:00Z",
    answeredAfter: 3885,
    workingMinutes: 75,
    attribution: visit("Paid Search", "voorjaar"),
  });
  // Week 11.
  await stored({
    at: "2026-03-10T10:00:00Z",
    answeredAfter: 120,
    workingMinutes: 120,
    owner: bob,
    attribution: visit("Organic Search", ""),
  });
  // Never answered, past its deadline.
  await stored({ at: "2026-03-11T11:00:00Z", owner: bob });
  // From before deadlines (none), nobody's: neither within the promise nor late.
  await stored({ at: "2026-03-12T11:00:00Z", owner: null, dueMinutes: null });
  // Sunday 23:30 Amsterdam (22:30 UTC): the period's last day; answered after an hour, 0 working minutes.
  await stored({
    at: "2026-03-15T22:30:00Z",
    answeredAfter: 60,
    workingMinutes: 0,
    attribution: visit("Direct", ""),
  });
  // Outside: Sunday 1 March 23:30 and Monday 16 March 00:30 Amsterdam.
  await stored({ at: "2026-03-01T22:30:00Z", answeredAfter: 5, workingMinutes: 0 });
  await stored({ at: "2026-03-15T23:30:00Z", answeredAfter: 5, workingMinutes: 0 });
}

describe("GET /api/admin/response-report", () => {
  it("per Amsterdam week, owner, channel and campaign: leads, answered, within the promise, median and p90 in working and clock minutes", async () => {
    await march();
    const r = await report("from=2026-03-02&to=2026-03-15");
    expect(r.totals).toEqual({
      leads: 6,
      answered: 4,
      unanswered: 2,
      withinPromise: 3,
      late: 2,
      withinPromiseShare: 0.6,
      medianMinutes: 30,
      p90Minutes: 120,
      medianClockMinutes: 60,
      p90ClockMinutes: 3885,
    });
    expect(r.weeks).toEqual([
      {
        week: "2026-03-02",
        isoWeek: 10,
        leads: 2,
        answered: 2,
        unanswered: 0,
        withinPromise: 1,
        late: 1,
        withinPromiseShare: 0.5,
        medianMinutes: 30,
        p90Minutes: 75,
        medianClockMinutes: 30,
        p90ClockMinutes: 3885,
      },
      {
        week: "2026-03-09",
        isoWeek: 11,
        leads: 4,
        answered: 2,
        unanswered: 2,
        withinPromise: 2,
        late: 1,
        withinPromiseShare: 2 / 3,
        medianMinutes: 0,
        p90Minutes: 120,
        medianClockMinutes: 60,
        p90ClockMinutes: 120,
      },
    ]);
    expect(
      r.owners.map((o) => [o.owner?.username ?? null, o.leads, o.answered, o.withinPromise, o.late]),
    ).toEqual([
      ["alice", 3, 3, 2, 1],
      ["bob", 2, 1, 1, 1],
      [null, 1, 0, 0, 0],
    ]);
    expect(r.owners[0]!.owner).toEqual({ id: alice, username: "alice" });
    const channels = Object.fromEntries(r.channels.map((c) => [String(c.channel), c.leads]));
    expect(channels).toEqual({ "Paid Search": 2, "Organic Search": 1, Direct: 1, null: 2 });
    expect(r.channels[0]).toMatchObject({
      channel: "Paid Search",
      medianClockMinutes: 30,
      p90ClockMinutes: 3885,
    });
    expect(r.channels.at(-1)!.channel).toBeNull();
    // Leads without a utm_campaign are in no campaign's row.
    expect(r.campaigns).toEqual([expect.objectContaining({ campaign: "voorjaar", leads: 2, late: 1 })]);
    expect(r.otherCampaigns).toBeNull();
  });

  it("lists every week of the period, empty ones too, and a period without leads has no figures", async () => {
    const r = await report("from=2026-02-25&to=2026-03-04");
    expect(r.weeks.map((w) => [w.week, w.leads])).toEqual([
      ["2026-02-23", 0],
      ["2026-03-02", 0],
    ]);
    expect(r.totals).toMatchObject({ leads: 0, withinPromiseShare: null, medianMinutes: null });
    expect(r.owners).toEqual([]);
  });

  it("a call that reached the customer answers the lead in the report: the minutes it waited", async () => {
    const id = await h.quote();
    const before = await report(`from=${today()}&to=${today()}`);
    expect(before.totals).toMatchObject({ leads: 1, answered: 0, unanswered: 1, late: 0 });
    await h.sql.query(
      "UPDATE leads.lease_requests SET created_at = now() - interval '90 minutes' WHERE id = $1",
      [id],
    );
    const call = await h.api("POST", `/api/admin/lease-requests/${id}/calls`, { outcome: "bereikt" });
    LeadCall.parse(await call.json());
    const { rows } = await h.sql.query<{ m: number }>(
      "SELECT response_working_minutes AS m FROM leads.lease_requests WHERE id = $1",
      [id],
    );
    const after = await report(`from=${today(-1)}&to=${today()}`);
    expect(after.totals).toMatchObject({
      leads: 1,
      answered: 1,
      withinPromise: 1,
      medianClockMinutes: 90,
      medianMinutes: rows[0]!.m,
    });
  });

  it("refuses bad dates, a reversed period, more than two years and the future, in Dutch", async () => {
    const refused = async (query: string, message: string) => {
      const res = await h.api("GET", `/api/admin/response-report?${query}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(message);
    };
    await refused("from=2026-02-30&to=2026-03-01", "Deze datum bestaat niet");
    await refused("from=1-3-2026&to=2026-03-01", "JJJJ-MM-DD");
    await refused("to=2026-03-01", "datum");
    await refused("from=2026-03-02&to=2026-03-01", "De begindatum ligt na de einddatum");
    await refused("from=2024-02-29&to=2026-03-01", "hoogstens twee jaar");
    await refused(`from=${today()}&to=${today(1)}`, "in de toekomst");
    expect((await h.api("GET", "/api/admin/response-report?from=2024-03-01&to=2026-03-01")).status).toBe(200);
    const anonymous = await fetch(`${h.svc.url}/api/admin/response-report?from=2026-03-02&to=2026-03-15`);
    expect(anonymous.status).toBe(401);
  });
});

describe("GET /api/admin/response-report.csv", () => {
  it("a row per week, owner, channel, campaign and the total, every cell formula-safe", async () => {
    await march();
    await stored({
      at: "2026-03-03T09:00:00Z",
      answeredAfter: 10,
      workingMinutes: 10,
      attribution: visit("Paid Social", '=HYPERLINK("x")'),
    });
    const res = await h.api("GET", "/api/admin/response-report.csv?from=2026-03-02&to=2026-03-15");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toContain("reactietijden-2026-03-02-2026-03-15.csv");
    // The BOM kept (fetch's text() would drop it): Dutch Excel reads the file as UTF-8.
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.startsWith("\uFEFF")).toBe(true);
    const lines = text.slice(1).trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      '"Indeling";"Naam";"Aanvragen";"Beantwoord";"Nooit beantwoord";"Binnen belofte";"Te laat";"Binnen belofte (%)";"Mediaan (werkminuten)";"P90 (werkminuten)";"Mediaan (klokminuten)";"P90 (klokminuten)"',
    );
    expect(lines).toContain('"Week";"Week 10 (02-03-2026)";"3";"3";"0";"2";"1";"66,7";"30";"75";"30";"3885"');
    expect(lines).toContain('"Eigenaar";"Niet toegewezen";"1";"0";"1";"0";"0";"";"";"";"";""');
    expect(lines).toContain('"Kanaal";"Betaald zoeken";"2";"2";"0";"1";"1";"50,0";"30";"75";"30";"3885"');
    expect(lines).toContain(
      '"Campagne";"\'=HYPERLINK(""x"")";"1";"1";"0";"1";"0";"100,0";"10";"10";"10";"10"',
    );
    expect(lines.at(-1)).toMatch(/^"Totaal";"02-03-2026 t\/m 15-03-2026";"7";"5";"2";"4";"2";"66,7"/);
    expect((await h.api("GET", "/api/admin/response-report.csv?from=2026-03-15&to=2026-03-02")).status).toBe(
      400,
    );
  });
});

describe("the report's read", () => {
  it("packs a stale week from an index-only scan of its entries (lease_requests_response_report_idx) beside 20,000 other leads", async () => {
    await h.sql.query(
      `INSERT INTO leads.lease_requests (car_url, contact_number, email, email_key, phone_key, created_at, message)
       SELECT 'https://www.autoscout24.nl/aanbod/x', '0612345678', 'jan@bedrijf.nl', 'jan@bedrijf.nl', '0612345678',
              timestamptz '2024-01-01' + make_interval(hours => i), repeat('Graag een offerte. ', 20)
         FROM generate_series(1, 20000) i`,
    );
    await h.sql.query("VACUUM ANALYZE leads.lease_requests");
    const { rows } = await h.sql.query<{ "QUERY PLAN": string }>(
      `EXPLAIN ${LEADS_OF_WEEKS_SQL.lease_request}`,
      [["2025-06-02", "2025-06-09"]],
    );
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).toContain("Index Only Scan using lease_requests_response_report_idx");
    expect(plan).not.toContain("Seq Scan on lease_requests");
  });
});

/** An Amsterdam day relative to today ("YYYY-MM-DD"). */
function today(days = 0): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}
