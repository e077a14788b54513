import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { CHANNELS, MailOutcomeEvent, type EmailFolder, type EmailMessageList } from "@lease/contracts";
import { keyspace } from "@lease/platform";
import { CONFIGURED } from "../../services/mailer/src/testing";
import { postLead, startPipeline, type Pipeline } from "./mail-pipeline";
import { waitFor } from "@lease/platform/testing";

let p: Pipeline;
let cookie: string;
let subscriber: Redis;
const outcomes: MailOutcomeEvent[] = [];
beforeAll(async () => {
  p = await startPipeline();
  cookie = await p.adminCookie();
  // What the admin's socket hears (tracking relays this channel).
  subscriber = new Redis(p.env.REDIS_URL!);
  const channel = keyspace(p.env.REDIS_PREFIX!)("events", CHANNELS.mailOutcome);
  subscriber.on("message", (ch: string, raw: string) => {
    if (ch === channel) outcomes.push(MailOutcomeEvent.parse(JSON.parse(raw)));
  });
  await subscriber.subscribe(channel);
});
afterAll(async () => {
  subscriber?.disconnect();
  await p?.stop();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${p.mailer!.url}${path}`, {
    ...init,
    headers: { cookie, "content-type": "application/json", ...(init.headers ?? {}) },
  });
const inbox = async (folder: EmailFolder = "sent") =>
  (await (await api(`/api/admin/emails?folder=${folder}`)).json()) as EmailMessageList;
const compose = {
  to: "klant@bedrijf.nl",
  subject: "Uw offerte",
  message: "Beste klant,\nHierbij <b>uw</b> offerte.",
};

describe("sending through SendGrid", () => {
  it("retries a send the provider answered 500 and records it once as sent", async () => {
    p.receiver.answer(500);
    const res = await postLead(p.leads.url, {
      carUrl: "https://www.example.nl/auto/1",
      contactNumber: "0612121212",
      email: "retry@bedrijf.nl",
    });
    expect(res.status).toBe(201);
    await waitFor(async () => p.receiver.accepted().length === 1, 20_000, "the retried send");
    expect(p.receiver.received.map((m) => m.status)).toEqual([500, 202]);
    const ids = new Set(p.receiver.received.map((m) => m.customArgs.outgoing_email_id));
    expect(ids.size).toBe(1);
    // The worker records "sent" after SendGrid's 202 has reached it, a moment after the receiver saw it.
    const rows = await waitFor(
      async () => {
        const r = await p.sql.query("SELECT status, attempts FROM mailer.outgoing_emails");
        return r.rows.length > 0 && r.rows.every((row) => row.status === "sent") && r.rows;
      },
      10_000,
      "the send recorded as sent",
    );
    expect(rows).toEqual([{ status: "sent", attempts: 2 }]);
  });

  it("records a composed e-mail as queued in sent mail, sends it with the company details, then shows sent", async () => {
    const res = await api("/api/admin/send-email", { method: "POST", body: JSON.stringify(compose) });
    expect(res.status).toBe(202);
    const { id, status } = (await res.json()) as { id: string; status: string };
    expect(status).toBe("queued");
    const entry = await waitFor(
      async () => (await inbox()).find((m) => m.id === id && m.deliveryStatus === "sent"),
      10_000,
      "sent",
    );
    expect(entry).toMatchObject({
      subject: "Uw offerte",
      recipientEmail: "klant@bedrijf.nl",
      messageType: "other",
      isRead: true,
      failureReason: null,
    });
    expect(entry.sentAt).not.toBeNull();
    expect((await inbox("inbox")).some((m) => m.id === id)).toBe(false);
    await waitFor(async () => outcomes.find((o) => o.emailId === id), 5000, "the sent outcome");
    expect(outcomes.filter((o) => o.emailId === id)).toMatchObject([{ status: "sent", reason: null }]);
    const mail = p.receiver.accepted().find((m) => m.subject === "Uw offerte")!;
    expect(mail.to).toEqual(["klant@bedrijf.nl"]);
    expect(mail.text).toContain("Beste klant,\nHierbij <b>uw</b> offerte.");
    expect(mail.text).toContain(
      "Test Lease BV\nHerengracht 1, 1015 BA Amsterdam\nTel: 020 123 4567\nE-mail: info@testlease.nl",
    );
    expect(mail.html).toContain("Hierbij &lt;b&gt;uw&lt;/b&gt; offerte.");
  });

  it("shows a send the provider refuses as failed in sent mail, with the reason in Dutch, and sends it again on retry", async () => {
    p.receiver.answer(400);
    const res = await api("/api/admin/send-email", {
      method: "POST",
      body: JSON.stringify({ ...compose, subject: "Geweigerd" }),
    });
    const { id } = (await res.json()) as { id: string };
    const entry = await waitFor(
      async () => (await inbox()).find((m) => m.id === id && m.deliveryStatus === "failed"),
      10_000,
      "failed",
    );
    expect(entry.subject).toBe("Geweigerd");
    const reason = 'SendGrid weigerde de e-mail (400). SendGrid meldt: "scripted 400".';
    expect(entry.failureReason).toBe(reason);
    const told = await waitFor(async () => outcomes.find((o) => o.emailId === id), 5000, "the outcome");
    expect(told).toMatchObject({ status: "failed", reason });
    expect(await (await api(`/api/admin/emails/${id}`)).json()).toMatchObject({
      id,
      deliveryStatus: "failed",
      failureReason: reason,
    });

    const retry = await api(`/api/admin/emails/${id}/retry`, { method: "POST" });
    expect(retry.status).toBe(202);
    expect(await retry.json()).toEqual({ id, status: "queued" });
    await waitFor(
      async () => outcomes.find((o) => o.emailId === id && o.status === "sent"),
      10_000,
      "resent",
    );
    expect(p.receiver.accepted().filter((m) => m.subject === "Geweigerd")).toHaveLength(1);
    const again = await api(`/api/admin/emails/${id}/retry`, { method: "POST" });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe(
      "Alleen een mislukte verzonden e-mail kan opnieuw worden verstuurd.",
    );
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await api(`/api/admin/emails/${unknown}/retry`, { method: "POST" })).status).toBe(404);
    expect((await api(`/api/admin/emails/${unknown}`)).status).toBe(404);
  });

  it("stops a send that keeps failing when the admin cancels it: never sent, failed with the reason, sendable again", async () => {
    p.receiver.answer(503);
    const res = await api("/api/admin/send-email", {
      method: "POST",
      body: JSON.stringify({ ...compose, subject: "Geannuleerd" }),
    });
    const { id } = (await res.json()) as { id: string };
    await waitFor(
      async () => outcomes.find((o) => o.emailId === id && o.status === "retrying"),
      10_000,
      "waiting for a new attempt",
    );
    const cancel = await api(`/api/admin/emails/${id}/cancel`, { method: "POST" });
    expect(cancel.status).toBe(200);
    const reason = "Verzenden geannuleerd: deze e-mail is niet verzonden.";
    expect(await cancel.json()).toEqual({ id, status: "failed", reason });
    expect(await (await api(`/api/admin/emails/${id}`)).json()).toMatchObject({
      deliveryStatus: "failed",
      failureReason: reason,
      sentAt: null,
    });
    const again = await api(`/api/admin/emails/${id}/cancel`, { method: "POST" });
    expect(again.status).toBe(409);
    // Sent again on request, once (the cancelled job's own next attempt finds it cancelled).
    const attempts = () =>
      p.receiver.received.filter((m) => m.subject === "Geannuleerd" && m.status === 202).length;
    const retry = await api(`/api/admin/emails/${id}/retry`, { method: "POST" });
    expect(retry.status).toBe(202);
    await waitFor(async () => attempts() === 1, 15_000, "sent once when sent again");
    expect(await (await api(`/api/admin/emails/${id}/cancel`, { method: "POST" })).json()).toMatchObject({
      message:
        "Deze e-mail wordt op dit moment verzonden of is al verzonden of mislukt; annuleren kan niet meer.",
    });
  });

  it("counts job attempts by outcome and the queue's jobs by state for the dashboards", async () => {
    // After the tests above: a retried send (500 then 202) and a send refused for good (400).
    const text = await (await fetch(p.mailer!.metricsUrl)).text();
    const value = (labels: string) =>
      Number(new RegExp(`^bullmq_job_attempts_total\\{${labels}[^}]*\\} (\\d+)`, "m").exec(text)?.[1] ?? 0);
    expect(value('queue="mail",job="lead.received",outcome="retry"')).toBeGreaterThanOrEqual(1);
    expect(value('queue="mail",job="lead.received",outcome="completed"')).toBeGreaterThanOrEqual(1);
    expect(value('queue="mail",job="mail.send",outcome="completed"')).toBeGreaterThanOrEqual(2);
    for (const state of ["waiting", "active", "delayed", "failed"])
      expect(text).toMatch(new RegExp(`^bullmq_jobs\\{queue="mail",state="${state}"[^}]*\\} \\d+`, "m"));
    // The refused send ends its job normally but counts as a failed mail.
    expect(text).toMatch(/^mailer_sends_total\{outcome="refused"[^}]*\} [1-9]/m);
    expect(text).toMatch(/^mailer_sends_total\{outcome="retry"[^}]*\} [1-9]/m);
    expect(text).toMatch(/^mailer_sends_total\{outcome="sent"[^}]*\} [1-9]/m);
  });

  it("refuses line breaks in subject or address and validates with Dutch messages", async () => {
    const bad = await api("/api/admin/send-email", {
      method: "POST",
      body: JSON.stringify({ to: "a@b.nl\r\nBcc: x@y.nl", subject: "Hoi\r\nBcc: x@y.nl", message: "kort" }),
    });
    expect(bad.status).toBe(400);
    const { fields } = (await bad.json()) as { fields: { path: string; message: string }[] };
    expect(fields).toEqual(
      expect.arrayContaining([
        { path: "to", message: "Voer een geldig e-mailadres in" },
        { path: "subject", message: "Onderwerp mag geen regeleinden bevatten" },
        { path: "message", message: "Bericht moet minimaal 10 karakters bevatten" },
      ]),
    );
    const template = await api("/api/admin/send-email", {
      method: "POST",
      body: JSON.stringify({
        ...compose,
        message: "Beste klant,\n\n[Voeg hier uw persoonlijke bericht toe]\n",
      }),
    });
    expect(template.status).toBe(400);
    expect(((await template.json()) as { fields: unknown[] }).fields).toEqual([
      { path: "message", message: 'Vervang "[Voeg hier uw persoonlijke bericht toe]" door uw eigen bericht' },
    ]);
  });

  it("answers 409 mail_not_configured when no provider is set, checked at request time", async () => {
    p.settings.set({ ...CONFIGURED, fromEmailAddress: null });
    await p.restartMailer();
    const res = await api("/api/admin/send-email", { method: "POST", body: JSON.stringify(compose) });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: "mail_not_configured",
      message:
        "Er is geen e-mailprovider ingesteld. Vul de SendGrid API key en het afzenderadres in bij E-mail Instellingen.",
    });
    p.settings.set(CONFIGURED);
    await p.restartMailer();
  });
});

describe("inbox admin API", () => {
  it("refuses every route without a session (401)", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    for (const [method, path] of [
      ["GET", "/api/admin/emails"],
      ["GET", `/api/admin/emails/${id}`],
      ["POST", `/api/admin/emails/${id}/retry`],
      ["POST", `/api/admin/emails/${id}/cancel`],
      ["PUT", `/api/admin/emails/${id}/read`],
      ["DELETE", `/api/admin/emails/${id}`],
      ["POST", "/api/admin/send-email"],
      ["POST", "/api/admin/email-settings/test"],
    ] as const) {
      expect((await fetch(`${p.mailer!.url}${path}`, { method })).status, `${method} ${path}`).toBe(401);
    }
  });

  it("lists newest first, marks read, deletes; unknown ids 404 and malformed ids 400", async () => {
    const list = await inbox();
    expect(list.length).toBeGreaterThan(1);
    const sorted = [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    expect(list.map((m) => m.id)).toEqual(sorted.map((m) => m.id));
    const target = list[0]!;
    const read = await api(`/api/admin/emails/${target.id}/read`, { method: "PUT" });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: target.id, isRead: true });
    expect((await api(`/api/admin/emails/${target.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`/api/admin/emails/${target.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/admin/emails/nope/read`, { method: "PUT" })).status).toBe(400);
  });
});
