// Who answers a lead and how fast (response.ts): the response settings; a lead's owner, assigned on
// arrival by the rule, reassigned and handed on; the calls staff log and the first response they
// measure with each lead's deadline; the response report and its CSV. Each part below has a leads
// service of its own (its own database), as each had as a file of its own.
import { afterAll, beforeAll, describe, expect, it, beforeEach } from "vitest";
import {
  DEFAULT_RESPONSE_SETTINGS,
  ResponseSettingsResponse,
  LeadHistory,
  LeaseRequest,
  LeaseRequestListResponse,
  LeadCall,
  ResponseReport,
  type LeadAttribution,
  ANALYTICS_CHANNELS,
  type ResponseFigures,
} from "@lease/contracts";
import { startLeadsHarness, type LeadsHarness, staffMember, tellStaff } from "../testing";
import { adminCookie, testAdmin } from "@lease/platform/testing";
import { LEADS_OF_WEEKS_SQL } from "../repositories/response-report";

describe("GET /api/admin/response-settings · PUT /api/admin/response-settings", () => {
  // The response settings: the site's promises until saved, the whole saved at once (validated, Dutch
  // 400s), each save that changed something audited with the fields' names.

  let h: LeadsHarness;

  beforeAll(async () => {
    h = await startLeadsHarness("respsettings");
  });
  afterAll(() => h?.stop());

  const settings = (method: "GET" | "PUT", body?: unknown, contentType = "application/json") =>
    fetch(`${h.svc.url}/api/admin/response-settings`, {
      method,
      headers: { cookie: h.cookie, "content-type": contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const valid = {
    assignment: "least-open",
    quoteMinutes: 1440,
    contactMinutes: 240,
    basis: "working",
    workingHours: { days: [1, 2, 3, 4, 5], from: "08:30", to: "24:00" },
    closedDays: ["2026-12-24", "2026-12-31"],
  };

  async function problems(body: unknown): Promise<{ status: number; messages: string[] }> {
    const res = await settings("PUT", body);
    const json = (await res.json()) as { message: string; fields?: { message: string }[] };
    return { status: res.status, messages: [json.message, ...(json.fields?.map((d) => d.message) ?? [])] };
  }

  describe("the settings", () => {
    it("answers the site's promises before anything is saved: 24 hours for a quote, 4 working hours for a message", async () => {
      const res = await settings("GET");
      expect(res.status).toBe(200);
      const body = ResponseSettingsResponse.parse(await res.json());
      expect(body).toEqual({ ...DEFAULT_RESPONSE_SETTINGS, basis: null, updatedAt: null });
      expect(body.workingHours).toEqual({ days: [1, 2, 3, 4, 5], from: "09:00", to: "17:30" });
    });

    it("saves the whole, with one basis for both promises, and audits the fields that changed (never a value)", async () => {
      const res = await settings("PUT", valid);
      expect(res.status).toBe(200);
      const saved = ResponseSettingsResponse.parse(await res.json());
      expect(saved).toMatchObject({
        assignment: "least-open",
        quoteBasis: "working",
        contactBasis: "working",
      });
      expect(saved.basis).toBe("working");
      expect(saved.updatedAt).not.toBeNull();
      expect(ResponseSettingsResponse.parse(await (await settings("GET")).json())).toEqual(saved);
      // Queued in the save's transaction.
      const { rows } = await h.sql.query<{ payload: { action: string; detail: string; actor: string } }>(
        `SELECT payload FROM leads.outbox WHERE job_name = 'audit.record' AND payload->>'action' = 'settings.response_changed'`,
      );
      expect(rows.map((r) => r.payload)).toEqual([
        expect.objectContaining({
          actor: "admin",
          detail: "assignment, quoteBasis, workingHours, closedDays",
        }),
      ]);
    });

    it("a save that changes nothing adds no audit entry; a basis per promise wins over the shared one", async () => {
      await settings("PUT", valid);
      const res = await settings("PUT", { ...valid, quoteBasis: "clock" });
      const saved = ResponseSettingsResponse.parse(await res.json());
      expect([saved.quoteBasis, saved.contactBasis, saved.basis]).toEqual(["clock", "working", null]);
      const { rows } = await h.sql.query<{ detail: string }>(
        `SELECT payload->>'detail' AS detail FROM leads.outbox
          WHERE job_name = 'audit.record' AND payload->>'action' = 'settings.response_changed' ORDER BY payload->>'at'`,
      );
      expect(rows.map((r) => r.detail)).toEqual([
        "assignment, quoteBasis, workingHours, closedDays",
        "quoteBasis",
      ]);
    });

    it("refuses what cannot be a setting, with a Dutch message a person can act on", async () => {
      const cases: [unknown, string][] = [
        [{ ...valid, assignment: "random" }, "Kies hoe nieuwe aanvragen worden toegewezen"],
        [{ ...valid, quoteMinutes: 0 }, "minstens 1 minuut"],
        [{ ...valid, quoteMinutes: 1e-9 }, "een heel aantal minuten"],
        [{ ...valid, contactMinutes: 43_201 }, "hoogstens 30 dagen"],
        [{ ...valid, basis: undefined }, "werkuren (working) of in klokuren (clock)"],
        [{ ...valid, workingHours: { ...valid.workingHours, days: [] } }, "minstens één werkdag"],
        [
          { ...valid, workingHours: { ...valid.workingHours, days: [1, 8] } },
          "1 (maandag) tot en met 7 (zondag)",
        ],
        [{ ...valid, workingHours: { ...valid.workingHours, days: [1, 1] } }, "maar één keer"],
        [{ ...valid, workingHours: { ...valid.workingHours, from: "9:00" } }, "UU:MM"],
        [{ ...valid, workingHours: { ...valid.workingHours, from: "24:00" } }, "UU:MM"],
        [{ ...valid, workingHours: { ...valid.workingHours, to: "24:30" } }, "UU:MM"],
        [{ ...valid, workingHours: { days: [1], from: "17:30", to: "09:00" } }, "eindigen na het begin"],
        [{ ...valid, closedDays: ["2026-13-01"] }, "Deze datum bestaat niet"],
        [{ ...valid, closedDays: ["2026-02-30"] }, "Deze datum bestaat niet"],
        [{ ...valid, closedDays: ["\ud800"] }, "JJJJ-MM-DD"],
        [{ ...valid, closedDays: ["1999-12-31"] }, "tussen 2000 en 2100"],
        [{ ...valid, extra: true }, "Onbekend veld: extra"],
      ];
      for (const [body, message] of cases) {
        const { status, messages } = await problems(body);
        expect(status, JSON.stringify(body)).toBe(400);
        expect(messages.join(" | "), JSON.stringify(body)).toContain(message);
      }
    });

    it("refuses a save without a JSON content type (415) and a reader without a session (401)", async () => {
      expect((await settings("PUT", valid, "text/plain")).status).toBe(415);
      const anonymous = await fetch(`${h.svc.url}/api/admin/response-settings`);
      expect(anonymous.status).toBe(401);
    });
  });
});

describe("PATCH /api/admin/lease-requests/{id}/owner", () => {
  // An owner for every lead: assigned on arrival by the rule (round-robin, least open, or by hand),
  // safe when leads arrive at once, reassigned from the detail (audited, on the timeline), and handed
  // on when the owner is disabled. Leads learns the admins from the gateway's leads.staff jobs.

  let h: LeadsHarness;
  const alice = testAdmin("alice");
  const bob = testAdmin("bob");
  const carol = testAdmin("carol");

  beforeAll(async () => {
    h = await startLeadsHarness("owners", { LEAD_RATE_LIMIT: "1000" });
  });
  afterAll(() => h?.stop());

  async function rule(assignment: "round-robin" | "least-open" | "manual") {
    const res = await h.api("PUT", "/api/admin/response-settings", {
      assignment,
      quoteMinutes: 1440,
      contactMinutes: 240,
      basis: "working",
      workingHours: { days: [1, 2, 3, 4, 5], from: "09:00", to: "17:30" },
      closedDays: [],
    });
    expect(res.status).toBe(200);
  }

  async function lead(id: string): Promise<LeaseRequest> {
    return LeaseRequest.parse(await (await h.api("GET", `/api/admin/lease-requests/${id}`)).json());
  }
  const ownerOf = async (id: string) => (await lead(id)).owner?.username ?? null;

  beforeEach(async () => {
    // Each test starts from nobody's leads and the three admins active and taking new leads.
    await h.sql.query("DELETE FROM leads.lease_requests; DELETE FROM leads.contact_messages");
    for (const name of ["alice", "bob", "carol"]) await tellStaff(h, staffMember(name));
    // The next turn is a multiple of 2 and 3: the rule starts with the first by name (alice).
    await h.sql.query("SELECT setval('leads.assignment_turn', 5)");
  });

  describe("assignment on arrival", () => {
    it("round-robin: among the admins who take new leads, four quote requests go alternately", async () => {
      await tellStaff(h, staffMember("carol", { takesNewLeads: false }));
      await rule("round-robin");
      const owners = [];
      for (let i = 0; i < 4; i++) owners.push(await ownerOf(await h.quote()));
      expect(owners).toEqual(["alice", "bob", "alice", "bob"]);
    });

    it("two leads arriving at once never both go to the same admin", async () => {
      await tellStaff(h, staffMember("carol", { takesNewLeads: false }));
      await rule("round-robin");
      for (let round = 0; round < 5; round++) {
        const ids = await Promise.all([h.quote(), h.quote()]);
        const owners = await Promise.all(ids.map(ownerOf));
        expect(new Set(owners), `round ${round}: ${owners.join(", ")}`).toEqual(new Set(["alice", "bob"]));
      }
    });

    it("least-open: the admin with the fewest open leads gets the next one; signed leads do not count", async () => {
      await rule("round-robin");
      const first = [await h.quote(), await h.quote(), await h.quote()]; // alice, bob, carol
      expect(await Promise.all(first.map(ownerOf))).toEqual(["alice", "bob", "carol"]);
      await h.api("PATCH", `/api/admin/lease-requests/${first[1]}/status`, {
        status: "getekend",
        commission: 500,
      });
      await rule("least-open");
      expect(await ownerOf(await h.quote())).toBe("bob");
      // Now each has one open lead: the next two go to two different admins.
      const next = [await ownerOf(await h.quote()), await ownerOf(await h.quote())];
      expect(new Set(next).size).toBe(2);
    });

    it("manual: a new lead has no owner until someone assigns it; the list finds it with owner=none", async () => {
      await rule("manual");
      const id = await h.quote();
      expect(await ownerOf(id)).toBeNull();
      const list = LeaseRequestListResponse.parse(
        await (await h.api("GET", "/api/admin/lease-requests?owner=none")).json(),
      );
      expect(list.items.map((i) => i.id)).toEqual([id]);
    });

    it("the new lead's announcement names its owner (the lead.received row the relay publishes)", async () => {
      await rule("round-robin");
      const id = await h.quote();
      const { rows } = await h.sql.query<{ payload: { owner: unknown } }>(
        "SELECT payload FROM leads.outbox WHERE job_name = 'lead.received' AND payload->>'sourceId' = $1",
        [id],
      );
      expect(rows[0]?.payload.owner).toEqual({ id: alice.id, username: "alice" });
    });
  });

  describe("Mijn aanvragen, reassigning and handing on", () => {
    it("owner=me lists the signed-in admin's own leads", async () => {
      await tellStaff(h, staffMember("carol", { takesNewLeads: false }));
      await rule("round-robin");
      const [a1, b1, a2] = [await h.quote(), await h.quote(), await h.quote()];
      const mine = async (name: string) => {
        const cookie = await adminCookie(h.env, name);
        const res = await h.api("GET", "/api/admin/lease-requests?owner=me", undefined, { cookie });
        return LeaseRequestListResponse.parse(await res.json()).items.map((i) => i.id);
      };
      expect((await mine("alice")).sort()).toEqual([a1, a2].sort());
      expect(await mine("bob")).toEqual([b1]);
      expect(await mine("carol")).toEqual([]);
    });

    it("reassigns from the detail: audited and on the timeline as Toegewezen aan …; a disabled admin is refused", async () => {
      await rule("round-robin");
      const id = await h.quote();
      const res = await h.api("PATCH", `/api/admin/lease-requests/${id}/owner`, { ownerId: carol.id });
      expect(res.status).toBe(200);
      expect(LeaseRequest.parse(await res.json()).owner).toEqual({ id: carol.id, username: "carol" });
      const history = LeadHistory.parse(
        await (await h.api("GET", `/api/admin/lease-requests/${id}/history`)).json(),
      );
      expect(history.items.filter((e) => e.kind === "owner")).toEqual([
        expect.objectContaining({
          owner: { id: carol.id, username: "carol" },
          reason: "manual",
          by: "admin",
        }),
        expect.objectContaining({ owner: { id: alice.id, username: "alice" }, reason: "rule", by: null }),
      ]);
      const { rows } = await h.sql.query<{ detail: string }>(
        "SELECT payload->>'detail' AS detail FROM leads.outbox WHERE payload->>'action' = 'lead.owner_changed' AND payload->>'target' = $1",
        [id],
      );
      expect(rows.map((r) => r.detail)).toEqual(["→ carol"]);

      await tellStaff(h, staffMember("bob", { active: false }));
      const refused = await h.api("PATCH", `/api/admin/lease-requests/${id}/owner`, { ownerId: bob.id });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { message: string }).message).toContain("kies een actieve beheerder");
      const bad = await h.api("PATCH", `/api/admin/lease-requests/${id}/owner`, { ownerId: "bob" });
      expect(bad.status).toBe(400);
    });

    it("disabling an admin hands their open leads on by the rule; a signed one stays theirs", async () => {
      await tellStaff(h, staffMember("carol", { takesNewLeads: false }));
      await rule("round-robin");
      const [a1, , a2] = [await h.quote(), await h.quote(), await h.quote()];
      const signed = await h.quote(); // bob
      await h.api("PATCH", `/api/admin/lease-requests/${signed}/owner`, { ownerId: alice.id });
      await h.api("PATCH", `/api/admin/lease-requests/${signed}/status`, {
        status: "getekend",
        commission: 100,
      });
      await tellStaff(h, staffMember("alice", { active: false }));
      expect(await ownerOf(a1)).toBe("bob");
      expect(await ownerOf(a2)).toBe("bob");
      expect(await ownerOf(signed)).toBe("alice");
      const history = LeadHistory.parse(
        await (await h.api("GET", `/api/admin/lease-requests/${a1}/history`)).json(),
      );
      expect(history.items.find((e) => e.kind === "owner")).toMatchObject({
        reason: "handover",
        owner: { username: "bob" },
      });
      // Disabled, alice gets no new lead.
      expect(await ownerOf(await h.quote())).toBe("bob");
    });

    it("an older state of an admin arriving late changes nothing", async () => {
      const newer = staffMember("alice", { active: false, revision: 1_000_000 });
      const older = staffMember("alice", { revision: 999_999 });
      await tellStaff(h, newer);
      await tellStaff(h, older);
      const { rows } = await h.sql.query<{ active: boolean }>(
        "SELECT active FROM leads.staff WHERE admin_id = $1",
        [alice.id],
      );
      expect(rows[0]?.active).toBe(false);
      await tellStaff(h, staffMember("alice", { revision: 2_000_000 }));
    });
  });
});

describe("POST /api/admin/lease-requests/{id}/calls", () => {
  // Calls count, and the first response is measured: the first of an e-mail sent from the panel (the
  // mailer tells it), a call that reached the customer, or the status gereageerd; each waiting lead
  // has its deadline, the list sorts by urgency and counts "Wachten op reactie" and "Te laat".

  let h: LeadsHarness;

  beforeAll(async () => {
    h = await startLeadsHarness("firstresp", { LEAD_RATE_LIMIT: "1000" });
    await tellStaff(h, staffMember("alice"));
  });
  afterAll(() => h?.stop());
  beforeEach(async () => {
    await h.sql.query("DELETE FROM leads.lease_requests");
  });

  const lead = async (id: string) =>
    LeaseRequest.parse(await (await h.api("GET", `/api/admin/lease-requests/${id}`)).json());

  /** Moves a lead's arrival (and deadline) back in time, as if it came in `minutes` ago. */
  async function arrivedAgo(id: string, minutes: number, dueInMinutes: number) {
    await h.sql.query(
      `UPDATE leads.lease_requests SET created_at = now() - make_interval(mins => $2),
         response_due_at = now() + make_interval(mins => $3) WHERE id = $1`,
      [id, minutes, dueInMinutes],
    );
  }

  describe("calls (Bellen)", () => {
    it("logs a call with its outcome and note: on the timeline, audited without the note", async () => {
      const id = await h.quote();
      const res = await h.api("POST", `/api/admin/lease-requests/${id}/calls`, {
        outcome: "geen_gehoor",
        note: "  Morgen opnieuw  ",
      });
      expect(res.status).toBe(201);
      const call = LeadCall.parse(await res.json());
      expect(call).toMatchObject({ outcome: "geen_gehoor", note: "Morgen opnieuw", by: "admin" });
      const history = LeadHistory.parse(
        await (await h.api("GET", `/api/admin/lease-requests/${id}/history`)).json(),
      );
      expect(history.items[0]).toEqual({ kind: "call", at: call.at, call });
      const { rows } = await h.sql.query<{ detail: string }>(
        "SELECT payload->>'detail' AS detail FROM leads.outbox WHERE payload->>'action' = 'lead.call_logged' AND payload->>'target' = $1",
        [id],
      );
      expect(rows.map((r) => r.detail)).toEqual(["geen_gehoor"]);
      // Not reached: no first response yet.
      expect((await lead(id)).firstResponseAt).toBeNull();
    });

    it("refuses an unknown outcome, a long note, no JSON and a lead that does not exist", async () => {
      const id = await h.quote();
      const path = `/api/admin/lease-requests/${id}/calls`;
      const wrong = await h.api("POST", path, { outcome: "opgehangen" });
      expect(wrong.status).toBe(400);
      expect(((await wrong.json()) as { message: string }).message).toContain("Kies hoe het gesprek ging");
      expect((await h.api("POST", path, { outcome: "bereikt", note: "x".repeat(1001) })).status).toBe(400);
      expect((await h.api("POST", path, { outcome: "bereikt" }, { contentType: "text/plain" })).status).toBe(
        415,
      );
      const gone = await h.api("POST", `/api/admin/lease-requests/${crypto.randomUUID()}/calls`, {
        outcome: "bereikt",
      });
      expect(gone.status).toBe(404);
    });
  });

  describe("the first response", () => {
    it("a call that reached the customer is the first response, in working minutes since arrival", async () => {
      const id = await h.quote();
      const res = await h.api("POST", `/api/admin/lease-requests/${id}/calls`, { outcome: "bereikt" });
      const call = LeadCall.parse(await res.json());
      const after = await lead(id);
      expect(after).toMatchObject({ firstResponseAt: call.at, firstResponseKind: "call", overdue: false });
      // A later status change does not replace it.
      await h.api("PATCH", `/api/admin/lease-requests/${id}/status`, { status: "gereageerd" });
      expect(await lead(id)).toMatchObject({ firstResponseAt: call.at, firstResponseKind: "call" });
    });

    it("status gereageerd is a first response; bekeken is not", async () => {
      const id = await h.quote();
      await h.api("PATCH", `/api/admin/lease-requests/${id}/status`, { status: "bekeken" });
      expect((await lead(id)).firstResponseAt).toBeNull();
      await h.api("PATCH", `/api/admin/lease-requests/${id}/status`, { status: "gereageerd" });
      expect(await lead(id)).toMatchObject({ firstResponseKind: "status" });
    });

    it("an e-mail sent from the panel (the mailer tells leads) is a first response at its send time; a reply is not", async () => {
      const id = await h.quote();
      const email = (direction: "in" | "out", status: "received" | "sent", at: string) => ({
        id: crypto.randomUUID(),
        direction,
        subject: "Uw aanvraag",
        fromName: "Klant",
        fromEmail: "jan@bedrijf.nl",
        to: "info@lease.test",
        at,
        text: "Hallo",
        attachments: [],
        status,
        delivery: { state: null, reason: null, at: null, openedAt: null },
        revision: "1",
      });
      const tell = (body: ReturnType<typeof email>) =>
        fetch(`${h.svc.url}/internal/lease-requests/${id}/emails/${body.id}`, {
          method: "PUT",
          headers: { "content-type": "application/json", "x-internal-token": h.env.INTERNAL_TOKEN! },
          body: JSON.stringify(body),
        });
      const sentAt = new Date(Date.now() + 60_000).toISOString();
      expect((await tell(email("in", "received", new Date().toISOString()))).status).toBe(204);
      expect((await lead(id)).firstResponseAt).toBeNull();
      expect((await tell(email("out", "sent", sentAt))).status).toBe(204);
      expect(await lead(id)).toMatchObject({ firstResponseAt: sentAt, firstResponseKind: "email" });
    });
  });

  describe("deadlines", () => {
    it("a new quote request is due by the promise (24 clock hours by default)", async () => {
      const before = Date.now();
      const id = await h.quote();
      const due = Date.parse((await lead(id)).responseDueAt!);
      expect(due - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
      expect(due - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    });

    it("sorts by urgency, late ones first, and counts Wachten op reactie and Te laat", async () => {
      const [late, soon, later, answered] = [
        await h.quote(),
        await h.quote(),
        await h.quote(),
        await h.quote(),
      ];
      await arrivedAgo(late, 600, -180);
      await arrivedAgo(soon, 60, 120);
      await arrivedAgo(later, 30, 600);
      await h.api("PATCH", `/api/admin/lease-requests/${answered}/status`, { status: "gereageerd" });
      const list = LeaseRequestListResponse.parse(
        await (await h.api("GET", "/api/admin/lease-requests?sort=urgency")).json(),
      );
      expect(list.items.map((i) => i.id)).toEqual([late, soon, later, answered]);
      expect(list.items.map((i) => i.overdue)).toEqual([true, false, false, false]);
      expect(list.counts).toMatchObject({ waiting: 3, overdue: 1 });
      expect((await h.api("GET", "/api/admin/lease-requests?sort=oud")).status).toBe(400);
    });
  });
});

describe("the response report", () => {
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
      expect((await h.api("GET", "/api/admin/response-report?from=2024-03-01&to=2026-03-01")).status).toBe(
        200,
      );
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
      expect(lines).toContain(
        '"Week";"Week 10 (02-03-2026)";"3";"3";"0";"2";"1";"66,7";"30";"75";"30";"3885"',
      );
      expect(lines).toContain('"Eigenaar";"Niet toegewezen";"1";"0";"1";"0";"0";"";"";"";"";""');
      expect(lines).toContain('"Kanaal";"Betaald zoeken";"2";"2";"0";"1";"1";"50,0";"30";"75";"30";"3885"');
      expect(lines).toContain(
        '"Campagne";"\'=HYPERLINK(""x"")";"1";"1";"0";"1";"0";"100,0";"10";"10";"10";"10"',
      );
      expect(lines.at(-1)).toMatch(/^"Totaal";"02-03-2026 t\/m 15-03-2026";"7";"5";"2";"4";"2";"66,7"/);
      expect(
        (await h.api("GET", "/api/admin/response-report.csv?from=2026-03-15&to=2026-03-02")).status,
      ).toBe(400);
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
});

describe("GET /api/admin/response-report", () => {
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
});
