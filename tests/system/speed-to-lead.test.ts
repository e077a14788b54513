import { Redis } from "ioredis";
import pg from "pg";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ServerWsMessage,
  type AdminCompanySettings,
  type EmailMessageList,
  type LeadCreatedMessage,
  type LeaseRequestListResponse,
} from "@lease/contracts";
import { QUEUES } from "@lease/contracts";
import { createQueueClient } from "@lease/platform";
import { startSendgridReceiver, waitFor, type SendgridReceiver } from "@lease/platform/testing";
import { startFullStack, type FullStack } from "./stack";

// Speed to lead: a quote request reaches an open admin panel within 2 s over the admin
// WebSocket (leads outbox relay → Redis pub/sub → tracking → gateway tunnel), and the company's
// e-mail about it links to it in the panel, unless the e-mail settings turned that e-mail off.

const ORIGIN = "https://lease.example.nl";
let stack: FullStack;
let receiver: SendgridReceiver;
let cookie: string;
let sql: pg.Pool;

beforeAll(async () => {
  receiver = await startSendgridReceiver();
  stack = await startFullStack({
    PUBLIC_ORIGIN: ORIGIN,
    SENDGRID_API_BASE_URL: receiver.url,
    LEAD_RATE_LIMIT: "100000",
    WORKER_NICE: "0",
  });
  cookie = await stack.adminCookie();
  sql = new pg.Pool({ connectionString: stack.db.url, max: 2 });
  sql.on("error", () => undefined);
  const res = await admin("PUT", "/api/admin/company-settings", {
    companyName: "Snel Lease BV",
    emailAddress: "verkoop@snellease.nl",
    sendgridApiKey: "SG.speed-to-lead-0123456789",
    fromEmailAddress: "noreply@snellease.nl",
  });
  expect(res.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await stack?.stop();
  await receiver?.close();
});

/** Through the gateway, as the panel on PUBLIC_ORIGIN calls it (CSRF: same origin, JSON). */
function admin(method: string, path: string, body?: unknown) {
  return fetch(`${stack.gateway.url}${path}`, {
    method,
    headers: {
      origin: ORIGIN,
      cookie,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function adminSocket() {
  const ws = new WebSocket(`${stack.gateway.url.replace("http", "ws")}/ws`, {
    headers: { origin: ORIGIN, cookie },
  });
  const leads: { message: LeadCreatedMessage; at: number }[] = [];
  ws.on("message", (raw) => {
    const message = ServerWsMessage.parse(JSON.parse(String(raw)));
    if (message.type === "lead-created") leads.push({ message, at: Date.now() });
  });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  return { ws, leads };
}

const quote = (email: string) =>
  fetch(`${stack.gateway.url}/api/lease-requests`, {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({
      carUrl: "https://www.autoscout24.nl/aanbod/skoda-enyaq",
      contactNumber: "06 11223344",
      email,
      companyName: "Vlug BV",
      leaseTerm: 48,
    }),
  });

describe("speed to lead", () => {
  it("tells every open admin socket of a new quote within 2 s and mails the company a link to it", async () => {
    const [one, two] = [await adminSocket(), await adminSocket()];
    try {
      const sent = Date.now();
      const res = await quote("vlug@klant.nl");
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      for (const socket of [one, two]) {
        const seen = await waitFor(
          () => socket.leads.find((l) => l.message.data.id === id),
          2_000,
          "the lead on the admin socket",
          25,
        );
        expect(seen.message.data.source).toBe("lease_request");
        expect(seen.at - sent).toBeLessThan(2_000);
      }
      // The panel reloads the list on the notice: the new lead is on top, unread.
      const list = (await (
        await admin("GET", "/api/admin/lease-requests")
      ).json()) as LeaseRequestListResponse;
      expect(list.items[0]).toMatchObject({ id, isRead: false });

      const mail = await waitFor(
        () => receiver.accepted().find((m) => m.text.includes(id)),
        15_000,
        "the company e-mail",
        25,
      );
      const link = `${ORIGIN}/admin?tab=aanvragen&lead=${id}`;
      expect(mail.to).toEqual(["verkoop@snellease.nl"]);
      expect(mail.text).toContain(`Bekijk de aanvraag in het beheer: ${link}`);
      expect(mail.html).toContain(
        `<a href="${link.replace(/&/g, "&amp;")}">Bekijk de aanvraag in het beheer</a>`,
      );
    } finally {
      one.ws.close();
      two.ws.close();
    }
  });

  it("tells the panel of a contact message too, and links that e-mail to the inbox", async () => {
    const socket = await adminSocket();
    try {
      const res = await fetch(`${stack.gateway.url}/api/contact`, {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({
          name: "Carla Contact",
          email: "carla@klant.nl",
          message: "Bel mij terug over een bestelbus.",
        }),
      });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      const seen = await waitFor(
        () => socket.leads.find((l) => l.message.data.id === id),
        2_000,
        "the lead on the admin socket",
        25,
      );
      expect(seen.message.data.source).toBe("contact_form");
      const mail = await waitFor(
        () => receiver.accepted().find((m) => m.text.includes("Carla Contact")),
        15_000,
        "the contact e-mail",
        25,
      );
      expect(mail.text).toContain(`Bekijk het bericht in het beheer: ${ORIGIN}/admin?tab=inbox`);
    } finally {
      socket.ws.close();
    }
  });

  it("sends no company e-mail while the switch is off, and the panel still hears of the lead", async () => {
    const bad = await admin("PUT", "/api/admin/company-settings", { notifyCompanyEmail: "nee" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Kies aan of uit");

    const off = await admin("PUT", "/api/admin/company-settings", { notifyCompanyEmail: false });
    expect(off.status).toBe(200);
    expect(((await off.json()) as AdminCompanySettings).notifyCompanyEmail).toBe(false);
    const read = (await (await admin("GET", "/api/admin/company-settings")).json()) as AdminCompanySettings;
    expect(read.notifyCompanyEmail).toBe(false);

    const socket = await adminSocket();
    const bull = new Redis(stack.env.REDIS_URL!, { maxRetriesPerRequest: null });
    const queue = createQueueClient(bull, stack.env.REDIS_PREFIX!);
    try {
      const res = await quote("stil@klant.nl");
      const { id } = (await res.json()) as { id: string };
      await waitFor(
        () => socket.leads.find((l) => l.message.data.id === id),
        2_000,
        "the lead on the admin socket",
        25,
      );
      // The lead's mail job (inbox entry and notification) ran to completion and decided not to send.
      const { rows } = await sql.query<{ id: string; n: number }>(
        "SELECT id FROM leads.outbox WHERE job_name = 'lead.received' AND payload->>'sourceId' = $1",
        [id],
      );
      await waitFor(
        async () => (await queue.raw(QUEUES.mail).getJobState(String(rows[0]!.id))) === "completed",
        15_000,
        "the mail job completed",
        25,
      );
      // The inbox still logs it.
      await waitFor(
        async () =>
          ((await (await admin("GET", "/api/admin/emails")).json()) as EmailMessageList).some(
            (m) => m.senderEmail === "stil@klant.nl",
          ),
        15_000,
        "the inbox entry",
        25,
      );
      expect(receiver.accepted().some((m) => m.text.includes(id))).toBe(false);
      const { rows: outgoing } = await sql.query<{ id: string; n: number }>(
        "SELECT count(*)::int AS n FROM mailer.outgoing_emails WHERE lease_request_id = $1",
        [id],
      );
      expect(outgoing[0]!.n).toBe(0);
    } finally {
      socket.ws.close();
      await queue.close();
      bull.disconnect();
      await admin("PUT", "/api/admin/company-settings", { notifyCompanyEmail: true });
    }
  });

  it("says in the company's e-mail how many requests are to be followed up today", async () => {
    const earlier = await quote("opvolgen@klant.nl");
    const { id: dueId } = (await earlier.json()) as { id: string };
    const { rows } = await sql.query<{ d: string }>(
      "SELECT to_char((now() AT TIME ZONE 'Europe/Amsterdam')::date, 'YYYY-MM-DD') AS d",
    );
    const set = await admin("PUT", `/api/admin/lease-requests/${dueId}/follow-up`, {
      followUpOn: rows[0]!.d,
    });
    expect(set.status).toBe(200);
    const res = await quote("nog-een@klant.nl");
    const { id } = (await res.json()) as { id: string };
    const mail = await waitFor(
      () => receiver.accepted().find((m) => m.text.includes(id)),
      15_000,
      "the company e-mail",
      25,
    );
    expect(mail.text).toContain("Vandaag op te volgen: 1 aanvraag");
    expect(mail.html).toContain("Vandaag op te volgen: 1 aanvraag");
  });
});
