// SendGrid's two ways in (inbound.ts): Inbound Parse, a customer's reply posted to the secret URL
// made in E-mail Instellingen, within its bounds; and the Event Webhook, signed batches of what
// became of each e-mail, with its verification key. Each part has a mailer of its own.
import { beforeAll, describe, expect, it } from "vitest";
import {
  type EmailDetail,
  type EmailMessageList,
  type EmailSettings,
  type InboundUrl,
  EVENT_WEBHOOK_BODY_LIMIT_BYTES,
  EVENT_WEBHOOK_MAX_EVENTS,
  type SendEmailResponse,
} from "@lease/contracts";
import {
  inboundParseForm,
  inboundParseRawForm,
  type WebhookPost,
  type InboundParseSpec,
  eventWebhookKeys,
  signEventBatch,
  waitFor,
} from "@lease/platform/testing";
import { useMailerHarness } from "../testing";
import {
  CUT_NOTE,
  MAX_FILES,
  MAX_HTML_CHARS,
  MAX_SUBJECT_CHARS,
  MAX_TEXT_CHARS,
} from "../domain/inbound-parse";

// SendGrid's Inbound Parse posts each received message to the secret URL made in E-mail
// Instellingen. These posts are built byte for byte as SendGrid documents them (the kit's
// inboundParseForm / inboundParseRawForm), and sent to the real route of a real mailer on a real
// database, which it reaches through a TCP proxy the test can cut.

const ATTACHMENTS_MAX = 64 * 1024;

const h = useMailerHarness({
  label: "inbound",
  cuttableDatabase: true,
  env: {
    PUBLIC_ORIGIN: "https://lease.example.nl",
    MAIL_ATTACHMENTS_MAX_BYTES: String(ATTACHMENTS_MAX),
    INBOUND_MAX_BYTES: String(1024 * 1024),
    INBOUND_RATE_LIMIT: "40",
  },
});
const admin = h.admin;
let url: InboundUrl;
beforeAll(async () => {
  url = await rotate();
});

async function rotate(): Promise<InboundUrl> {
  const res = await admin("/api/admin/email-settings/inbound-url", { method: "POST", body: "{}" });
  expect(res.status).toBe(200);
  return (await res.json()) as InboundUrl;
}

const post = (path: string, { body, contentType }: WebhookPost) =>
  fetch(`${h.mailer.url}${path}`, { method: "POST", headers: { "content-type": contentType }, body });

const inbox = async (folder = "inbox") =>
  (await (await admin(`/api/admin/emails?folder=${folder}`)).json()) as EmailMessageList;
const count = async (table: string) =>
  Number((await h.sql.query(`SELECT count(*) FROM mailer.${table}`)).rows[0].count);

const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from([0, 1, 2, 250, 251, 252, 253])]);

describe("POST /api/admin/email-settings/inbound-url · PUT /api/admin/email-settings/inbound · POST /api/inbound/sendgrid/{secret}", () => {
  describe("the Inbound Parse URL", () => {
    it("is made in E-mail Instellingen, shown once, and only its existence is reported after", async () => {
      expect(url.url).toBe(`https://lease.example.nl${url.path}`);
      expect(url.path).toMatch(/^\/api\/inbound\/sendgrid\/[A-Za-z0-9_-]{43}$/);
      const state = (await (await admin("/api/admin/email-settings")).json()) as EmailSettings;
      expect(state).toMatchObject({ inboundUrlSet: true, eventWebhookKeySet: false, replyAddress: null });
      expect(JSON.stringify(state)).not.toContain(url.path.split("/").pop());
      const stored = await h.sql.query("SELECT inbound_secret_hash FROM mailer.webhook_settings");
      expect(stored.rows[0].inbound_secret_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.rows[0].inbound_secret_hash).not.toContain(url.path.split("/").pop());
    });

    it("is needed: a post without it or with a wrong one is a 404 and stores nothing", async () => {
      const form = inboundParseForm({
        from: "jan@klant.nl",
        to: "antwoord@reply.example.nl",
        subject: "Hoi",
      });
      for (const path of ["/api/inbound/sendgrid/abc", `/api/inbound/sendgrid/${"A".repeat(43)}`]) {
        const res = await post(path, form);
        expect(res.status, path).toBe(404);
      }
      expect(await count("inbound_emails")).toBe(0);
    });

    it("stops working at once when a new one is made, which is audited", async () => {
      const old = url;
      url = await rotate();
      const form = inboundParseForm({
        from: "jan@klant.nl",
        to: "antwoord@reply.example.nl",
        subject: "Oud",
      });
      expect((await post(old.path, form)).status).toBe(404);
      const audit = await h.sql.query(
        "SELECT payload->>'action' AS action FROM mailer.outbox WHERE job_name = 'audit.record'",
      );
      expect(audit.rows.filter((r) => r.action === "settings.inbound_url_rotated")).toHaveLength(2);
      expect(await count("inbound_emails")).toBe(0);
    });

    it("takes the reply address, refusing one with a + (the token goes there)", async () => {
      const bad = await admin("/api/admin/email-settings/inbound", {
        method: "PUT",
        body: JSON.stringify({ replyAddress: "antwoord+x@reply.example.nl" }),
      });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(await bad.json())).toContain("zonder +");
      const res = await admin("/api/admin/email-settings/inbound", {
        method: "PUT",
        body: JSON.stringify({ replyAddress: "Antwoord@Reply.Example.nl" }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as EmailSettings).replyAddress).toBe("antwoord@reply.example.nl");
    });
  });
});

describe("POST /api/inbound/sendgrid/{secret}", () => {
  describe("a message posted by Inbound Parse", () => {
    it("is stored with its fields decoded in the charsets it names (ISO-8859-1) and its attachment, unread in the inbox", async () => {
      const res = await post(
        url.path,
        inboundParseForm({
          from: "Jan Jansen <jan@klant.nl>",
          to: "antwoord@reply.example.nl",
          subject: "Vraag over de offerte: één café",
          text: "Goedemiddag,\n\nIs de Škoda ook leverbaar? Groet, Jürgen",
          html: "<p>Is de auto ook leverbaar? Groet, Jürgen</p>",
          charset: "ISO-8859-1",
          messageId: "reply-1@mail.klant.nl",
          attachments: [{ filename: "kvk-uittreksel.pdf", type: "application/pdf", content: PDF }],
        }),
      );
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { id: string; status: string };
      expect(answer.status).toBe("stored");
      const [entry] = await inbox();
      expect(entry).toMatchObject({
        id: answer.id,
        subject: "Vraag over de offerte: één café",
        senderName: "Jan Jansen",
        senderEmail: "jan@klant.nl",
        messageType: "other",
        isRead: false,
        deliveryStatus: "received",
        spamScore: 0.1,
      });
      // ISO-8859-1 has no Š: SendGrid's bytes say "?" there, as the sender's mailer wrote it.
      expect(entry!.messageBody).toBe("Goedemiddag,\n\nIs de ?koda ook leverbaar? Groet, Jürgen");
      expect(entry!.attachments).toEqual([
        expect.objectContaining({
          fileName: "kvk-uittreksel.pdf",
          contentType: "application/pdf",
          sizeBytes: PDF.length,
          kept: true,
        }),
      ]);
      const detail = (await (await admin(`/api/admin/emails/${answer.id}`)).json()) as EmailDetail;
      expect(detail.html).toBe("<p>Is de auto ook leverbaar? Groet, Jürgen</p>");
      const bytes = await h.sql.query("SELECT content FROM mailer.inbound_attachments");
      expect(Buffer.compare(bytes.rows[0].content, PDF)).toBe(0);
      const unread = await admin("/api/admin/emails");
      expect(unread.headers.get("x-unread-count")).toBe("1");
    });

    it("decodes windows-1252 too (the euro sign is 0x80 there)", async () => {
      const res = await post(
        url.path,
        inboundParseForm({
          from: "piet@klant.nl",
          to: "antwoord@reply.example.nl",
          subject: "Prijs € 450 per maand",
          text: "Kan het voor € 450?",
          charset: "windows-1252",
          messageId: "reply-1252@mail.klant.nl",
        }),
      );
      expect(res.status).toBe(200);
      const entry = (await inbox()).find((e) => e.senderEmail === "piet@klant.nl");
      expect(entry).toMatchObject({ subject: "Prijs € 450 per maand", messageBody: "Kan het voor € 450?" });
    });

    it("is stored once when SendGrid posts it again (same Message-ID)", async () => {
      const form = inboundParseForm({
        from: "jan@klant.nl",
        to: "antwoord@reply.example.nl",
        subject: "Nog een vraag",
        text: "Dubbel verstuurd?",
        messageId: "twice@mail.klant.nl",
      });
      const first = (await (await post(url.path, form)).json()) as { id: string; status: string };
      const again = await post(url.path, form);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ id: first.id, status: "duplicate" });
      const rows = await h.sql.query(
        "SELECT count(*) FROM mailer.inbound_emails WHERE message_id = 'twice@mail.klant.nl'",
      );
      expect(Number(rows.rows[0].count)).toBe(1);
    });

    it("is read from the raw variant (the whole MIME message in `email`), quoted-printable ISO-8859-1 and a base64 attachment", async () => {
      const res = await post(
        url.path,
        inboundParseRawForm({
          from: "Marie <marie@klant.nl>",
          to: "antwoord@reply.example.nl",
          subject: "Loonstrook",
          text: "Hierbij mijn loonstrook. Groetjes, Marié",
          charset: "ISO-8859-1",
          messageId: "raw-1@mail.klant.nl",
          inReplyTo: "lead-abc@reply.example.nl",
          references: ["lead-abc@reply.example.nl"],
          attachments: [{ filename: "loonstrook.pdf", type: "application/pdf", content: PDF }],
        }),
      );
      expect(res.status).toBe(200);
      const entry = (await inbox()).find((e) => e.senderEmail === "marie@klant.nl");
      expect(entry).toMatchObject({ subject: "Loonstrook", senderName: "Marie" });
      expect(entry!.messageBody.trim()).toBe("Hierbij mijn loonstrook. Groetjes, Marié");
      expect(entry!.attachments).toEqual([
        expect.objectContaining({ fileName: "loonstrook.pdf", sizeBytes: PDF.length, kept: true }),
      ]);
      const row = await h.sql.query(
        "SELECT in_reply_to, \"references\" FROM mailer.inbound_emails WHERE message_id = 'raw-1@mail.klant.nl'",
      );
      expect(row.rows[0]).toEqual({
        in_reply_to: "lead-abc@reply.example.nl",
        references: ["lead-abc@reply.example.nl"],
      });
    });

    it("keeps the message but not the bytes of an attachment beyond the attachments' total store, and lists it", async () => {
      const big = Buffer.alloc(ATTACHMENTS_MAX, 7);
      const res = await post(
        url.path,
        inboundParseForm({
          from: "groot@klant.nl",
          to: "antwoord@reply.example.nl",
          subject: "Grote bijlage",
          text: "Zie bijlage",
          messageId: "big@mail.klant.nl",
          attachments: [{ filename: "scan.tiff", type: "image/tiff", content: big }],
        }),
      );
      expect(res.status).toBe(200);
      const entry = (await inbox()).find((e) => e.senderEmail === "groot@klant.nl");
      expect(entry!.attachments).toEqual([
        expect.objectContaining({ fileName: "scan.tiff", sizeBytes: big.length, kept: false }),
      ]);
    });

    it("has its attachments downloaded only by a signed-in admin, as an attachment of a type the browser does not run", async () => {
      const entry = (await inbox()).find((e) => e.subject.startsWith("Vraag over de offerte"))!;
      const [attachment] = entry.attachments;
      const path = `/api/admin/emails/${entry.id}/attachments/${attachment!.id}`;
      expect((await fetch(`${h.mailer.url}${path}`)).status).toBe(401);
      const res = await admin(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/octet-stream");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="kvk-uittreksel.pdf"; filename*=UTF-8''kvk-uittreksel.pdf`,
      );
      expect(res.headers.get("x-content-type-options") ?? "nosniff").toBe("nosniff");
      expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), PDF)).toBe(0);
      const other = (await inbox()).find((e) => e.senderEmail === "marie@klant.nl")!;
      expect((await admin(`/api/admin/emails/${other.id}/attachments/${attachment!.id}`)).status).toBe(404);
      const big = (await inbox()).find((e) => e.senderEmail === "groot@klant.nl")!;
      const notKept = await admin(`/api/admin/emails/${big.id}/attachments/${big.attachments[0]!.id}`);
      expect(notKept.status).toBe(410);
      expect(((await notKept.json()) as { message: string }).message).toContain("niet bewaard");
    });

    it("with a high spam score goes to the Spam folder, not the inbox", async () => {
      await post(
        url.path,
        inboundParseForm({
          from: "spam@verkoop.example",
          to: "antwoord@reply.example.nl",
          subject: "Goedkope leningen",
          text: "Klik hier",
          spamScore: 9.3,
          messageId: "spam-1@verkoop.example",
        }),
      );
      expect((await inbox()).some((e) => e.senderEmail === "spam@verkoop.example")).toBe(false);
      expect((await inbox("spam")).map((e) => e.senderEmail)).toEqual(["spam@verkoop.example"]);
    });

    it("goes with its attachments when its inbox entry is deleted", async () => {
      await post(
        url.path,
        inboundParseForm({
          from: "weg@klant.nl",
          to: "antwoord@reply.example.nl",
          subject: "Weg ermee",
          messageId: "gone@mail.klant.nl",
          attachments: [{ filename: "a.pdf", type: "application/pdf", content: PDF }],
        }),
      );
      const entry = (await inbox()).find((e) => e.senderEmail === "weg@klant.nl")!;
      const attachments = await count("inbound_attachments");
      expect((await admin(`/api/admin/emails/${entry.id}`, { method: "DELETE" })).status).toBe(204);
      const left = await h.sql.query(
        "SELECT 1 FROM mailer.inbound_emails WHERE message_id = 'gone@mail.klant.nl'",
      );
      expect(left.rowCount).toBe(0);
      expect(await count("inbound_attachments")).toBe(attachments - 1);
    });

    it("is refused with a clear 4xx when it can never be stored", async () => {
      const noForm = await fetch(`${h.mailer.url}${url.path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(noForm.status).toBe(415);
      const noSender = inboundParseForm({ from: "", to: "antwoord@reply.example.nl", subject: "?" });
      const res = await post(url.path, noSender);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain("geen afzender");
      const huge = inboundParseForm({
        from: "jan@klant.nl",
        to: "antwoord@reply.example.nl",
        subject: "Te groot",
        attachments: [{ filename: "film.mp4", type: "video/mp4", content: Buffer.alloc(1024 * 1024 + 1) }],
      });
      const tooBig = await post(url.path, huge);
      expect(tooBig.status).toBe(413);
      expect(((await tooBig.json()) as { message: string }).message).toContain("te groot");
      expect(await count("inbound_emails")).toBe(6);
    });

    it("answers 5xx while PostgreSQL is away, and is stored once SendGrid posts it again", async () => {
      const form = inboundParseForm({
        from: "later@klant.nl",
        to: "antwoord@reply.example.nl",
        subject: "Tijdens de storing",
        text: "Komt dit aan?",
        messageId: "outage@mail.klant.nl",
      });
      h.proxy.cut();
      try {
        const res = await post(url.path, form);
        expect(res.status).toBeGreaterThanOrEqual(500);
      } finally {
        h.proxy.restore();
      }
      const retried = await post(url.path, form);
      expect(retried.status).toBe(200);
      expect(((await retried.json()) as { status: string }).status).toBe("stored");
      const rows = await h.sql.query(
        "SELECT count(*) FROM mailer.inbound_emails WHERE message_id = 'outage@mail.klant.nl'",
      );
      expect(Number(rows.rows[0].count)).toBe(1);
    });

    it("is rate limited per address: past the limit 429 with Retry-After, so SendGrid comes back later", async () => {
      const form = inboundParseForm({ from: "jan@klant.nl", to: "antwoord@reply.example.nl", subject: "x" });
      // The limit is 40 a window, counted from the first post of this file's tests: posts go on until
      // one is refused, as a window may end (or Redis answer late) in the middle and begin the count again.
      const statuses: number[] = [];
      while (statuses.length < 200 && !statuses.includes(429))
        statuses.push((await post("/api/inbound/sendgrid/wrong", form)).status);
      expect(statuses).toContain(429);
      expect(statuses.filter((status) => status !== 404 && status !== 429)).toEqual([]);
      const limited = await post(url.path, form);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  });
});

describe("POST /api/inbound/sendgrid/{secret}", () => {
  // Every part of an Inbound Parse post is bounded ("what do 100,000 of these do?"): the number of
  // attachments in either variant, the header block, and what one message keeps of its subject,
  // addresses and bodies (the inbox lists and shows them). Posted as SendGrid posts them.

  const h = useMailerHarness({
    label: "inbound_bounds",
    env: { INBOUND_MAX_BYTES: String(16 * 1024 * 1024) },
  });
  let url: InboundUrl;
  beforeAll(async () => {
    const res = await h.admin("/api/admin/email-settings/inbound-url", { method: "POST", body: "{}" });
    url = (await res.json()) as InboundUrl;
  });

  const post = ({ body, contentType }: WebhookPost) =>
    fetch(`${h.mailer.url}${url.path}`, { method: "POST", headers: { "content-type": contentType }, body });
  const stored = async () =>
    Number((await h.sql.query("SELECT count(*) FROM mailer.inbound_emails")).rows[0].count);
  const base: InboundParseSpec = { from: "jan@klant.nl", to: "antwoord@reply.example.nl", subject: "Grens" };
  const files = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      filename: `b${i}.txt`,
      type: "text/plain",
      content: Buffer.from("x"),
    }));

  describe("an Inbound Parse post's bounds", () => {
    it(`takes ${MAX_FILES} attachments and refuses more with a 400, in the parsed and the raw variant`, async () => {
      const fits = await post(
        inboundParseForm({ ...base, messageId: "files-fit@klant.nl", attachments: files(MAX_FILES) }),
      );
      expect(fits.status).toBe(200);
      for (const form of [inboundParseForm, inboundParseRawForm]) {
        const res = await post(
          form({ ...base, messageId: `files-${form.name}@klant.nl`, attachments: files(MAX_FILES + 1) }),
        );
        expect(res.status, form.name).toBe(400);
        expect(((await res.json()) as { message: string }).message).toContain(
          `meer dan ${MAX_FILES} bijlagen`,
        );
      }
      expect(await stored()).toBe(1);
      const kept = await h.sql.query("SELECT count(*)::int AS n FROM mailer.inbound_attachments");
      expect(kept.rows[0].n).toBe(MAX_FILES);
    });

    it("refuses a header block over 1 MB with a 400 (no mail server passes one)", async () => {
      const references = Array.from({ length: 20_000 }, (_, i) => `${"r".repeat(50)}.${i}@mail.klant.nl`);
      const res = await post(inboundParseForm({ ...base, messageId: "long-headers@klant.nl", references }));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain("kopregels");
      expect(await stored()).toBe(1);
    });

    it("keeps a message with an endless subject, address list and bodies, cut to what the inbox can show", async () => {
      const to = Array.from({ length: 5000 }, (_, i) => `ontvanger${i}@klant.nl`).join(", ");
      const res = await post(
        inboundParseForm({
          ...base,
          to,
          envelopeTo: ["antwoord@reply.example.nl"],
          subject: "Heel lang ".repeat(1000),
          text: "t".repeat(MAX_TEXT_CHARS + 10_000),
          html: `<p>${"h".repeat(MAX_HTML_CHARS + 10_000)}</p>`,
          messageId: "long-parts@klant.nl",
        }),
      );
      expect(res.status).toBe(200);
      const { rows } = await h.sql.query(
        `SELECT length(m.subject) AS subject, length(m.recipient_email) AS "to", m.message_body AS text,
                length(i.html_body) AS html, length(i.to_addresses) AS to_kept
           FROM mailer.inbound_emails i JOIN mailer.email_messages m ON m.source = 'inbound' AND m.source_id = i.id
          WHERE i.message_id = 'long-parts@klant.nl'`,
      );
      const row = rows[0];
      expect(row.subject).toBe(MAX_SUBJECT_CHARS);
      expect(row.to).toBeLessThanOrEqual(4000);
      expect(row.to_kept).toBeLessThanOrEqual(4000);
      expect(row.html).toBe(MAX_HTML_CHARS);
      expect(row.text.length).toBe(MAX_TEXT_CHARS + CUT_NOTE.length);
      expect(row.text.endsWith(CUT_NOTE)).toBe(true);
    });
  });
});

describe("PUT /api/admin/email-settings/event-webhook · POST /api/sendgrid/events", () => {
  // SendGrid's Event Webhook tells what became of each e-mail the panel sent. Batches are signed here
  // with an ECDSA P-256 key pair made by the test, whose public key is set as the verification key in
  // E-mail Instellingen, exactly as SendGrid signs them (timestamp + body).

  const h = useMailerHarness({ label: "events", sendgrid: true });
  const keys = eventWebhookKeys();
  const admin = h.admin;
  const postEvents = (body: Buffer | string, headers: Record<string, string>) =>
    fetch(`${h.mailer.url}/api/sendgrid/events`, { method: "POST", headers, body });
  const deliveryEvents = async () =>
    Number((await h.sql.query("SELECT count(*) FROM mailer.delivery_events")).rows[0].count);

  /** An e-mail sent from the panel, with what SendGrid's send answered (its X-Message-Id). */
  async function sent(to: string): Promise<{ entryId: string; outgoingId: string; messageId: string }> {
    const res = await admin("/api/admin/send-email", {
      method: "POST",
      body: JSON.stringify({ to, subject: "Uw offerte", message: "Beste klant, hierbij de offerte." }),
    });
    const { id } = (await res.json()) as SendEmailResponse;
    const mail = await waitFor(() => h.receiver.accepted().find((m) => m.to[0] === to), 10_000, "sent");
    const row = await waitFor(
      async () =>
        (
          await h.sql.query(
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
      expect(((await bad.json()) as { message: string }).message).toContain(
        "geen geldige verificatiesleutel",
      );
      const res = await admin("/api/admin/email-settings/event-webhook", {
        method: "PUT",
        body: JSON.stringify({ verificationKey: keys.verificationKey }),
      });
      expect(res.status).toBe(200);
      const state = (await res.json()) as EmailSettings;
      expect(state.eventWebhookKeySet).toBe(true);
      expect(JSON.stringify(state)).not.toContain(keys.verificationKey.slice(30, 60));
      const audit = await h.sql.query(
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
      const open = signEventBatch(
        [event({ event: "open", sg_message_id: `${messageId}.x` })],
        keys.privateKey,
      );
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
});
