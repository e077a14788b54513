import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LeadHistory, LeadNote, type EmailMessageList, type SendEmailResponse } from "@lease/contracts";
import { startSendgridReceiver, waitFor, type SendgridReceiver } from "@lease/platform/testing";
import { adminFetch, startFullStack, type FullStack } from "./stack";

// Through the gateway: a note, a status change and an e-mail sent to the lead end up on
// one timeline (the leads service's history, which the mailer tells of each e-mail, and the mailer's
// sent mail for that request), and the note routes are admin-only, CSRF-protected and JSON-only
// like the rest.

let stack: FullStack;
let receiver: SendgridReceiver;
let cookie: string;

beforeAll(async () => {
  receiver = await startSendgridReceiver();
  stack = await startFullStack({
    SENDGRID_API_BASE_URL: receiver.url,
    LEAD_RATE_LIMIT: "100000",
    WORKER_NICE: "0",
  });
  cookie = await stack.adminCookie();
  const res = await call("PUT", "/api/admin/company-settings", {
    companyName: "Tijdlijn Lease BV",
    sendgridApiKey: "SG.timeline-0123456789abcdef",
    fromEmailAddress: "noreply@tijdlijn.nl",
    notifyCompanyEmail: false,
  });
  expect(res.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  adminFetch(stack, cookie, method, path, body, headers);

async function newLead(email: string): Promise<string> {
  const res = await call("POST", "/api/lease-requests", {
    carUrl: "https://www.autoscout24.nl/aanbod/kia-ev6",
    contactNumber: "06 55667788",
    email,
    companyName: "Tijdlijn Klant BV",
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("a lead's timeline", () => {
  it("holds its receipt, a status change by the admin, a note and the e-mail sent to the lead", async () => {
    const id = await newLead("tijdlijn@klant.nl");
    const note = await call("POST", `/api/admin/lease-requests/${id}/notes`, {
      body: "Gebeld, stuurt offerte.",
    });
    expect(note.status).toBe(201);
    const written = LeadNote.parse(await note.json());
    expect(written.author).toBe("admin");

    const status = await call("PATCH", `/api/admin/lease-requests/${id}/status`, {
      status: "gereageerd",
      isRead: true,
    });
    expect(status.status).toBe(200);

    const send = await call("POST", "/api/admin/send-email", {
      to: "tijdlijn@klant.nl",
      subject: "Uw offerte voor de Kia EV6",
      message: "Beste klant, hierbij de offerte waar u om vroeg.",
      leaseRequestId: id,
    });
    expect(send.status).toBe(202);
    const { id: emailId } = (await send.json()) as SendEmailResponse;
    // Another lead's e-mail is not on this timeline.
    const other = await newLead("ander@klant.nl");
    expect(
      (
        await call("POST", "/api/admin/send-email", {
          to: "ander@klant.nl",
          subject: "Niet voor deze tijdlijn",
          message: "Dit bericht hoort bij een andere aanvraag.",
          leaseRequestId: other,
        })
      ).status,
    ).toBe(202);

    // The mailer tells leads of the e-mail once it is sent: then it is the newest on the timeline.
    const history = await waitFor(
      async () => {
        const h = LeadHistory.parse(
          await (await call("GET", `/api/admin/lease-requests/${id}/history`)).json(),
        );
        return h.items.some((i) => i.kind === "email") ? h : undefined;
      },
      15_000,
      "the sent e-mail on the lead's history",
    );
    expect(history.items.map((i) => i.kind)).toEqual(["email", "status", "note", "received"]);
    expect(history.items[0]).toMatchObject({
      kind: "email",
      email: { id: emailId, direction: "out", status: "sent", to: "tijdlijn@klant.nl" },
    });
    expect(history.items[1]).toMatchObject({ kind: "status", from: "nieuw", to: "gereageerd", by: "admin" });

    const sent = await call("GET", `/api/admin/emails?folder=sent&leaseRequestId=${id}`);
    expect(sent.status).toBe(200);
    expect(sent.headers.get("x-total-count")).toBe("1");
    const emails = (await sent.json()) as EmailMessageList;
    expect(emails.map((e) => [e.id, e.subject, e.recipientEmail])).toEqual([
      [emailId, "Uw offerte voor de Kia EV6", "tijdlijn@klant.nl"],
    ]);
    const bad = await call("GET", "/api/admin/emails?folder=sent&leaseRequestId=geen-id");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("leaseRequestId moet het id van een lease aanvraag zijn");
  });

  it("keeps the note routes admin-only, same-origin and JSON-only", async () => {
    const id = await newLead("bewaakt@klant.nl");
    const path = `/api/admin/lease-requests/${id}/notes`;
    expect((await call("POST", path, { body: "Zonder sessie" }, { cookie: "" })).status).toBe(401);
    expect(
      (await call("POST", path, { body: "Van elders" }, { origin: "https://evil.example" })).status,
    ).toBe(403);
    const text = await fetch(`${stack.gateway.url}${path}`, {
      method: "POST",
      headers: { origin: stack.origin, cookie, "content-type": "text/plain" },
      body: "Geen JSON",
    });
    expect(text.status).toBe(415);
    expect(
      (await call("GET", `/api/admin/lease-requests/${id}/history`, undefined, { cookie: "" })).status,
    ).toBe(401);
  });
});
