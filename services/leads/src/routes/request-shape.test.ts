import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import type { RunningService } from "@lease/platform";
import { startLeads } from "../service";
import { postJson, validLead } from "../testing";

let db: TestDatabase;
let svc: RunningService;
beforeAll(async () => {
  db = await createTestDatabase("leadshape");
  svc = await startLeads(testEnv({ DATABASE_URL: db.url, LEAD_RATE_LIMIT: "1000" }));
});
afterAll(async () => {
  await svc?.stop();
  await db?.drop();
});

const fields = async (res: Response) =>
  Object.fromEntries(
    ((await res.json()) as { fields: { path: string; message: string }[] }).fields.map((f) => [
      f.path,
      f.message,
    ]),
  );

describe("quote request bodies the form would never send", () => {
  it("refuses over-long optional fields with 'Maximaal … tekens'", async () => {
    const res = await postJson(`${svc.url}/api/lease-requests`, {
      ...validLead,
      companyName: "x".repeat(201),
      message: "y".repeat(5001),
    });
    expect(res.status).toBe(400);
    expect(await fields(res)).toEqual({
      companyName: "Maximaal 200 tekens",
      message: "Maximaal 5000 tekens",
    });
  });

  it("answers 400 for a JSON array or string, 415 for non-JSON and 413 for an oversized body", async () => {
    const url = `${svc.url}/api/lease-requests`;
    const array = await postJson(url, [validLead]);
    expect(array.status).toBe(400);
    expect(await fields(array)).toEqual({ "(body)": "Stuur een JSON-object" });
    const form = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=a@b.nl",
    });
    expect(form.status).toBe(415);
    const big = await postJson(url, { ...validLead, message: "z".repeat(20_000) });
    expect(big.status).toBe(413);
  });

  it("trims values and stores empty optional fields as null", async () => {
    const res = await postJson(`${svc.url}/api/lease-requests`, {
      ...validLead,
      email: "  Trim@Bedrijf.nl ",
      companyName: "",
      leaseTerm: "",
      message: "   ",
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const lookup = await fetch(`${svc.url}/internal/lease-requests/${id}`, {
      headers: { "x-internal-token": testEnv().INTERNAL_TOKEN! },
    });
    expect(await lookup.json()).toMatchObject({
      email: "Trim@Bedrijf.nl",
      companyName: null,
      leaseTerm: null,
      message: null,
    });
  });
});
