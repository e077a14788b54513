import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testAdmin, testEnv, type TestDatabase } from "@lease/platform/testing";
import { issueSession, keyspace, type RunningService } from "@lease/platform";
import {
  LeadHistory,
  LeadNote,
  LeaseRequest,
  LeaseRequestListResponse,
  StageJobData,
  NOTE_MAX_LENGTH,
  NOTE_REQUIRED_MESSAGE,
  NOTE_TOO_LONG_MESSAGE,
} from "@lease/contracts";
import { startLeads } from "../service";
import { postJson, validLead } from "../testing";

// A lease request's history (received, status changes with who and when, notes) and
// the notes staff keep on it, each editable and deletable by its author alone.

let db: TestDatabase;
let svc: RunningService;
let env: NodeJS.ProcessEnv;
let redis: Redis;
let sql: pg.Pool;
const cookies: Record<string, string> = {};
let ipSeq = 0;

beforeAll(async () => {
  db = await createTestDatabase("leadhist");
  env = testEnv({ DATABASE_URL: db.url, LEAD_RATE_LIMIT: "100" });
  svc = await startLeads(env);
  redis = new Redis(env.REDIS_URL!);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  for (const username of ["anna", "bram"]) {
    const { token } = await issueSession(
      { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! },
      testAdmin(username),
    );
    cookies[username] = `admin_session=${token}`;
  }
  // Another account under anna's name (as a removed admin's name once could be given again).
  const { token } = await issueSession(
    { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! },
    { id: "0b0e6a53-3c1e-4c57-9d55-6f2f0a1b2c3d", username: "anna" },
  );
  cookies["anna-again"] = `admin_session=${token}`;
});

afterAll(async () => {
  await sql?.end();
  redis?.disconnect();
  await svc?.stop();
  await db?.drop();
});

const as = (who: string, method: string, path: string, body?: unknown) =>
  fetch(`${svc.url}/api/admin/lease-requests${path}`, {
    method,
    headers: { cookie: cookies[who]!, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function newLead(): Promise<string> {
  const res = await postJson(`${svc.url}/api/lease-requests`, validLead, `198.51.100.${++ipSeq}`);
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const history = async (id: string) =>
  LeadHistory.parse(await (await as("anna", "GET", `/${id}/history`)).json());

describe("a lease request's history", () => {
  it("starts with its receipt and records every status change with the admin and the time, newest first", async () => {
    const id = await newLead();
    expect((await history(id)).items).toEqual([{ kind: "received", at: expect.any(String) }]);

    // Opening it (read, bekeken) by anna, then gereageerd by bram; the same status again is no change.
    expect((await as("anna", "PATCH", `/${id}/status`, { status: "bekeken", isRead: true })).status).toBe(
      200,
    );
    expect((await as("bram", "PATCH", `/${id}/status`, { status: "gereageerd", isRead: true })).status).toBe(
      200,
    );
    expect((await as("bram", "PATCH", `/${id}/status`, { status: "gereageerd", isRead: true })).status).toBe(
      200,
    );

    const { items } = await history(id);
    expect(items.map((i) => (i.kind === "status" ? `${i.from}→${i.to} ${i.by}` : i.kind))).toEqual([
      "bekeken→gereageerd bram",
      "nieuw→bekeken anna",
      "received",
    ]);
    const ats = items.map((i) => Date.parse(i.at));
    expect([...ats].sort((a, b) => b - a)).toEqual(ats);
  });

  it("answers 404 for a request that does not exist and 400 for an id that is none", async () => {
    const missing = await as("anna", "GET", "/2b1c9a52-6f0e-4c8e-9d4a-0c7c1f3e5a11/history");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toBe("Lease aanvraag niet gevonden");
    expect((await as("anna", "GET", "/geen-id/history")).status).toBe(400);
    const note = await as("anna", "POST", "/2b1c9a52-6f0e-4c8e-9d4a-0c7c1f3e5a11/notes", { body: "x" });
    expect(note.status).toBe(404);
  });
});

describe("notes", () => {
  it("are added as the signed-in admin, shown on the timeline, and changed or deleted by their author alone", async () => {
    const id = await newLead();
    const added = await as("anna", "POST", `/${id}/notes`, {
      body: "  Klant belt morgen terug.\nAfspraak om 10 uur.  ",
    });
    expect(added.status).toBe(201);
    const note = LeadNote.parse(await added.json());
    expect(note).toMatchObject({
      leaseRequestId: id,
      author: "anna",
      body: "Klant belt morgen terug.\nAfspraak om 10 uur.",
      updatedAt: null,
    });
    expect((await history(id)).items[0]).toEqual({ kind: "note", at: note.createdAt, note });

    expect(note.authorId).toBe(testAdmin("anna").id);
    // Authorship is the account's id, not its name: another account called "anna" may not edit.
    const sameName = await as("anna-again", "PUT", `/${id}/notes/${note.id}`, { body: "Overgenomen" });
    expect(sameName.status).toBe(403);
    expect((await as("anna-again", "DELETE", `/${id}/notes/${note.id}`)).status).toBe(403);
    const byOther = await as("bram", "PUT", `/${id}/notes/${note.id}`, { body: "Overschreven" });
    expect(byOther.status).toBe(403);
    expect(((await byOther.json()) as { message: string }).message).toBe(
      "Alleen anna kan deze notitie wijzigen",
    );
    const deleteByOther = await as("bram", "DELETE", `/${id}/notes/${note.id}`);
    expect(deleteByOther.status).toBe(403);
    expect(((await deleteByOther.json()) as { message: string }).message).toBe(
      "Alleen anna kan deze notitie verwijderen",
    );

    const edited = await as("anna", "PUT", `/${id}/notes/${note.id}`, { body: "Klant belt vrijdag terug." });
    expect(edited.status).toBe(200);
    const changed = LeadNote.parse(await edited.json());
    expect(changed).toMatchObject({
      id: note.id,
      body: "Klant belt vrijdag terug.",
      createdAt: note.createdAt,
    });
    expect(changed.updatedAt).not.toBeNull();

    expect((await as("anna", "DELETE", `/${id}/notes/${note.id}`)).status).toBe(204);
    expect((await history(id)).items.some((i) => i.kind === "note")).toBe(false);
    expect((await as("anna", "DELETE", `/${id}/notes/${note.id}`)).status).toBe(404);
    // A note id under another request is not found there.
    const other = await newLead();
    const kept = LeadNote.parse(
      await (await as("anna", "POST", `/${other}/notes`, { body: "Blijft" })).json(),
    );
    expect((await as("anna", "PUT", `/${id}/notes/${kept.id}`, { body: "x" })).status).toBe(404);
  });

  it("refuses empty, too long and malformed notes with Dutch messages", async () => {
    const id = await newLead();
    const messages = async (body: unknown) => {
      const res = await as("anna", "POST", `/${id}/notes`, body);
      expect(res.status).toBe(400);
      const json = (await res.json()) as { code: string; fields: { path: string; message: string }[] };
      expect(json.code).toBe("validation_failed");
      return json.fields.map((f) => f.message);
    };
    expect(await messages({ body: "   " })).toEqual([NOTE_REQUIRED_MESSAGE]);
    expect(await messages({})).toEqual([NOTE_REQUIRED_MESSAGE]);
    expect(await messages({ body: "x".repeat(NOTE_MAX_LENGTH + 1) })).toEqual([NOTE_TOO_LONG_MESSAGE]);
    expect((await messages({ body: "ok", author: "bram" })).length).toBe(1);
    const exactly = await as("anna", "POST", `/${id}/notes`, { body: "é".repeat(NOTE_MAX_LENGTH) });
    expect(exactly.status).toBe(201);
    // Deleting the request takes its notes and status changes with it.
    expect((await as("anna", "DELETE", `/${id}`)).status).toBe(204);
    expect((await as("anna", "GET", `/${id}/history`)).status).toBe(404);
  });

  it("needs a signed-in admin", async () => {
    const id = await newLead();
    const res = await fetch(`${svc.url}/api/admin/lease-requests/${id}/history`);
    expect(res.status).toBe(401);
    const post = await fetch(`${svc.url}/api/admin/lease-requests/${id}/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ body: "anoniem" }),
    });
    expect(post.status).toBe(401);
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
      [{ status: "offerte", monthlyAmount: 0.004 }, "Gebruik voor het maandbedrag hoogstens twee decimalen"],
      [{ status: "offerte", monthlyAmount: -1e-9 }, "Gebruik voor het maandbedrag hoogstens twee decimalen"],
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
