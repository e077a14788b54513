import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import {
  EVENT_WEBHOOK_BODY_LIMIT_BYTES,
  EVENT_WEBHOOK_MAX_EVENTS,
  type EmailMessageList,
  type EmailSettings,
  type SendEmailResponse,
} from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import {
  adminCookie,
  createTestDatabase,
  eventWebhookKeys,
  signEventBatch,
  startSendgridReceiver,
  testEnv,
  waitFor,
  type SendgridReceiver,
  type TestDatabase,
} from "@lease/platform/testing";
import { startMailer } from "./service";
import { startSettingsFixture } from "./testing";

// SendGrid's Event Webhook tells what became of each e-mail the panel sent. Batches are signed here
// with an ECDSA P-256 key pair made by the test, whose public key is set as the verification key in
// E-mail Instellingen, exactly as SendGrid signs them (timestamp + body).

let db: TestDatabase;
let receiver: SendgridReceiver;
let settings: Awaited<ReturnType<typeof startSettingsFixture>>;
let mailer: RunningService;
let cookie: string;
let sql: pg.Client;
const keys = eventWebhookKeys();

beforeAll(async () => {
  db = await createTestDatabase("events");
  receiver = await startSendgridReceiver();
  const base = testEnv({ DATABASE_URL: db.url });
  settings = await startSettingsFixture(base.INTERNAL_TOKEN!);
  const env = {
    ...base,
    SETTINGS_URL: settings.url,
    LEADS_URL: "http://127.0.0.1:9",
    SENDGRID_API_BASE_URL: receiver.url,
  };
  mailer = await startMailer(env);
  cookie = await adminCookie(env);
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await mailer?.stop();
  await settings?.close();
  await receiver?.close();
  await db?.drop();
});

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${mailer.url}${path}`, {
    ...init,
    headers: { "content-type": "application/json", cookie, ...init.headers },
  });
const postEvents = (body: Buffer | string, headers: Record<string, string>) =>
  fetch(`${mailer.url}/api/sendgrid/events`, { method: "POST", headers, body });
const deliveryEvents = async () =>
  Number((await sql.query("SELECT count(*) FROM mailer.delivery_events")).rows[0].count);

/** An e-mail sent from the panel, with what SendGrid's send answered (its X-Message-Id). */
async function sent(to: string): Promise<{ entryId: string; outgoingId: string; messageId: string }> {
  const res = await admin("/api/admin/send-email", {
    method: "POST",
    body: JSON.stringify({ to, subject: "Uw offerte", message: "Beste klant, hierbij de offerte." }),
  });
  const { id } = (await res.json()) as SendEmailResponse;
  const mail = await waitFor(() => receiver.accepted().find((m) => m.to[0] === to), 10_000, "sent");
  const row = await waitFor(
    async () =>
      (
        await sql.query(
          "SELECT id, provider_message_id FROM mailer.outgoing_emails WHERE id = $1 AND status = 'sent'",
          [mail.customArgs.outgoing_email_id],
        )
      ).rows[0],
    5000,
    "marked sent",
  );
  return { entryId: id, outgoingId: row.id, messageId: row.provider_message_id };
}

const event = (over: Record<string, unknown>) => ({
  email: "klant@bedrijf.nl",
  timestamp: Math.floor(Date.now() / 1000),
  "smtp-id": "<14c5d75ce93.dfd.64b469@ismtpd-555>",
  sg_event_id: `ev-${Math.random().toString(36).slice(2)}`,
  ...over,
});

const sentMail = async (entryId: string) =>
  ((await (await admin("/api/admin/emails?folder=sent")).json()) as EmailMessageList).find(
    (e) => e.id === entryId,
  )!;

describe("the Event Webhook's verification key", () => {
  it("is refused when it is no P-256 public key, and set (audited, never shown back) when it is", async () => {
    const bad = await admin("/api/admin/email-settings/event-webhook", {
      method: "PUT",
      body: JSON.stringify({ verificationKey: Buffer.from("geen sleutel ".repeat(10)).toString("base64") }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain("geen geldige verificatiesleutel");
    const res = await admin("/api/admin/email-settings/event-webhook", {
      method: "PUT",
      body: JSON.stringify({ verificationKey: keys.verificationKey }),
    });
    expect(res.status).toBe(200);
    const state = (await res.json()) as EmailSettings;
    expect(state.eventWebhookKeySet).toBe(true);
    expect(JSON.stringify(state)).not.toContain(keys.verificationKey.slice(30, 60));
    const audit = await sql.query(
      "SELECT 1 FROM mailer.outbox WHERE payload->>'action' = 'settings.event_webhook_key_set'",
    );
    expect(audit.rowCount).toBe(1);
  });
});

describe("a batch of SendGrid's events", () => {
  it("marks the e-mail Afgeleverd, matched by SendGrid's message id, then Geopend", async () => {
    const { entryId, messageId } = await sent("afgeleverd@bedrijf.nl");
    const batch = signEventBatch(
      [
        event({ event: "processed", sg_message_id: `${messageId}.filterdrecv-1` }),
        event({ event: "delivered", sg_message_id: `${messageId}.filterdrecv-1`, response: "250 OK" }),
      ],
      keys.privateKey,
    );
    const res = await postEvents(batch.body, batch.headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: 2, matched: 2 });
    expect((await sentMail(entryId)).delivery).toMatchObject({ state: "delivered", openedAt: null });
    const open = signEventBatch([event({ event: "open", sg_message_id: `${messageId}.x` })], keys.privateKey);
    expect((await postEvents(open.body, open.headers)).status).toBe(200);
    expect((await sentMail(entryId)).delivery).toMatchObject({
      state: "delivered",
      openedAt: expect.any(String),
    });
    const state = (await (await admin("/api/admin/email-settings")).json()) as EmailSettings;
    expect(state.eventWebhookLastReceivedAt).not.toBeNull();
  });

  it("marks a bounce Onbestelbaar with the receiving server's reason, matched by our custom_args, and no later deferral undoes it", async () => {
    const { entryId, outgoingId } = await sent("bestaat-niet@bedrijf.nl");
    const reason = "550 5.1.1 The email account that you tried to reach does not exist.";
    const now = Math.floor(Date.now() / 1000);
    const batch = signEventBatch(
      [
        event({ event: "bounce", type: "bounce", outgoing_email_id: outgoingId, reason, timestamp: now }),
        event({
          event: "deferred",
          outgoing_email_id: outgoingId,
          response: "451 later",
          timestamp: now - 60,
        }),
      ],
      keys.privateKey,
    );
    expect((await postEvents(batch.body, batch.headers)).status).toBe(200);
    expect((await sentMail(entryId)).delivery).toMatchObject({ state: "bounced", reason });
  });

  it("refuses unsigned, wrongly signed, stale and replayed batches, and changes nothing", async () => {
    const { entryId, messageId } = await sent("geweigerd@bedrijf.nl");
    const events = [event({ event: "bounce", sg_message_id: `${messageId}.f`, reason: "550 nee" })];
    const before = await deliveryEvents();

    const good = signEventBatch(events, keys.privateKey);
    const unsigned = await postEvents(good.body, { "content-type": "application/json" });
    expect(unsigned.status).toBe(401);

    const other = eventWebhookKeys();
    const forged = signEventBatch(events, other.privateKey);
    expect((await postEvents(forged.body, forged.headers)).status).toBe(403);

    // The signature covers the exact bytes: one byte changed and it no longer holds.
    const tampered = Buffer.from(good.body.toString().replace("550 nee", "550 nix"));
    expect((await postEvents(tampered, good.headers)).status).toBe(403);

    const stale = signEventBatch(events, keys.privateKey, Math.floor(Date.now() / 1000) - 600);
    const staleRes = await postEvents(stale.body, stale.headers);
    expect(staleRes.status).toBe(403);
    expect(((await staleRes.json()) as { code: string }).code).toBe("stale");
    expect(await deliveryEvents()).toBe(before);
    expect((await sentMail(entryId)).delivery?.state ?? null).toBeNull();

    expect((await postEvents(good.body, good.headers)).status).toBe(200);
    const after = await deliveryEvents();
    const replay = await postEvents(good.body, good.headers);
    expect(replay.status).toBe(403);
    expect(((await replay.json()) as { code: string }).code).toBe("replayed");
    expect(await deliveryEvents()).toBe(after);
  });

  it("stores an event once when SendGrid sends it again in a new batch, and ignores e-mails not ours", async () => {
    const { messageId } = await sent("eenmaal@bedrijf.nl");
    const once = event({ event: "delivered", sg_message_id: `${messageId}.f` });
    const first = signEventBatch([once], keys.privateKey);
    expect((await postEvents(first.body, first.headers)).status).toBe(200);
    const count = await deliveryEvents();
    const again = signEventBatch(
      [once, event({ event: "delivered", sg_message_id: "onbekend.filter" })],
      keys.privateKey,
      Math.floor(Date.now() / 1000) + 1,
    );
    const res = await postEvents(again.body, again.headers);
    expect(await res.json()).toEqual({ received: 2, matched: 1 });
    expect(await deliveryEvents()).toBe(count);
  });

  it("answers a signed body that is no array of events with a 400", async () => {
    const body = Buffer.from('{"event":"delivered"}');
    const timestamp = Math.floor(Date.now() / 1000);
    const { headers } = signEventBatch([], keys.privateKey, timestamp);
    const { createSign } = await import("node:crypto");
    const signer = createSign("sha256");
    signer.update(Buffer.concat([Buffer.from(String(timestamp)), body]));
    headers["x-twilio-email-event-webhook-signature"] = signer.sign(keys.privateKey).toString("base64");
    const res = await postEvents(body, headers);
    expect(res.status).toBe(400);
  });

  it(`refuses a batch of more than ${EVENT_WEBHOOK_MAX_EVENTS} events (400) and a body over 2 MB (413); an event with an impossible date is left out`, async () => {
    const before = await deliveryEvents();
    const many = Array.from({ length: EVENT_WEBHOOK_MAX_EVENTS + 1 }, (_, i) => ({
      event: "delivered",
      sg_event_id: `many-${i}`,
      timestamp: 1,
    }));
    const tooMany = signEventBatch(many, keys.privateKey);
    expect((await postEvents(tooMany.body, tooMany.headers)).status).toBe(400);
    const big = signEventBatch(
      [event({ event: "delivered", reason: "x".repeat(EVENT_WEBHOOK_BODY_LIMIT_BYTES) })],
      keys.privateKey,
    );
    expect((await postEvents(big.body, big.headers)).status).toBe(413);
    const { outgoingId } = await sent("verre-toekomst@bedrijf.nl");
    const future = signEventBatch(
      [event({ event: "delivered", outgoing_email_id: outgoingId, timestamp: 1e15 })],
      keys.privateKey,
    );
    const res = await postEvents(future.body, future.headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: 0, matched: 0 });
    expect(await deliveryEvents()).toBe(before);
  });
});
