import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LeadHistory, LeaseRequest, LeaseRequestListResponse } from "@lease/contracts";
import { adminCookie, testAdmin } from "@lease/platform/testing";
import { staffMember, startLeadsHarness, tellStaff, type LeadsHarness } from "../testing";

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
      expect.objectContaining({ owner: { id: carol.id, username: "carol" }, reason: "manual", by: "admin" }),
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
