import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQueueClient } from "@lease/platform";
import { QUEUES, type EmailMessageList } from "@lease/contracts";
import { CONFIGURED } from "../../services/mailer/src/testing";
import { postLead, startPipeline, type Pipeline } from "./mail-pipeline";
import { waitFor } from "@lease/platform/testing";

const lead = {
  carUrl: "https://www.autoscout24.nl/aanbod/tesla-model-3",
  contactNumber: "06 98765432",
  email: "klant@bedrijf.nl",
  companyName: "Klant <b>BV</b>",
  leaseTerm: "60",
  message: "Graag <script>alert(1)</script> een offerte",
};

let p: Pipeline;
let cookie: string;
beforeAll(async () => {
  p = await startPipeline();
  cookie = await p.adminCookie();
});
afterAll(async () => {
  await p?.stop();
});

const inbox = async () =>
  (await (
    await fetch(`${p.mailer!.url}/api/admin/emails`, { headers: { cookie } })
  ).json()) as EmailMessageList;

describe("a quote request end to end", () => {
  it("is logged in the inbox as lease_request and the company is notified through SendGrid", async () => {
    const res = await postLead(p.leads.url, lead);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };

    const entry = await waitFor(
      async () => (await inbox()).find((m) => m.messageType === "lease_request"),
      10_000,
      "inbox entry",
    );
    expect(entry).toMatchObject({
      subject: "Nieuwe lease aanvraag van Klant <b>BV</b>",
      senderName: "Klant <b>BV</b>",
      senderEmail: "klant@bedrijf.nl",
      recipientEmail: "info@testlease.nl",
      deliveryStatus: "received",
      isRead: false,
    });
    expect(entry.messageBody).toContain("Looptijd: 60 maanden");

    const mail = await waitFor(async () => p.receiver.accepted()[0], 10_000, "notification");
    expect(mail).toMatchObject({
      apiKey: CONFIGURED.sendgridApiKey,
      to: ["info@testlease.nl"],
      from: "noreply@testlease.nl",
      fromName: "Test Lease BV",
      subject: "Nieuwe lease aanvraag van Klant <b>BV</b>",
    });
    expect(mail.text).toContain("Auto URL: https://www.autoscout24.nl/aanbod/tesla-model-3");
    expect(mail.html).toContain("Klant &lt;b&gt;BV&lt;/b&gt;");
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.html).not.toContain("<script>");
    // The worker records "sent" after SendGrid's 202 has reached it, a moment after the receiver saw it.
    await waitFor(
      async () =>
        (await p.count(
          "SELECT count(*) AS n FROM mailer.outgoing_emails WHERE status = 'sent' AND lease_request_id = $1",
          [id],
        )) === 1,
      10_000,
      "the send recorded as sent",
    );
    expect(
      await p.count("SELECT count(*) AS n FROM mailer.outgoing_emails WHERE lease_request_id = $1", [id]),
    ).toBe(1);
  });

  it("skips the company notification when no key or sender is configured, but still logs the inbox entry", async () => {
    p.settings.set({ ...CONFIGURED, sendgridApiKey: null });
    // The settings-changed event would drop the cache; here the mailer is restarted to start cold.
    await p.restartMailer();
    const before = p.receiver.received.length;
    const res = await postLead(p.leads.url, { ...lead, email: "skip@bedrijf.nl", companyName: "" });
    const { id } = (await res.json()) as { id: string };
    await waitFor(
      async () => (await inbox()).find((m) => m.subject === "Nieuwe lease aanvraag van skip@bedrijf.nl"),
      10_000,
      "inbox entry",
    );
    // Wait until the notification job itself has completed (it ran and decided to skip).
    const { rows } = await p.sql.query<{ id: string }>(
      "SELECT id FROM leads.outbox WHERE job_name = 'lead.received' AND payload->>'sourceId' = $1",
      [id],
    );
    const bull = new Redis(p.env.REDIS_URL!, { maxRetriesPerRequest: null });
    const queue = createQueueClient(bull, p.env.REDIS_PREFIX!);
    try {
      await waitFor(
        async () => (await queue.raw(QUEUES.mail).getJobState(rows[0]!.id)) === "completed",
        10_000,
        "notify job",
      );
    } finally {
      await queue.close();
      bull.disconnect();
    }
    expect(p.receiver.received.length).toBe(before);
    expect(
      await p.count("SELECT count(*) AS n FROM mailer.outgoing_emails WHERE lease_request_id = $1", [id]),
    ).toBe(0);
    p.settings.set(CONFIGURED);
    await p.restartMailer();
  });

  it("logs a contact message in the inbox as contact_form and notifies the company", async () => {
    const res = await fetch(`${p.leads.url}/api/contact`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.31" },
      body: JSON.stringify({
        name: "Piet <Jansen>",
        email: "piet@example.nl",
        message: "Kunt u mij terugbellen?",
      }),
    });
    expect(res.status).toBe(201);
    const entry = await waitFor(
      async () => (await inbox()).find((m) => m.messageType === "contact_form"),
      10_000,
      "contact inbox entry",
    );
    expect(entry).toMatchObject({ senderName: "Piet <Jansen>", senderEmail: "piet@example.nl" });
    expect(entry.messageBody).toContain("Bericht: Kunt u mij terugbellen?");
    const mail = await waitFor(
      async () =>
        p.receiver.accepted().find((m) => m.subject.startsWith("Nieuw bericht via het contactformulier")),
      10_000,
      "contact notification",
    );
    expect(mail.html).toContain("Piet &lt;Jansen&gt;");
  });

  it("an answer to a contact message's sender ('Beantwoorden' on its entry) is its first response once sent", async () => {
    const res = await fetch(`${p.leads.url}/api/contact`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.32" },
      body: JSON.stringify({ name: "Ans", email: "ans@example.nl", message: "Wat kost een Enyaq?" }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const entry = await waitFor(
      async () =>
        (await inbox()).find((m) => m.messageType === "contact_form" && m.senderEmail === "ans@example.nl"),
      10_000,
      "contact inbox entry",
    );
    const send = (to: string) =>
      fetch(`${p.mailer!.url}/api/admin/send-email`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({
          to,
          subject: "Re: Nieuw bericht",
          message: "Een Enyaq kost vanaf 650 euro per maand.",
          inReplyToEmailId: entry.id,
        }),
      });
    const firstResponse = async () =>
      (
        await p.sql.query<{ at: Date | null; kind: string | null }>(
          "SELECT first_response_at AS at, first_response_kind AS kind FROM leads.contact_messages WHERE id = $1",
          [id],
        )
      ).rows[0]!;
    // Written to another address (a colleague): no answer to the sender.
    expect((await send("collega@example.nl")).status).toBe(202);
    await waitFor(() => p.receiver.accepted().find((m) => m.to[0] === "collega@example.nl"), 10_000, "sent");
    expect(await firstResponse()).toEqual({ at: null, kind: null });
    expect((await send("Ans@Example.nl")).status).toBe(202);
    const answered = await waitFor(
      async () => {
        const row = await firstResponse();
        return row.at ? row : undefined;
      },
      15_000,
      "the contact message's first response",
    );
    expect(answered.kind).toBe("email");
    const { rows } = await p.sql.query<{ sent_at: Date }>(
      "SELECT sent_at FROM mailer.outgoing_emails WHERE contact_message_id = $1",
      [id],
    );
    expect(rows.map((r) => r.sent_at.toISOString())).toEqual([answered.at!.toISOString()]);
  });
});
