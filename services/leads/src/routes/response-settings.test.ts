import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RESPONSE_SETTINGS, ResponseSettingsResponse } from "@lease/contracts";
import { startLeadsHarness, type LeadsHarness } from "../testing";

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

describe("GET/PUT /api/admin/response-settings", () => {
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
    expect(saved).toMatchObject({ assignment: "least-open", quoteBasis: "working", contactBasis: "working" });
    expect(saved.basis).toBe("working");
    expect(saved.updatedAt).not.toBeNull();
    expect(ResponseSettingsResponse.parse(await (await settings("GET")).json())).toEqual(saved);
    // Queued in the save's transaction.
    const { rows } = await h.sql.query<{ payload: { action: string; detail: string; actor: string } }>(
      `SELECT payload FROM leads.outbox WHERE job_name = 'audit.record' AND payload->>'action' = 'settings.response_changed'`,
    );
    expect(rows.map((r) => r.payload)).toEqual([
      expect.objectContaining({ actor: "admin", detail: "assignment, quoteBasis, workingHours, closedDays" }),
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
