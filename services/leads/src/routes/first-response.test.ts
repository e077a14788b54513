import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LeadCall, LeadHistory, LeaseRequest, LeaseRequestListResponse } from "@lease/contracts";
import { staffMember, startLeadsHarness, tellStaff, type LeadsHarness } from "../testing";

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
