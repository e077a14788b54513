import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import type { RunningService } from "@lease/platform";
import { LeadHistory, LeaseRequest, LeaseRequestListResponse, StageJobData } from "@lease/contracts";
import { startLeads } from "../service";
import { adminCookie, postJson, validLead } from "../testing";

// A lease request's status from the panel (lease-request-status.ts): a status button's change with
// the read flag; the stages offerte, getekend and verloren with their amounts in cents, on the
// timeline, audited and announced to tracking; and the list's counters that follow them. A lead
// past gereageerd does not fall back by a status button: only "Fase terugzetten", which names the
// stage it confirmed to leave, takes it back; that is audited with what it dropped, told to
// tracking (the campaign report), and never reported to the ad platforms a second time.

let db: TestDatabase;
let svc: RunningService;
let sql: pg.Pool;
let env: NodeJS.ProcessEnv;
let cookie = "";
const cookies: Record<string, string> = {};
let ipSeq = 0;

beforeAll(async () => {
  db = await createTestDatabase("stageback");
  env = testEnv({ DATABASE_URL: db.url, LEAD_RATE_LIMIT: "100" });
  svc = await startLeads(env);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  for (const username of ["anna", "bram"]) cookies[username] = await adminCookie(env, username);
  cookie = cookies.anna!;
});

afterAll(async () => {
  await sql?.end();
  await svc?.stop();
  await db?.drop();
});

const patch = (id: string, body: unknown) =>
  fetch(`${svc.url}/api/admin/lease-requests/${id}/status`, {
    method: "PATCH",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** A request to the service's lease-request routes as one of the signed-in admins (anna, bram). */
const as = (who: string, method: string, path: string, body?: unknown) =>
  fetch(`${svc.url}/api/admin/lease-requests${path}`, {
    method,
    headers: { cookie: cookies[who]!, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const history = async (id: string) =>
  LeadHistory.parse(await (await as("anna", "GET", `/${id}/history`)).json());

async function newLead(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await postJson(
    `${svc.url}/api/lease-requests`,
    { ...validLead, ...extra },
    `198.51.100.${++ipSeq}`,
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function staged(id: string, body: Record<string, unknown>): Promise<LeaseRequest> {
  const res = await patch(id, body);
  expect(res.status).toBe(200);
  return LeaseRequest.parse(await res.json());
}

/** The outbox payloads of one job for this lead, oldest first. */
const outbox = async (id: string, job: string) =>
  (
    await sql.query<{ payload: Record<string, unknown> }>(
      "SELECT payload FROM leads.outbox WHERE job_name = $1 AND (payload->>'sourceId' = $2 OR payload->>'target' = $2 OR payload->>'leadId' = $2) ORDER BY created_at, id",
      [job, id],
    )
  ).rows.map((r) => r.payload);

/** How many rows each of the change's tables holds for the lead: nothing is written by a refusal. */
const written = async (id: string) => ({
  changes: (await sql.query("SELECT 1 FROM leads.status_changes WHERE lease_request_id = $1", [id])).rowCount,
  audit: (await outbox(id, "audit.record")).length,
  stages: (await outbox(id, "tracking.stage")).length,
});

describe("PATCH /api/admin/lease-requests/{id}/status", () => {
  it("updates status and read flag; a malformed id is 400 and an unknown one 404", async () => {
    const id = await newLead();
    const res = await patch(id, { status: "bekeken", isRead: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, status: "bekeken", isRead: true });
    expect((await patch("not-a-uuid", { status: "bekeken", isRead: true })).status).toBe(400);
    expect((await patch(id, { status: "weg", isRead: true })).status).toBe(400);
    expect(
      (await patch("00000000-0000-4000-8000-000000000000", { status: "bekeken", isRead: true })).status,
    ).toBe(404);
  });

  describe("moving a lead back a stage", () => {
    it("refuses a status button's change from offerte, getekend or verloren back to nieuw, bekeken or gereageerd (409, Dutch), and writes nothing", async () => {
      const cases: [string, Record<string, unknown>, string][] = [
        ["offerte", { status: "offerte", monthlyAmount: 489 }, "Offerte verstuurd"],
        ["getekend", { status: "getekend", commission: 1200 }, "Contract getekend"],
        ["verloren", { status: "verloren", lostReason: "te duur" }, "Verloren"],
      ];
      for (const [stage, body, name] of cases) {
        const id = await newLead();
        const before = await staged(id, body);
        const counts = await written(id);
        for (const [status, label] of [
          ["nieuw", "Nieuw"],
          ["bekeken", "Bekeken"],
          ["gereageerd", "Gereageerd"],
        ]) {
          const res = await patch(id, { status, isRead: true });
          expect(res.status, `${stage} → ${status}`).toBe(409);
          expect(await res.json()).toMatchObject({
            code: "stage_move_back_unconfirmed",
            message: `Deze aanvraag staat op ${name}. Terug naar ${label} kan alleen met "Fase terugzetten" in de aanvraag, na bevestiging van wat er vervalt.`,
          });
        }
        const after = LeaseRequest.parse(
          await (await fetch(`${svc.url}/api/admin/lease-requests/${id}`, { headers: { cookie } })).json(),
        );
        expect(after).toMatchObject({
          status: stage,
          monthlyAmount: before.monthlyAmount,
          commission: before.commission,
          lostReason: before.lostReason,
        });
        expect(await written(id)).toEqual(counts);
      }
    });

    it("refuses a move back that names another stage than the lead's (a screen from before someone else's change)", async () => {
      const id = await newLead();
      await staged(id, { status: "getekend", commission: 950 });
      const res = await patch(id, { status: "gereageerd", isRead: true, moveBackFrom: "offerte" });
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({
        code: "stage_changed_meanwhile",
        message:
          "Deze aanvraag staat inmiddels op Contract getekend, niet meer op Offerte verstuurd. Open de aanvraag opnieuw en kijk wat er vervalt.",
      });
      const plain = await newLead();
      const notInStage = await patch(plain, { status: "bekeken", isRead: true, moveBackFrom: "offerte" });
      expect(notInStage.status).toBe(409);
      const bad = await patch(id, { status: "gereageerd", moveBackFrom: "gereageerd" });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { message: string }).message).toBe(
        "moveBackFrom moet offerte, getekend of verloren zijn",
      );
    });

    it("takes a confirmed move back from offerte to gereageerd: the €489 goes, audited with what was dropped, and tracking counts no offer", async () => {
      const id = await newLead();
      await staged(id, { status: "offerte", monthlyAmount: 489 });
      const back = await staged(id, { status: "gereageerd", isRead: true, moveBackFrom: "offerte" });
      expect(back).toMatchObject({ status: "gereageerd", monthlyAmount: null, commission: null });
      const audit = (await outbox(id, "audit.record")).map((a) => [a.action, a.actor, a.detail]);
      expect(audit).toEqual([
        ["lead.status_changed", "anna", "nieuw → offerte, maandbedrag € 489,00"],
        ["lead.stage_moved_back", "anna", "offerte → gereageerd, vervallen: maandbedrag € 489,00"],
      ]);
      const stages = (await outbox(id, "tracking.stage")).map((p) => StageJobData.parse(p));
      expect(stages.map((s) => [s.seq, s.status, s.offered, s.signed, s.commissionCents])).toEqual([
        [1, "offerte", true, false, 0],
        [2, "gereageerd", false, false, 0],
      ]);
    });

    it("moves a contract back to its offer: the commission and term go, the offer's amount stays", async () => {
      const id = await newLead();
      await staged(id, { status: "offerte", monthlyAmount: 349.5 });
      await staged(id, { status: "getekend", commission: 1200, term: 48 });
      const back = await staged(id, { status: "offerte", monthlyAmount: 349.5, moveBackFrom: "getekend" });
      expect(back).toMatchObject({
        status: "offerte",
        monthlyAmount: 349.5,
        commission: null,
        contractTerm: null,
      });
      expect((await outbox(id, "audit.record")).at(-1)).toMatchObject({
        action: "lead.stage_moved_back",
        detail:
          "getekend → offerte, maandbedrag € 349,50, vervallen: commissie € 1.200,00, looptijd 48 maanden",
      });
      expect(StageJobData.parse((await outbox(id, "tracking.stage")).at(-1))).toMatchObject({
        status: "offerte",
        offered: true,
        signed: false,
        commissionCents: 0,
      });
    });

    it("tells the ad platforms of an offer and a contract once, also when the stage was moved back and entered again", async () => {
      const id = await newLead({ email: "terug@bedrijf.nl", marketingConsent: true });
      await staged(id, { status: "offerte", monthlyAmount: 400 });
      await staged(id, { status: "gereageerd", moveBackFrom: "offerte" });
      await staged(id, { status: "offerte", monthlyAmount: 450 });
      await staged(id, { status: "getekend", commission: 800 });
      await staged(id, { status: "offerte", monthlyAmount: 450, moveBackFrom: "getekend" });
      await staged(id, { status: "getekend", commission: 900 });
      const sends = (await outbox(id, "conversions.send")).map((p) => p.event);
      expect(sends).toEqual(["lead", "offerte", "getekend"]);
      const events = await sql.query(
        "SELECT event, value_cents FROM leads.conversion_events WHERE lease_request_id = $1 ORDER BY event",
        [id],
      );
      expect(events.rows).toEqual([
        { event: "getekend", value_cents: 80000 },
        { event: "offerte", value_cents: null },
      ]);
    });
  });

  // The lead's road to a contract after nieuw / bekeken / gereageerd.
  describe("stages: offerte, getekend, verloren", () => {
    const patch = (id: string, body: unknown, who = "anna") => as(who, "PATCH", `/${id}/status`, body);
    const refused = async (id: string, body: unknown) => {
      const res = await patch(id, body);
      expect(res.status).toBe(400);
      return ((await res.json()) as { message: string }).message;
    };
    const outbox = async (id: string, job: string) =>
      (
        await sql.query<{ payload: Record<string, unknown> }>(
          "SELECT payload FROM leads.outbox WHERE job_name = $1 AND (payload->>'sourceId' = $2 OR payload->>'target' = $2) ORDER BY created_at",
          [job, id],
        )
      ).rows.map((r) => r.payload);

    it("refuses an amount that would be stored as a different number of cents, €0 above all", async () => {
      const id = await newLead();
      for (const [body, message] of [
        [{ status: "offerte", monthlyAmount: 1e-9 }, "Gebruik voor het maandbedrag hoogstens twee decimalen"],
        [
          { status: "offerte", monthlyAmount: 0.004 },
          "Gebruik voor het maandbedrag hoogstens twee decimalen",
        ],
        [
          { status: "offerte", monthlyAmount: -1e-9 },
          "Gebruik voor het maandbedrag hoogstens twee decimalen",
        ],
        [{ status: "getekend", commission: 1e-9 }, "Gebruik voor de commissie hoogstens twee decimalen"],
        [{ status: "getekend", commission: 5e-3 }, "Gebruik voor de commissie hoogstens twee decimalen"],
        [
          { status: "getekend", commission: 100, monthlyAmount: 1e-12 },
          "Gebruik voor het maandbedrag hoogstens twee decimalen",
        ],
      ] as const)
        expect(await refused(id, body), JSON.stringify(body)).toBe(message);
      const stored = await sql.query(
        "SELECT status, monthly_amount_cents, commission_cents FROM leads.lease_requests WHERE id = $1",
        [id],
      );
      expect(stored.rows).toEqual([{ status: "nieuw", monthly_amount_cents: null, commission_cents: null }]);
      // A cent, and a binary fraction of whole cents, are amounts.
      expect((await patch(id, { status: "offerte", monthlyAmount: 0.01 })).status).toBe(200);
      expect((await patch(id, { status: "getekend", commission: 0.1 + 0.2 })).status).toBe(200);
      const signed = await sql.query(
        "SELECT monthly_amount_cents, commission_cents FROM leads.lease_requests WHERE id = $1",
        [id],
      );
      expect(signed.rows).toEqual([{ monthly_amount_cents: 1, commission_cents: 30 }]);
    });

    it("takes an offer, a signed contract and a loss with their amounts in cents, on the timeline, in the audit log and announced to tracking", async () => {
      const id = await newLead();
      expect(await refused(id, { status: "offerte" })).toMatch(/maandbedrag/);
      expect(await refused(id, { status: "getekend", monthlyAmount: 300 })).toBe(
        "Vul de commissie in euro's in (een getal, bijvoorbeeld 349.5)",
      );
      expect(await refused(id, { status: "getekend", commission: 1200.555 })).toBe(
        "Gebruik voor de commissie hoogstens twee decimalen",
      );
      expect(await refused(id, { status: "getekend", commission: "1200" })).toMatch(/commissie/);
      expect(await refused(id, { status: "verloren", lostReason: "te laat" })).toMatch(/^Kies een reden/);
      expect(await refused(id, { status: "gewonnen" })).toMatch(/^Kies een geldige status/);

      const offer = await patch(id, { status: "offerte", monthlyAmount: 349.5 });
      expect(offer.status).toBe(200);
      expect(LeaseRequest.parse(await offer.json())).toMatchObject({
        status: "offerte",
        monthlyAmount: 349.5,
        isRead: true,
      });
      const signed = await patch(id, { status: "getekend", commission: 1200, term: 48 }, "bram");
      expect(LeaseRequest.parse(await signed.json())).toMatchObject({
        status: "getekend",
        commission: 1200,
        monthlyAmount: 349.5,
        contractTerm: 48,
      });
      const stored = await sql.query(
        "SELECT monthly_amount_cents, commission_cents, contract_term FROM leads.lease_requests WHERE id = $1",
        [id],
      );
      expect(stored.rows[0]).toEqual({
        monthly_amount_cents: 34950,
        commission_cents: 120000,
        contract_term: 48,
      });

      const lost = await patch(id, {
        status: "verloren",
        lostReason: "elders getekend",
        note: "  Koos de dealer  ",
      });
      expect(LeaseRequest.parse(await lost.json())).toMatchObject({
        status: "verloren",
        commission: null,
        monthlyAmount: 349.5,
        lostReason: "elders getekend",
        lostNote: "Koos de dealer",
      });

      const changes = (await history(id)).items.filter((i) => i.kind === "status");
      expect(
        changes.map((c) => [c.to, c.by, c.monthlyAmount, c.commission, c.contractTerm, c.lostReason, c.note]),
      ).toEqual([
        ["verloren", "anna", 349.5, null, null, "elders getekend", "Koos de dealer"],
        ["getekend", "bram", 349.5, 1200, 48, null, null],
        ["offerte", "anna", 349.5, null, null, null, null],
      ]);

      // The audit log names amounts and the reason, never the note (free text).
      expect((await outbox(id, "audit.record")).map((a) => [a.actor, a.detail])).toEqual([
        ["anna", "nieuw → offerte, maandbedrag € 349,50"],
        ["bram", "offerte → getekend, commissie € 1.200,00, maandbedrag € 349,50, looptijd 48 maanden"],
        ["anna", "getekend → verloren, reden elders getekend"],
      ]);
      const stages = (await outbox(id, "tracking.stage")).map((p) => StageJobData.parse(p));
      expect(stages.map((s) => [s.seq, s.status, s.offered, s.signed, s.commissionCents])).toEqual([
        [1, "offerte", true, false, 0],
        [2, "getekend", true, true, 120000],
        [3, "verloren", true, false, 0],
      ]);
    });

    it("lists and exports by stage, and a confirmed move back to gereageerd clears the stage and tells tracking", async () => {
      const id = await newLead();
      await patch(id, { status: "getekend", commission: 950.25 });
      const list = LeaseRequestListResponse.parse(
        await (await as("anna", "GET", "?status=getekend&pageSize=200")).json(),
      );
      expect(list.items.map((i) => i.id)).toContain(id);
      expect(list.items.every((i) => i.status === "getekend")).toBe(true);
      const csv = await (await as("anna", "GET", "/export.csv?status=getekend")).text();
      const [header, ...rows] = csv.slice(1).trim().split("\r\n");
      const cells = (line: string) => line.split(";").map((cell) => cell.replace(/^"|"$/g, ""));
      const columns = cells(header!);
      const row = rows.map(cells).find((r) => r.includes(id))!;
      expect(row[columns.indexOf("Status")]).toBe("getekend");
      expect(row[columns.indexOf("Commissie (EUR)")]).toBe("950,25");

      await patch(id, { status: "gereageerd", isRead: true, moveBackFrom: "getekend" });
      expect(LeaseRequest.parse(await (await as("anna", "GET", `/${id}`)).json())).toMatchObject({
        status: "gereageerd",
        commission: null,
      });
      const last = (await outbox(id, "tracking.stage")).at(-1)!;
      expect(last).toMatchObject({
        seq: 2,
        status: "gereageerd",
        offered: false,
        signed: false,
        commissionCents: 0,
      });
      // Changes among the seed's statuses are no stage: nothing more for tracking.
      await patch(id, { status: "bekeken", isRead: true });
      expect(await outbox(id, "tracking.stage")).toHaveLength(2);
    });

    it("goes with the person's data erasure: the stage columns, their timeline rows and the tracking jobs", async () => {
      const res = await postJson(
        `${svc.url}/api/lease-requests`,
        { ...validLead, email: "wis.fase@bedrijf.nl" },
        `198.51.100.${++ipSeq}`,
      );
      const { id } = (await res.json()) as { id: string };
      await patch(id, { status: "getekend", commission: 500 });
      const erased = await fetch(`${svc.url}/internal/privacy/erase`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-internal-token": env.INTERNAL_TOKEN! },
        body: JSON.stringify({ email: "wis.fase@bedrijf.nl", leadIds: [id] }),
      });
      expect(erased.status).toBe(200);
      expect(await outbox(id, "tracking.stage")).toEqual([]);
      const left = await sql.query(
        `SELECT (SELECT count(*) FROM leads.lease_requests WHERE id = $1)::int AS leads,
                (SELECT count(*) FROM leads.status_changes WHERE lease_request_id = $1)::int AS changes`,
        [id],
      );
      expect(left.rows[0]).toEqual({ leads: 0, changes: 0 });
    });
  });

  describe("the list's counters", () => {
    const counts = async () =>
      LeaseRequestListResponse.parse(
        await (await fetch(`${svc.url}/api/admin/lease-requests?pageSize=1`, { headers: { cookie } })).json(),
      ).counts;

    it("count every badge, the stages included, so that together they are the total", async () => {
      const before = await counts();
      const unread = await newLead();
      const opened = await newLead();
      await staged(opened, { status: "nieuw", isRead: true });
      for (const body of [
        { status: "gereageerd" },
        { status: "offerte", monthlyAmount: 489 },
        { status: "getekend", commission: 1200 },
        { status: "verloren", lostReason: "geen reactie" },
      ])
        await staged(await newLead(), body);
      const after = await counts();
      expect(unread).toBeTruthy();
      const grew = Object.fromEntries(
        (["nieuw", "bekeken", "gereageerd", "offerte", "getekend", "verloren", "total"] as const).map(
          (key) => [key, after[key] - before[key]],
        ),
      );
      expect(grew).toEqual({
        nieuw: 1,
        bekeken: 1,
        gereageerd: 1,
        offerte: 1,
        getekend: 1,
        verloren: 1,
        total: 6,
      });
      const badges =
        after.nieuw + after.bekeken + after.gereageerd + after.offerte + after.getekend + after.verloren;
      expect(badges).toBe(after.total);
    });
  });
});
