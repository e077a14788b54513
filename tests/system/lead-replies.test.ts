import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  LeadHistory,
  type EmailMessageList,
  type InboundUrl,
  type LeadEmail,
  type SendEmailResponse,
} from "@lease/contracts";
import {
  eventWebhookKeys,
  signEventBatch,
  inboundParseForm,
  startSendgridReceiver,
  waitFor,
  type InboundParseSpec,
  type ReceivedMail,
  type SendgridReceiver,
} from "@lease/platform/testing";
import { adminFetch, startFullStack, type FullStack } from "./stack";

// A customer's reply finds its lead: the panel's follow-up goes out with Reply-To
// antwoord+<token>@reply.example.nl and a Message-ID and References naming the lead (the SendGrid
// stand-in records the payload), the reply comes back through the gateway as Inbound Parse posts
// it, and it is on the lead's timeline (leads hears of it by a job, never reading the mailer's
// tables), in the inbox, and announced on an open admin WebSocket. SendGrid's signed Event Webhook,
// through the gateway, tells each follow-up's fate on the lead's timeline; a bounce marks the
// lead's address as not working.

let stack: FullStack;
let receiver: SendgridReceiver;
let cookie: string;
let parse: InboundUrl;
let socket: WebSocket;
const pushed: { type: string; data: Record<string, unknown> }[] = [];

beforeAll(async () => {
  receiver = await startSendgridReceiver();
  stack = await startFullStack({
    SENDGRID_API_BASE_URL: receiver.url,
    LEAD_RATE_LIMIT: "100000",
    WORKER_NICE: "0",
  });
  cookie = await stack.adminCookie();
  expect(
    (
      await call("PUT", "/api/admin/company-settings", {
        companyName: "Antwoord Lease BV",
        sendgridApiKey: "SG.replies-0123456789abcdef",
        fromEmailAddress: "noreply@antwoordlease.nl",
        notifyCompanyEmail: false,
      })
    ).status,
  ).toBe(200);
  expect(
    (await call("PUT", "/api/admin/email-settings/inbound", { replyAddress: "antwoord@reply.example.nl" }))
      .status,
  ).toBe(200);
  parse = (await (await call("POST", "/api/admin/email-settings/inbound-url", {})).json()) as InboundUrl;
  socket = new WebSocket(`${stack.origin.replace("http", "ws")}/ws`, {
    headers: { cookie, origin: stack.origin },
  });
  socket.on("message", (m) => pushed.push(JSON.parse(m.toString())));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
}, 120_000);

afterAll(async () => {
  socket?.close();
  await stack?.stop();
  await receiver?.close();
});

const call = (method: string, path: string, body?: unknown) => adminFetch(stack, cookie, method, path, body);

async function newLead(email: string): Promise<string> {
  const res = await call("POST", "/api/lease-requests", {
    carUrl: "https://www.autoscout24.nl/aanbod/skoda-enyaq",
    contactNumber: "06 12121212",
    email,
    companyName: `Klant ${email}`,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The follow-up from the panel, as SendGrid received it. */
async function followUp(
  leaseRequestId: string,
  to: string,
): Promise<{ mail: ReceivedMail; entryId: string }> {
  const res = await call("POST", "/api/admin/send-email", {
    to,
    subject: "Follow-up op uw lease aanvraag - Antwoord Lease BV",
    message: "Beste klant, hierbij onze offerte.",
    leaseRequestId,
  });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as SendEmailResponse;
  const mail = await waitFor(
    () => receiver.accepted().find((m) => m.to[0] === to),
    15_000,
    "the follow-up sent",
  );
  return { mail, entryId: id };
}

/** Posted through the gateway exactly as Inbound Parse posts it (no cookie, no Origin). */
async function reply(spec: InboundParseSpec): Promise<string> {
  const { body, contentType } = inboundParseForm(spec);
  const res = await fetch(`${stack.origin}${parse.path}`, {
    method: "POST",
    headers: { "content-type": contentType },
    body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

const history = async (id: string) =>
  LeadHistory.parse(await (await call("GET", `/api/admin/lease-requests/${id}/history`)).json());
const emailsOn = async (id: string) =>
  (await history(id)).items.flatMap((entry) => (entry.kind === "email" ? [entry.email] : []));
const waitForEmail = (leadId: string, emailId: string, ok: (e: LeadEmail) => boolean = () => true) =>
  waitFor(
    async () => (await emailsOn(leadId)).find((e) => e.id === emailId && ok(e)),
    15_000,
    "the e-mail on the lead's timeline",
  );

describe("a reply finds its lead", () => {
  it("the follow-up carries Reply-To antwoord+<token>@, a Message-ID and References naming the lead", async () => {
    const lead = await newLead("token@klant.nl");
    const { mail, entryId } = await followUp(lead, "token@klant.nl");
    expect(mail.replyTo).toMatch(/^antwoord\+[a-z2-7]{16}@reply\.example\.nl$/);
    expect(mail.headers["Message-ID"]).toMatch(/^<out\.[0-9a-f-]{36}@reply\.example\.nl>$/);
    const token = /\+([a-z2-7]{16})@/.exec(mail.replyTo!)![1];
    expect(mail.headers.References).toBe(`<lead.${token}@reply.example.nl>`);
    // The send is on the lead's timeline too, as the mailer told leads.
    await waitForEmail(lead, entryId, (e) => e.direction === "out" && e.status === "sent");

    const pdf = Buffer.from("%PDF-1.4 loonstrook");
    const id = await reply({
      from: "Klant <token@klant.nl>",
      to: mail.replyTo!,
      subject: "Re: Follow-up op uw lease aanvraag - Antwoord Lease BV",
      text: "Dank u, hierbij mijn loonstrook.",
      messageId: "token-reply@klant.nl",
      attachments: [{ filename: "loonstrook.pdf", type: "application/pdf", content: pdf }],
    });
    const onTimeline = await waitForEmail(lead, id);
    expect(onTimeline).toMatchObject({
      direction: "in",
      fromEmail: "token@klant.nl",
      text: "Dank u, hierbij mijn loonstrook.",
      status: "received",
      attachments: [
        expect.objectContaining({
          fileName: "loonstrook.pdf",
          contentType: "application/pdf",
          sizeBytes: pdf.length,
        }),
      ],
    });
    const inbox = (await (await call("GET", "/api/admin/emails")).json()) as EmailMessageList;
    expect(inbox.find((e) => e.id === id)).toMatchObject({
      leaseRequestId: lead,
      isRead: false,
      messageType: "other",
    });
    // Announced live, like a new lead: first that it arrived, then that it is on the lead's timeline.
    await waitFor(
      () =>
        pushed.find(
          (m) => m.type === "email-received" && m.data.emailId === id && m.data.leaseRequestId === lead,
        ),
      5000,
      "email-received on the admin socket",
    );
    await waitFor(
      () =>
        pushed.find(
          (m) => m.type === "lead-email" && m.data.emailId === id && m.data.leaseRequestId === lead,
        ),
      5000,
      "lead-email on the admin socket",
    );
  });

  it("by In-Reply-To / References when the reply went to the plain address", async () => {
    const lead = await newLead("refs@klant.nl");
    const { mail } = await followUp(lead, "refs@klant.nl");
    const id = await reply({
      from: "andere-afzender@klant.nl",
      to: "antwoord@reply.example.nl",
      subject: "Re: offerte",
      text: "Doorgestuurd door mijn collega",
      messageId: "refs-reply@klant.nl",
      inReplyTo: mail.headers["Message-ID"]!.slice(1, -1),
      references: [mail.headers.References!.slice(1, -1), mail.headers["Message-ID"]!.slice(1, -1)],
    });
    expect((await waitForEmail(lead, id)).fromEmail).toBe("andere-afzender@klant.nl");
  });

  it("the answer from the lead carries In-Reply-To and References of the reply, so the customer's client threads it", async () => {
    const lead = await newLead("draad@klant.nl");
    const { mail } = await followUp(lead, "draad@klant.nl");
    const ours = [mail.headers.References!, mail.headers["Message-ID"]!];
    const replyId = await reply({
      from: "draad@klant.nl",
      to: mail.replyTo!,
      subject: "Re: Follow-up op uw lease aanvraag - Antwoord Lease BV",
      text: "Kan het ook in het zwart?",
      messageId: "draad-reply@mail.klant.nl",
      inReplyTo: ours[1]!.slice(1, -1),
      references: ours.map((r) => r.slice(1, -1)),
    });
    await waitForEmail(lead, replyId);
    const res = await call("POST", "/api/admin/send-email", {
      to: "draad@klant.nl",
      subject: "Re: Follow-up op uw lease aanvraag - Antwoord Lease BV",
      message: "Ja, in het zwart kan ook. Met vriendelijke groet",
      leaseRequestId: lead,
      inReplyToEmailId: replyId,
    });
    expect(res.status).toBe(202);
    const answer = await waitFor(
      () => receiver.accepted().find((m) => m.to[0] === "draad@klant.nl" && m.headers["In-Reply-To"]),
      15_000,
      "the answer sent",
    );
    expect(answer.headers["In-Reply-To"]).toBe("<draad-reply@mail.klant.nl>");
    // RFC 5322: the reply's References, then its Message-ID; the lead's own reference first.
    expect(answer.headers.References).toBe(`${ours.join(" ")} <draad-reply@mail.klant.nl>`);
    expect(answer.headers["Message-ID"]).not.toBe(mail.headers["Message-ID"]);
    expect(answer.replyTo).toBe(mail.replyTo);

    // A reply without a Message-ID of its own (known by a hash) is answered without In-Reply-To.
    const hashed = await reply({
      from: "draad@klant.nl",
      to: mail.replyTo!,
      subject: "Nog iets",
      text: "Zonder Message-ID",
    });
    const plain = await call("POST", "/api/admin/send-email", {
      to: "draad@klant.nl",
      subject: "Re: Nog iets",
      message: "Dank voor uw bericht, wij komen erop terug.",
      leaseRequestId: lead,
      inReplyToEmailId: hashed,
    });
    expect(plain.status).toBe(202);
    const second = await waitFor(
      () => receiver.accepted().find((m) => m.subject === "Re: Nog iets"),
      15_000,
      "the second answer sent",
    );
    expect(second.headers["In-Reply-To"]).toBeUndefined();
    expect(second.headers.References).toBe(mail.headers.References);
  });

  it("by its sender when that is exactly one open lead's address, and not when it is two", async () => {
    const lead = await newLead("enkel@klant.nl");
    const id = await reply({
      from: "enkel@klant.nl",
      to: "info@reply.example.nl",
      subject: "Nog een vraag",
      text: "Is de auto er ook in het blauw?",
      messageId: "sender-reply@klant.nl",
    });
    await waitForEmail(lead, id);

    await newLead("dubbel@klant.nl");
    await newLead("dubbel@klant.nl");
    const general = await reply({
      from: "dubbel@klant.nl",
      to: "info@reply.example.nl",
      subject: "Welke van de twee?",
      text: "Ik heb twee aanvragen gedaan.",
      messageId: "two-leads@klant.nl",
    });
    const inbox = (await (await call("GET", "/api/admin/emails")).json()) as EmailMessageList;
    expect(inbox.find((e) => e.id === general)).toMatchObject({ leaseRequestId: null, messageType: "other" });
    await waitFor(
      () => pushed.find((m) => m.type === "email-received" && m.data.emailId === general),
      5000,
      "the Algemene E-mail announced too",
    );
    expect(
      pushed.find((m) => m.type === "email-received" && m.data.emailId === general)!.data.leaseRequestId,
    ).toBe(null);
  });
});

describe("a follow-up's fate through the Event Webhook", () => {
  const keys = eventWebhookKeys();

  it("marks the follow-up Afgeleverd on its lead, and a bounce marks another lead's address Onbestelbaar with the reason", async () => {
    expect(
      (
        await call("PUT", "/api/admin/email-settings/event-webhook", {
          verificationKey: keys.verificationKey,
        })
      ).status,
    ).toBe(200);
    const delivered = await newLead("afgeleverd@klant.nl");
    const first = await followUp(delivered, "afgeleverd@klant.nl");
    const bounced = await newLead("typfout@klnat.nl");
    const second = await followUp(bounced, "typfout@klnat.nl");
    const reason = "550 5.1.1 <typfout@klnat.nl>: Recipient address rejected: User unknown";
    const batch = signEventBatch(
      [
        {
          email: "afgeleverd@klant.nl",
          timestamp: Math.floor(Date.now() / 1000),
          event: "delivered",
          sg_event_id: "sys-delivered-1",
          sg_message_id: "x.filter",
          response: "250 OK",
          outgoing_email_id: first.mail.customArgs.outgoing_email_id,
        },
        {
          email: "typfout@klnat.nl",
          timestamp: Math.floor(Date.now() / 1000),
          event: "bounce",
          type: "bounce",
          sg_event_id: "sys-bounce-1",
          sg_message_id: "y.filter",
          reason,
          outgoing_email_id: second.mail.customArgs.outgoing_email_id,
        },
      ],
      keys.privateKey,
    );
    // Through the gateway, as SendGrid posts it: the signature holds only if the bytes arrive as sent.
    const res = await fetch(`${stack.origin}/api/sendgrid/events`, {
      method: "POST",
      headers: batch.headers,
      body: batch.body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: 2, matched: 2 });

    await waitForEmail(delivered, first.entryId, (e) => e.delivery.state === "delivered");
    const gone = await waitForEmail(bounced, second.entryId, (e) => e.delivery.state === "bounced");
    expect(gone.delivery.reason).toBe(reason);
    const list = (await (await call("GET", "/api/admin/lease-requests")).json()) as {
      items: { id: string; emailUndeliverable: { reason: string | null } | null }[];
    };
    expect(list.items.find((l) => l.id === bounced)!.emailUndeliverable).toMatchObject({ reason });
    expect(list.items.find((l) => l.id === delivered)!.emailUndeliverable).toBeNull();

    const replayed = await fetch(`${stack.origin}/api/sendgrid/events`, {
      method: "POST",
      headers: batch.headers,
      body: batch.body,
    });
    expect(replayed.status).toBe(403);
  });
});

describe("a person's data", () => {
  it("exports their replies with the attachments listed, and erasure removes both", async () => {
    const lead = await newLead("avg@klant.nl");
    const { mail } = await followUp(lead, "avg@klant.nl");
    const id = await reply({
      from: "avg@klant.nl",
      to: mail.replyTo!,
      subject: "Re: offerte",
      text: "Mijn KvK-uittreksel",
      messageId: "avg-reply@klant.nl",
      attachments: [{ filename: "kvk.pdf", type: "application/pdf", content: Buffer.alloc(2048, 1) }],
    });
    await waitForEmail(lead, id);
    const exported = await call("POST", "/api/admin/privacy/export", { email: "avg@klant.nl" });
    expect(exported.status).toBe(200);
    const document = JSON.stringify(await exported.json());
    expect(document).toContain("Mijn KvK-uittreksel");
    expect(document).toContain("kvk.pdf (application/pdf, 2 kB)");

    const inboxEntry = ((await (await call("GET", "/api/admin/emails")).json()) as EmailMessageList).find(
      (e) => e.id === id,
    )!;
    const download = `/api/admin/emails/${id}/attachments/${inboxEntry.attachments[0]!.id}`;
    expect((await call("GET", download)).status).toBe(200);
    const erased = await call("POST", "/api/admin/privacy/erase", {
      email: "avg@klant.nl",
      confirm: "WISSEN",
    });
    expect(erased.status).toBe(200);
    const after = (await (await call("GET", "/api/admin/emails")).json()) as EmailMessageList;
    expect(after.some((e) => e.id === id)).toBe(false);
    expect((await call("GET", download)).status).toBe(404);
  });
});
