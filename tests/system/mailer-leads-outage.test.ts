import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboundUrl } from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import { inboundParseForm, startTcpProxy, waitFor } from "@lease/platform/testing";
import { startMailer } from "@lease/mailer";
import { postLead, startPipeline, type Pipeline } from "./mail-pipeline";

// Nothing accepted is ever lost: a reply that arrives while leads cannot answer whose address its
// sender is, is stored at once (2xx, an Algemene E-mail) and matched to its lead once leads answers
// again. The mailer reaches leads through a TCP proxy the test cuts.

let p: Pipeline;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let mailer: RunningService;
let cookie: string;
let parse: InboundUrl;

beforeAll(async () => {
  p = await startPipeline({}, { startMailer: false });
  const leads = new URL(p.leads.url);
  proxy = await startTcpProxy(leads.hostname, Number(leads.port));
  mailer = await startMailer({
    ...p.env,
    LEADS_URL: `http://127.0.0.1:${proxy.port}`,
    SWEEP_INTERVAL_MS: "250",
  });
  cookie = await p.adminCookie();
  const res = await fetch(`${mailer.url}/api/admin/email-settings/inbound-url`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: "{}",
  });
  expect(res.status).toBe(200);
  parse = (await res.json()) as InboundUrl;
}, 90_000);

afterAll(async () => {
  await mailer?.stop();
  await proxy?.close();
  await p?.stop();
});

/** A gauge of the mailer's metrics, as Prometheus scrapes it. */
const gauge = async (name: string) => {
  const text = await (await fetch(mailer.metricsUrl)).text();
  // With or without the registry's default labels ({service="mailer"}).
  const line = text.split("\n").find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  expect(line, `${name} in the metrics`).toBeDefined();
  return Number(line!.split(" ").at(-1));
};

const reply = async (from: string, messageId: string) => {
  const { body, contentType } = inboundParseForm({
    from,
    to: "info@reply.example.nl",
    subject: "Nog een vraag over mijn aanvraag",
    text: "Kan de auto ook eerder geleverd worden?",
    messageId,
  });
  const res = await fetch(`${mailer.url}${parse.path}`, {
    method: "POST",
    headers: { "content-type": contentType },
    body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
};

describe("a reply while leads is down", () => {
  it("is stored at once and finds its lead by its sender once leads answers again; an unknown sender stays an Algemene E-mail", async () => {
    const created = await postLead(p.leads.url, {
      carUrl: "https://www.example.nl/auto/outage",
      contactNumber: "06 12345678",
      email: "storing@klant.nl",
      companyName: "Storing BV",
    });
    expect(created.status).toBe(201);
    const leadId = ((await created.json()) as { id: string }).id;

    proxy.cut();
    let matched: string;
    let unknown: string;
    try {
      matched = await reply("storing@klant.nl", "during-outage@klant.nl");
      unknown = await reply("onbekend@elders.nl", "unknown-sender@elders.nl");
      // Stored, not matched yet, and waiting for leads (asked again every sweep while it is down).
      const rows = await p.sql.query(
        `SELECT message_id, lease_request_id, sender_match_pending_since IS NOT NULL AS pending
           FROM mailer.inbound_emails ORDER BY message_id`,
      );
      expect(rows.rows).toEqual([
        { message_id: "during-outage@klant.nl", lease_request_id: null, pending: true },
        { message_id: "unknown-sender@elders.nl", lease_request_id: null, pending: true },
      ]);
      // Several sweeps pass while leads stays down: still pending, never given up.
      await new Promise((r) => setTimeout(r, 1500));
      expect(
        await p.count(
          "SELECT count(*) AS n FROM mailer.inbound_emails WHERE sender_match_pending_since IS NOT NULL",
        ),
      ).toBe(2);
      // Visible to the SREs while it lasts (alert LeaseRepliesUnmatched).
      expect(await gauge("mailer_replies_awaiting_sender_match")).toBe(2);
      expect(await gauge("mailer_replies_awaiting_sender_match_oldest_seconds")).toBeGreaterThan(1);
    } finally {
      proxy.restore();
    }

    // On the lead (leads hears of it through the outbox), and in the inbox named with its lead.
    await waitFor(
      async () =>
        (await p.count(
          "SELECT count(*) AS n FROM leads.lead_emails WHERE lease_request_id = $1 AND email_id = $2",
          [leadId, matched],
        )) === 1,
      20_000,
      "the reply on the lead's timeline",
    );
    const inbox = (await (await fetch(`${mailer.url}/api/admin/emails`, { headers: { cookie } })).json()) as {
      id: string;
      leaseRequestId: string | null;
    }[];
    expect(inbox.find((e) => e.id === matched)?.leaseRequestId).toBe(leadId);
    expect(inbox.find((e) => e.id === unknown)?.leaseRequestId).toBe(null);
    const after = await p.sql.query(
      `SELECT message_id, lease_request_id, matched_by, sender_match_pending_since IS NOT NULL AS pending
         FROM mailer.inbound_emails ORDER BY message_id`,
    );
    expect(after.rows).toEqual([
      {
        message_id: "during-outage@klant.nl",
        lease_request_id: leadId,
        matched_by: "sender",
        pending: false,
      },
      { message_id: "unknown-sender@elders.nl", lease_request_id: null, matched_by: null, pending: false },
    ]);
    expect(await p.count("SELECT count(*) AS n FROM leads.lead_emails")).toBe(1);
    expect(await gauge("mailer_replies_awaiting_sender_match")).toBe(0);
    expect(await gauge("mailer_replies_awaiting_sender_match_oldest_seconds")).toBe(0);
  }, 60_000);
});
