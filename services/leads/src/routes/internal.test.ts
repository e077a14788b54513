// The routes other services call (internal.ts), with the internal token: a lease request, and the
// visitor's address for the ad platforms' match keys.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "@lease/platform";
import { conversionsRepository } from "../repositories/conversions";
import { postJson, startLeadsHarness, validLead, type LeadsHarness } from "../testing";

// The visitor's address for the ad platforms' match keys: kept with a consented lead only, handed
// to the conversions service (internal route) while younger than 7 days, never to staff, and gone
// once the arrival is settled or after the 7 days.

let h: LeadsHarness;
beforeAll(async () => {
  h = await startLeadsHarness("leadsip", { LEAD_RATE_LIMIT: "1000" });
});
afterAll(async () => h?.stop());

const quote = async (body: Record<string, unknown>, ip: string) =>
  (await (await postJson(`${h.svc.url}/api/lease-requests`, { ...validLead, ...body }, ip)).json()) as {
    id: string;
  };
const internal = async (id: string) =>
  (await (
    await fetch(`${h.svc.url}/internal/lease-requests/${id}/conversion`, {
      headers: { "x-internal-token": h.env.INTERNAL_TOKEN! },
    })
  ).json()) as { clientIp: string | null; fbp: string | null };
const admin = (path: string) =>
  fetch(`${h.svc.url}/api/admin/lease-requests${path}`, { headers: { cookie: h.cookie } });

describe("GET /internal/lease-requests/{id}", () => {
  describe("internal lookups", () => {
    it("serve a lease request to holders of the internal token only", async () => {
      const id = await h.quote();
      expect((await fetch(`${h.svc.url}/internal/lease-requests/${id}`)).status).toBe(403);
      const res = await fetch(`${h.svc.url}/internal/lease-requests/${id}`, {
        headers: { "x-internal-token": h.env.INTERNAL_TOKEN! },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id, email: validLead.email });
    });
  });
});

describe("GET /internal/lease-requests/{id}/conversion", () => {
  describe("the visitor's address for the ad platforms", () => {
    it("is kept only with marketing consent, for the conversions service alone", async () => {
      const fbp = "fb.1.1764000000000.1098765432";
      const consented = await quote({ marketingConsent: true, fbp }, "203.0.113.77");
      const refused = await quote({ marketingConsent: false, fbp }, "203.0.113.78");
      expect(await internal(consented.id)).toMatchObject({ clientIp: "203.0.113.77", fbp });
      expect(await internal(refused.id)).toMatchObject({ clientIp: null, fbp: null });
      const staff = await (await admin(`/${consented.id}`)).text();
      const list = await (await admin("?q=jan%40bedrijf.nl")).text();
      expect(staff).not.toContain("203.0.113.77");
      expect(list).not.toContain("203.0.113.77");
    });

    it("refuses an fbp that is not the pixel's cookie with a Dutch message", async () => {
      const res = await postJson(
        `${h.svc.url}/api/lease-requests`,
        { ...validLead, marketingConsent: true, fbp: "fb.1.<script>" },
        "203.0.113.79",
      );
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain("_fbp-cookie van de Meta-pixel");
    });

    it("is handed out for 7 days at most and removed by the retention pass after them", async () => {
      const old = await quote({ marketingConsent: true }, "203.0.113.80");
      const fresh = await quote({ marketingConsent: true }, "203.0.113.81");
      await h.sql.query(
        "UPDATE leads.conversion_client_ips SET created_at = now() - interval '7 days 1 minute' WHERE lease_request_id = $1",
        [old.id],
      );
      expect((await internal(old.id)).clientIp).toBeNull();
      expect(await conversionsRepository(createDatabase(h.sql)).pruneClientIps(7)).toBe(1);
      const left = await h.sql.query(
        "SELECT lease_request_id AS id FROM leads.conversion_client_ips WHERE lease_request_id = ANY($1)",
        [[old.id, fresh.id]],
      );
      expect(left.rows.map((r) => r.id)).toEqual([fresh.id]);
      expect((await internal(fresh.id)).clientIp).toBe("203.0.113.81");
    });

    it("is removed once the conversions service says every platform took the arrival", async () => {
      const lead = await quote({ marketingConsent: true }, "203.0.113.82");
      const repo = conversionsRepository(createDatabase(h.sql));
      const outcome = {
        leadId: lead.id,
        event: "lead" as const,
        status: "sent" as const,
        at: new Date().toISOString(),
        error: null,
        matchKeys: ["email" as const, "ip" as const],
      };
      await repo.record({ ...outcome, platform: "meta", settled: false });
      expect((await internal(lead.id)).clientIp).toBe("203.0.113.82");
      await repo.record({ ...outcome, platform: "tiktok", settled: true });
      expect((await internal(lead.id)).clientIp).toBeNull();
      const shown = (await (await admin(`/${lead.id}`)).json()) as { conversions: { matchKeys: string[] }[] };
      expect(shown.conversions.map((c) => c.matchKeys)).toEqual([
        ["email", "ip"],
        ["email", "ip"],
      ]);
    });
  });
});
