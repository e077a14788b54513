// The panel's mail routes (admin.ts): the test e-mail of E-mail Instellingen.
import { describe, expect, it } from "vitest";
import type { EmailMessageList } from "@lease/contracts";
import { CONFIGURED, useMailerHarness } from "../testing";

// The e-mail settings' test button goes from the gateway straight to the mailer, which reads the
// settings itself (here: the settings stand-in) and waits for the provider (the local receiver).

const h = useMailerHarness({
  label: "mailtest",
  sendgrid: true,
  // Every request reads the settings afresh, so each test sees what it set.
  env: { MAIL_SETTINGS_CACHE_MS: "0" },
});

const sendTest = (withCookie = true) =>
  fetch(`${h.mailer.url}/api/admin/email-settings/test`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(withCookie ? { cookie: h.cookie } : {}) },
  });

describe("POST /api/admin/email-settings/test", () => {
  it("answers 401 without a session", async () => {
    const res = await sendTest(false);
    expect(res.status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 409 with the Dutch message while the key or the sender is missing, and sends nothing", async () => {
    for (const missing of [
      { sendgridApiKey: null, fromEmailAddress: null },
      { sendgridApiKey: CONFIGURED.sendgridApiKey, fromEmailAddress: null },
      { sendgridApiKey: null, fromEmailAddress: "info@lease.nl" },
    ]) {
      h.settings.set({ ...CONFIGURED, ...missing });
      const res = await sendTest();
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        code: "conflict",
        message: "Ontbrekende gegevens - Vul eerst SendGrid API key en afzender e-mail in.",
      });
    }
    expect(h.receiver.received).toHaveLength(0);
    h.settings.set(CONFIGURED);
  });

  it("says the stored key cannot be read (the secret changed), for the test and for a follow-up, and sends nothing", async () => {
    const before = h.receiver.received.length;
    h.settings.set({ ...CONFIGURED, sendgridApiKey: null, sendgridApiKeyUnreadable: true });
    const res = await sendTest();
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: "mail_key_unreadable",
      message:
        "Kon geen test e-mail verzenden. De opgeslagen API key kan niet worden gelezen — voer hem opnieuw in bij E-mail Instellingen.",
    });
    const send = await fetch(`${h.mailer.url}/api/admin/send-email`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: h.cookie },
      body: JSON.stringify({
        to: "klant@example.nl",
        subject: "Follow-up",
        message: "Een bericht van tien tekens",
      }),
    });
    expect(send.status).toBe(409);
    expect(((await send.json()) as { code: string }).code).toBe("mail_key_unreadable");
    expect(h.receiver.received.length).toBe(before);
    h.settings.set(CONFIGURED);
  });

  it("sends a test e-mail to the sender address (no fake lead) and answers once the provider accepted it", async () => {
    const res = await sendTest();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: expect.any(String), status: "sent", to: "noreply@testlease.nl" });
    const sent = h.receiver.accepted().filter((m) => m.subject === "Test e-mail");
    expect(sent.map((m) => m.to)).toEqual([["noreply@testlease.nl"]]);
    expect(sent[0]?.apiKey).toBe(CONFIGURED.sendgridApiKey);
  });

  it("answers 502 with the provider's refusal in Dutch, and shows the e-mail failed in sent mail", async () => {
    h.receiver.answer(401);
    const res = await sendTest();
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      code: "test_email_failed",
      message:
        'Kon geen test e-mail verzenden. SendGrid weigerde de API key (401). Controleer de key bij E-mail Instellingen. SendGrid meldt: "scripted 401".',
    });
    const sentMail = (await (
      await fetch(`${h.mailer.url}/api/admin/emails?folder=sent`, { headers: { cookie: h.cookie } })
    ).json()) as EmailMessageList;
    expect(sentMail[0]).toMatchObject({ subject: "Test e-mail", deliveryStatus: "failed" });
  });

  it("names a network failure on the way to SendGrid as such", async () => {
    await h.receiver.close();
    const res = await sendTest();
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toBe(
      "Kon geen test e-mail verzenden. SendGrid was niet bereikbaar (netwerkfout). Controleer de internetverbinding van de server.",
    );
  });

  it("answers 503 with Retry-After while the settings cannot be read, never 500", async () => {
    await h.settings.close();
    const res = await sendTest();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBeTruthy();
    expect(((await res.json()) as { message: string }).message).toBe(
      "De e-mailinstellingen zijn tijdelijk niet bereikbaar. Probeer het zo opnieuw.",
    );
  });
});
