import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANALYTICS_CHANNELS, ResponseReport, type ResponseFigures } from "@lease/contracts";
import { testAdmin } from "@lease/platform/testing";
import { staffMember, startLeadsHarness, tellStaff, type LeadsHarness } from "../testing";

// The report's figures, read from the packed weeks, equal a straightforward computation over the
// leads' own rows (percentile_disc per grouping set) on a few hundred generated quote requests and
// contact messages across weeks, owners, channels and campaigns, and still do after a first
// response changes, an owner changes, a contact message is answered, a person is erased and the
// response settings change.

let h: LeadsHarness;
const alice = testAdmin("alice").id;
const bob = testAdmin("bob").id;
const PERIOD = { from: "2026-01-07", to: "2026-02-24" };

beforeAll(async () => {
  h = await startLeadsHarness("respfigures", { LEAD_RATE_LIMIT: "1000" });
  await tellStaff(h, staffMember("alice"));
  await tellStaff(h, staffMember("bob"));
  await generate();
});
afterAll(() => h?.stop());

/** A deterministic pseudo-random stream (the same leads every run). */
let seed = 4343;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** Eight weeks around the period (its first and last week cut), quote requests and contact messages. */
async function generate() {
  const start = Date.parse("2026-01-03T00:00:00Z");
  for (const [table, count] of [
    ["lease_requests", 320],
    ["contact_messages", 90],
  ] as const) {
    const rows = Array.from({ length: count }, (_, i) => {
      const at = new Date(start + random() * 56 * 86_400_000);
      const answered = random() < 0.8;
      const minutes = Math.floor(random() ** 3 * 4 * 24 * 60);
      const channel = pick([null, "Paid Search", "Paid Social", "Direct", "Organic Search"]);
      return {
        at: at.toISOString(),
        due: random() < 0.9 ? new Date(at.getTime() + pick([4, 24]) * 3_600_000).toISOString() : null,
        answeredAt: answered ? new Date(at.getTime() + minutes * 60_000).toISOString() : null,
        working: answered ? Math.floor(minutes / 3) : null,
        owner: pick([alice, alice, bob, null]),
        email: i % 37 === 5 ? "wis@bedrijf.nl" : `lead${i}@bedrijf.nl`,
        attribution:
          channel === null
            ? null
            : JSON.stringify({
                channel,
                source: "google",
                medium: "cpc",
                campaign: pick(["", "voorjaar", "zomer", "lease-nu"]),
                term: "",
                content: "",
                paidClick: channel.startsWith("Paid"),
                referrerHost: "",
                landingPage: "/",
                firstSeenAt: at.toISOString(),
                pagesBeforeConversion: 1,
                pages: ["/"],
              }),
      };
    });
    const columns = (key: keyof (typeof rows)[number]) => rows.map((r) => r[key]);
    const common = `created_at, response_due_at, first_response_at, first_response_kind, response_working_minutes, owner_id, attribution`;
    const values = `a, d, r, CASE WHEN r IS NOT NULL THEN 'call' END, w, o, j`;
    await h.sql.query(
      table === "lease_requests"
        ? `INSERT INTO leads.lease_requests (car_url, contact_number, email, email_key, phone_key, ${common})
           SELECT 'https://www.autoscout24.nl/aanbod/x', '0612345678', e, e, '0612345678', ${values}
             FROM unnest($1::timestamptz[], $2::timestamptz[], $3::timestamptz[], $4::int[], $5::uuid[], $6::jsonb[], $7::text[]) AS t(a, d, r, w, o, j, e)`
        : `INSERT INTO leads.contact_messages (name, email, message, ${common})
           SELECT 'Jan', e, 'Een vraag over leasen', ${values}
             FROM unnest($1::timestamptz[], $2::timestamptz[], $3::timestamptz[], $4::int[], $5::uuid[], $6::jsonb[], $7::text[]) AS t(a, d, r, w, o, j, e)`,
      [
        columns("at"),
        columns("due"),
        columns("answeredAt"),
        columns("working"),
        columns("owner"),
        columns("attribution"),
        columns("email"),
      ],
    );
  }
}

/** The straightforward computation: every lead's row, percentile_disc per grouping set. */
const REFERENCE_SQL = `
  WITH lead AS (
    SELECT 'lease_request' AS kind, created_at, owner_id, attribution, response_due_at, first_response_at,
           response_working_minutes FROM leads.lease_requests
    UNION ALL
    SELECT 'contact_form', created_at, owner_id, attribution, response_due_at, first_response_at,
           response_working_minutes FROM leads.contact_messages
  ), input AS (
    SELECT kind, to_char(date_trunc('week', created_at AT TIME ZONE 'Europe/Amsterdam'), 'YYYY-MM-DD') AS week,
           owner_id, CASE WHEN attribution->>'channel' = ANY($4::text[]) THEN attribution->>'channel' END AS channel,
           NULLIF(attribution->>'campaign', '') AS campaign, response_due_at, first_response_at,
           response_working_minutes AS working,
           (round(extract(epoch FROM first_response_at - created_at) / 60))::int AS clock
      FROM lead
     WHERE (created_at AT TIME ZONE 'Europe/Amsterdam')::date BETWEEN $1::date AND $2::date
  )
  SELECT CASE GROUPING(week, owner_id, channel, campaign, kind)
           WHEN 15 THEN 'week:' || week WHEN 23 THEN 'owner:' || coalesce(owner_id::text, '-')
           WHEN 27 THEN 'channel:' || coalesce(channel, '-') WHEN 29 THEN 'campaign:' || coalesce(campaign, '-')
           WHEN 30 THEN 'kind:' || kind ELSE 'total' END AS key,
         count(*)::int AS leads, count(first_response_at)::int AS answered,
         count(*) FILTER (WHERE first_response_at <= response_due_at)::int AS "withinPromise",
         count(*) FILTER (WHERE first_response_at > response_due_at
                             OR (first_response_at IS NULL AND response_due_at < $3))::int AS late,
         percentile_disc(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY working) AS working,
         percentile_disc(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY clock) AS clock
    FROM input
   GROUP BY GROUPING SETS ((week), (owner_id), (channel), (campaign), (kind), ())`;

type Figures = Pick<ResponseFigures, "leads" | "answered" | "withinPromise" | "late"> & {
  working: (number | null)[];
  clock: (number | null)[];
};

async function reference(now: Date): Promise<Map<string, Figures>> {
  const { rows } = await h.sql.query<Figures & { key: string }>(REFERENCE_SQL, [
    PERIOD.from,
    PERIOD.to,
    now,
    ANALYTICS_CHANNELS,
  ]);
  return new Map(
    rows
      .filter((r) => r.key !== "campaign:-")
      .map(({ key, working, clock, ...r }) => [
        key,
        { ...r, working: working ?? [null, null], clock: clock ?? [null, null] },
      ]),
  );
}

const figuresOf = (f: ResponseFigures): Figures => ({
  leads: f.leads,
  answered: f.answered,
  withinPromise: f.withinPromise,
  late: f.late,
  working: [f.medianMinutes, f.p90Minutes],
  clock: [f.medianClockMinutes, f.p90ClockMinutes],
});

/** The report through the API, keyed as the reference is. */
async function reported(): Promise<Map<string, Figures>> {
  const res = await h.api("GET", `/api/admin/response-report?from=${PERIOD.from}&to=${PERIOD.to}`);
  expect(res.status).toBe(200);
  const r = ResponseReport.parse(await res.json());
  expect(r.otherCampaigns).toBeNull();
  return new Map([
    ...r.weeks.filter((w) => w.leads > 0).map((w) => [`week:${w.week}`, figuresOf(w)] as const),
    ...r.owners.map((o) => [`owner:${o.owner?.id ?? "-"}`, figuresOf(o)] as const),
    ...r.channels.map((c) => [`channel:${c.channel ?? "-"}`, figuresOf(c)] as const),
    ...r.campaigns.map((c) => [`campaign:${c.campaign}`, figuresOf(c)] as const),
    ...r.kinds.map((k) => [`kind:${k.kind}`, figuresOf(k)] as const),
    ["total", figuresOf(r.totals)] as const,
  ]);
}

async function expectSameFigures() {
  const now = new Date();
  const api = await reported();
  const expected = await reference(now);
  expect(Object.fromEntries(api)).toEqual(Object.fromEntries(expected));
  return api;
}

describe("the response report's figures", () => {
  it("equal a straightforward computation over the leads' rows, through every kind of change", async () => {
    const first = await expectSameFigures();
    // Eight weeks, both kinds, three owners (nobody's included), channels and campaigns.
    expect([...first.keys()].filter((k) => k.startsWith("week:"))).toHaveLength(8);
    expect(first.get("kind:contact_form")!.leads).toBeGreaterThan(50);
    expect(first.get("kind:lease_request")!.leads).toBeGreaterThan(200);
    // Read again: the period's weeks packed as stored (none stale now; the week before is left).
    const { rows: stale } = await h.sql.query(
      "SELECT 1 FROM leads.response_report_stale WHERE week BETWEEN '2026-01-05' AND '2026-02-24'",
    );
    expect(stale).toEqual([]);
    expect(Object.fromEntries(await reported())).toEqual(Object.fromEntries(first));

    const inPeriod = `created_at >= '2026-01-12' AND created_at < '2026-02-20'`;
    // A call that reached a customer never answered: its first response now.
    const { rows: waiting } = await h.sql.query<{ id: string }>(
      `SELECT id FROM leads.lease_requests WHERE first_response_at IS NULL AND ${inPeriod} ORDER BY created_at LIMIT 1`,
    );
    const call = await h.api("POST", `/api/admin/lease-requests/${waiting[0]!.id}/calls`, {
      outcome: "bereikt",
    });
    expect(call.status).toBe(201);
    // A first response corrected to an earlier moment, and an owner changed.
    await h.sql.query(
      `UPDATE leads.lease_requests SET first_response_at = created_at + interval '7 minutes', response_working_minutes = 7
        WHERE id = (SELECT id FROM leads.lease_requests WHERE first_response_at IS NOT NULL AND ${inPeriod} ORDER BY created_at DESC LIMIT 1)`,
    );
    const { rows: owned } = await h.sql.query<{ id: string }>(
      `SELECT id FROM leads.lease_requests WHERE owner_id = $1 AND ${inPeriod} ORDER BY created_at LIMIT 1`,
      [alice],
    );
    const moved = await h.api("PATCH", `/api/admin/lease-requests/${owned[0]!.id}/owner`, { ownerId: bob });
    expect(moved.status).toBe(200);
    // A contact message answered by e-mail (as the mailer tells it), another told twice, later.
    const { rows: contacts } = await h.sql.query<{ id: string; created_at: Date }>(
      `SELECT id, created_at FROM leads.contact_messages WHERE first_response_at IS NULL AND email <> 'wis@bedrijf.nl' AND ${inPeriod} ORDER BY created_at LIMIT 2`,
    );
    for (const [i, c] of contacts.entries()) {
      for (const hours of i === 0 ? [3] : [30, 50]) {
        const res = await fetch(`${h.svc.url}/internal/contact-messages/${c.id}/first-response`, {
          method: "PUT",
          headers: { "content-type": "application/json", "x-internal-token": h.env.INTERNAL_TOKEN! },
          body: JSON.stringify({
            at: new Date(c.created_at.getTime() + hours * 3_600_000).toISOString(),
            kind: "email",
          }),
        });
        expect(res.status).toBe(204);
      }
    }
    // A person erased: their quote requests and contact messages leave the report.
    const erased = await fetch(`${h.svc.url}/internal/privacy/erase`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-internal-token": h.env.INTERNAL_TOKEN! },
      body: JSON.stringify({ email: "wis@bedrijf.nl", leadIds: [] }),
    });
    expect(erased.status).toBe(200);
    const after = await expectSameFigures();
    expect(after.get("total")!.leads).toBeLessThan(first.get("total")!.leads);
    const { rows: answered } = await h.sql.query(
      `SELECT first_response_kind AS kind, round(extract(epoch FROM first_response_at - created_at) / 3600) AS hours
         FROM leads.contact_messages WHERE id = ANY($1::uuid[]) ORDER BY created_at`,
      [contacts.map((c) => c.id)],
    );
    expect(answered).toEqual([
      { kind: "email", hours: "3" },
      { kind: "email", hours: "30" },
    ]);

    // Other promises and working hours from now on: the figures already measured stay as they were.
    const settings = await h.api("PUT", "/api/admin/response-settings", {
      assignment: "manual",
      quoteMinutes: 60,
      contactMinutes: 30,
      basis: "clock",
      workingHours: { days: [1, 2, 3, 4, 5, 6], from: "08:00", to: "20:00" },
      closedDays: [],
    });
    expect(settings.status).toBe(200);
    expect(Object.fromEntries(await expectSameFigures())).toEqual(Object.fromEntries(after));

    // A contact message for an id that does not exist (erased meanwhile) is a 404 the mailer drops
    // (its first digit changed: to "f", or to "e" if it was "f", else 1 run in 16 hit the message).
    const other = contacts[0]!.id.replace(/^./, (c) => (c === "f" ? "e" : "f"));
    const gone = await fetch(`${h.svc.url}/internal/contact-messages/${other}/first-response`, {
      method: "PUT",
      headers: { "content-type": "application/json", "x-internal-token": h.env.INTERNAL_TOKEN! },
      body: JSON.stringify({ at: new Date().toISOString(), kind: "email" }),
    });
    expect(gone.status).toBe(404);
  });
});
