import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANNELS, LeadOverdueEvent } from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import { testAdmin, waitFor } from "@lease/platform/testing";
import { startLeads } from "@lease/leads";
import { postLead, staffState, startPipeline, tellStaff, type Pipeline } from "./mail-pipeline";

// A lead that passes its deadline without a response is announced to its owner, once,
// with two leads replicas scanning: a live notice (the lead-overdue event the admin WebSocket
// relays), an e-mail if the owner chose it in "Mijn account", and the leads_overdue_total metric.

let p: Pipeline;
let second: RunningService;
let subscriber: Redis;
const events: LeadOverdueEvent[] = [];
const alice = testAdmin("alice");
const bob = testAdmin("bob");

async function metric(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  return [...text.matchAll(/^leads_overdue_total\{source="lease_request"[^}]*\} (\d+)$/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}

beforeAll(async () => {
  p = await startPipeline({ OVERDUE_SCAN_MS: "150" });
  second = await startLeads(p.env);
  subscriber = new Redis(p.env.REDIS_URL!);
  await subscriber.subscribe(`${p.env.REDIS_PREFIX}:events:${CHANNELS.leadOverdue}`);
  subscriber.on("message", (_channel, raw: string) => events.push(LeadOverdueEvent.parse(JSON.parse(raw))));
  await tellStaff(p, staffState(alice, 1, { overdueEmail: true }));
  await tellStaff(p, staffState(bob, 2));
  await p.sql.query("SELECT setval('leads.assignment_turn', 1)");
}, 60_000);

afterAll(async () => {
  subscriber?.disconnect();
  await second?.stop();
  await p?.stop();
});

describe("a lead past its deadline without a response", () => {
  it("is announced once to its owner (live event, e-mail if chosen), counted, with two replicas scanning", async () => {
    const cookie = await p.adminCookie();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await postLead(
        p.leads.url,
        { ...validQuote, email: `klant${i}@bedrijf.nl` },
        `198.51.100.${i + 1}`,
      );
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const owners = await p.sql.query<{ id: string; owner_id: string }>(
      "SELECT id, owner_id FROM leads.lease_requests",
    );
    const ownerOf = new Map(owners.rows.map((r) => [r.id, r.owner_id]));
    expect(new Set(ids.map((id) => ownerOf.get(id)))).toEqual(new Set([alice.id, bob.id]));
    const alices = ids.filter((id) => ownerOf.get(id) === alice.id);
    // One of alice's leads is answered in time: a call that reached the customer.
    const call = await fetch(`${p.leads.url}/api/admin/lease-requests/${alices[0]}/calls`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ outcome: "bereikt" }),
    });
    expect(call.status).toBe(201);
    // And the deadlines pass.
    await p.sql.query("UPDATE leads.lease_requests SET response_due_at = now() - interval '1 minute'");

    await waitFor(() => events.length >= 3, 10_000, "three late leads announced");
    // The company's new-lead e-mails go to its own address; the admins' notices to theirs.
    const notices = () => p.receiver.accepted().filter((m) => m.to.some((to) => to.endsWith("@broker.nl")));
    await waitFor(() => notices().length >= 1, 10_000, "alice's e-mail sent");
    // A few more scans on both replicas announce nothing again.
    await new Promise((r) => setTimeout(r, 800));

    const late = ids.filter((id) => id !== alices[0]);
    expect(events.map((e) => e.id).sort()).toEqual([...late].sort());
    for (const e of events) {
      expect(e.owner?.id).toBe(ownerOf.get(e.id));
      expect(e.source).toBe("lease_request");
    }
    expect(await p.count("SELECT count(*) AS n FROM leads.outbox WHERE job_name = 'mail.lead-overdue'")).toBe(
      3,
    );
    // Alice chose the e-mail: one, for her one late lead; bob did not.
    const mails = notices();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(["alice@broker.nl"]);
    expect(mails[0]!.subject).toMatch(/^Te laat: de lease aanvraag van .+ wacht op reactie$/);
    expect(mails[0]!.text).toContain("Hallo alice");
    expect(mails[0]!.text).toContain("heeft nog geen reactie gekregen");
    // Counted once per lead, summed over the replicas.
    expect((await metric(p.leads.metricsUrl)) + (await metric(second.metricsUrl))).toBe(3);
  });

  it("a lead answered later is not announced again, nor one still within its promise", async () => {
    const before = events.length;
    const res = await postLead(p.leads.url, validQuote, "198.51.100.50");
    expect(res.status).toBe(201);
    await new Promise((r) => setTimeout(r, 600));
    expect(events.length).toBe(before);
  });
});

const validQuote = {
  carUrl: "https://www.autoscout24.nl/aanbod/volkswagen-id-4",
  contactNumber: "06 12345678",
  email: "jan@bedrijf.nl",
  companyName: "Bedrijf BV",
  leaseTerm: 48,
};
