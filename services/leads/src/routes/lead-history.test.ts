import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testAdmin, testEnv, type TestDatabase } from "@lease/platform/testing";
import { issueSession, keyspace, type RunningService } from "@lease/platform";
import {
  LeadHistory,
  LeadNote,
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

describe("GET /api/admin/lease-requests/{id}/history", () => {
  describe("a lease request's history", () => {
    it("starts with its receipt and records every status change with the admin and the time, newest first", async () => {
      const id = await newLead();
      expect((await history(id)).items).toEqual([{ kind: "received", at: expect.any(String) }]);

      // Opening it (read, bekeken) by anna, then gereageerd by bram; the same status again is no change.
      expect((await as("anna", "PATCH", `/${id}/status`, { status: "bekeken", isRead: true })).status).toBe(
        200,
      );
      expect(
        (await as("bram", "PATCH", `/${id}/status`, { status: "gereageerd", isRead: true })).status,
      ).toBe(200);
      expect(
        (await as("bram", "PATCH", `/${id}/status`, { status: "gereageerd", isRead: true })).status,
      ).toBe(200);

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
});

describe("POST /api/admin/lease-requests/{id}/notes · PUT /api/admin/lease-requests/{id}/notes/{noteId} · DELETE /api/admin/lease-requests/{id}/notes/{noteId}", () => {
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

      const edited = await as("anna", "PUT", `/${id}/notes/${note.id}`, {
        body: "Klant belt vrijdag terug.",
      });
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
});
