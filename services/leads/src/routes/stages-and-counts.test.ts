import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testAdmin, testEnv, type TestDatabase } from "@lease/platform/testing";
import { issueSession, keyspace, type RunningService } from "@lease/platform";
import { LeaseRequest, LeaseRequestListResponse, StageJobData } from "@lease/contracts";
import { startLeads } from "../service";
import { postJson, validLead } from "../testing";

// A lead past gereageerd does not fall back by a status button: only "Fase terugzetten", which
// names the stage it confirmed to leave, takes it back; that is audited with what it dropped, told
// to tracking (the campaign report), and never reported to the ad platforms a second time.

let db: TestDatabase;
let svc: RunningService;
let redis: Redis;
let sql: pg.Pool;
let cookie = "";
let ipSeq = 0;

beforeAll(async () => {
  db = await createTestDatabase("stageback");
  const env = testEnv({ DATABASE_URL: db.url, LEAD_RATE_LIMIT: "100" });
  svc = await startLeads(env);
  redis = new Redis(env.REDIS_URL!);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  const { token } = await issueSession(
    { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! },
    testAdmin("anna"),
  );
  cookie = `admin_session=${token}`;
});

afterAll(async () => {
  await sql?.end();
  redis?.disconnect();
  await svc?.stop();
  await db?.drop();
});

const patch = (id: string, body: unknown) =>
  fetch(`${svc.url}/api/admin/lease-requests/${id}/status`, {
    method: "PATCH",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

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
      (["nieuw", "bekeken", "gereageerd", "offerte", "getekend", "verloren", "total"] as const).map((key) => [
        key,
        after[key] - before[key],
      ]),
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
