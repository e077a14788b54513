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
import { adminCookie, postJson, validLead } from "../testing";

// "Opvolgen op" per request, the list filtered to "Vandaag opvolgen" (overdue included),
// the count of those due, and that count for the mailer's new-lead e-mail.

let db: TestDatabase;
let svc: RunningService;
let env: NodeJS.ProcessEnv;
let cookie: string;
let sql: pg.Pool;
let ipSeq = 0;

beforeAll(async () => {
  db = await createTestDatabase("followup");
  env = testEnv({ DATABASE_URL: db.url, LEAD_RATE_LIMIT: "100" });
  svc = await startLeads(env);
  cookie = await adminCookie(env);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});

afterAll(async () => {
  await sql?.end();
  await svc?.stop();
  await db?.drop();
});

const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${svc.url}/api/admin/lease-requests${path}`, {
    method,
    headers: { cookie, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function newLead(email: string): Promise<string> {
  const res = await postJson(
    `${svc.url}/api/lease-requests`,
    { ...validLead, email },
    `198.51.100.${++ipSeq}`,
  );
  return ((await res.json()) as { id: string }).id;
}

/** A day relative to today in Amsterdam, as Postgres computes it. */
async function day(offset: number): Promise<string> {
  const { rows } = await sql.query<{ d: string }>(
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

    const internal = await fetch(`${svc.url}/internal/follow-ups/due`, {
      headers: { "x-internal-token": env.INTERNAL_TOKEN! },
    });
    expect(InternalFollowUpsDue.parse(await internal.json())).toEqual({ due: 2 });
    expect((await fetch(`${svc.url}/internal/follow-ups/due`)).status).toBe(403);

    const csv = await (await admin("GET", "/export.csv?followUp=vandaag")).text();
    expect(csv).toContain("te-laat@bedrijf.nl");
    expect(csv).not.toContain("later@bedrijf.nl");
  });
});
