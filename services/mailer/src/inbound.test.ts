import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { EmailDetail, EmailMessageList, EmailSettings, InboundUrl } from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import {
  adminCookie,
  createTestDatabase,
  inboundParseForm,
  inboundParseRawForm,
  startTcpProxy,
  testEnv,
  type TestDatabase,
  type WebhookPost,
} from "@lease/platform/testing";
import { startMailer } from "./service";
import { startSettingsFixture } from "./testing";

// SendGrid's Inbound Parse posts each received message to the secret URL made in E-mail
// Instellingen. These posts are built byte for byte as SendGrid documents them (the kit's
// inboundParseForm / inboundParseRawForm), and sent to the real route of a real mailer on a real
// database, which it reaches through a TCP proxy the test can cut.

const ATTACHMENTS_MAX = 64 * 1024;

let db: TestDatabase;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let settings: Awaited<ReturnType<typeof startSettingsFixture>>;
let mailer: RunningService;
let cookie: string;
let sql: pg.Client;
let url: InboundUrl;

beforeAll(async () => {
  db = await createTestDatabase("inbound");
  const dbUrl = new URL(db.url);
  proxy = await startTcpProxy(dbUrl.hostname, Number(dbUrl.port || 5432));
  dbUrl.host = `127.0.0.1:${proxy.port}`;
  const base = testEnv({ DATABASE_URL: dbUrl.toString() });
  settings = await startSettingsFixture(base.INTERNAL_TOKEN!);
  const env = {
    ...base,
    SETTINGS_URL: settings.url,
    LEADS_URL: "http://127.0.0.1:9",
    PUBLIC_ORIGIN: "https://lease.example.nl",
    MAIL_ATTACHMENTS_MAX_BYTES: String(ATTACHMENTS_MAX),
    INBOUND_MAX_BYTES: String(1024 * 1024),
    INBOUND_RATE_LIMIT: "40",
  };
  mailer = await startMailer(env);
  cookie = await adminCookie(env);
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  url = await rotate();
});
afterAll(async () => {
  await sql?.end();
  await mailer?.stop();
  await settings?.close();
  await proxy?.close();
  await db?.drop();
});

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${mailer.url}${path}`, {
    ...init,
    headers: { "content-type": "application/json", cookie, ...init.headers },
  });

async function rotate(): Promise<InboundUrl> {
  const res = await admin("/api/admin/email-settings/inbound-url", { method: "POST", body: "{}" });
  expect(res.status).toBe(200);
  return (await res.json()) as InboundUrl;
}

const post = (path: string, { body, contentType }: WebhookPost) =>
  fetch(`${mailer.url}${path}`, { method: "POST", headers: { "content-type": contentType }, body });

const inbox = async (folder = "inbox") =>
  (await (await admin(`/api/admin/emails?folder=${folder}`)).json()) as EmailMessageList;
const count = async (table: string) =>
  Number((await sql.query(`SELECT count(*) FROM mailer.${table}`)).rows[0].count);

const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from([0, 1, 2, 250, 251, 252, 253])]);

describe("the Inbound Parse URL", () => {
  it("is made in E-mail Instellingen, shown once, and only its existence is reported after", async () => {
    expect(url.url).toBe(`https://lease.example.nl${url.path}`);
    expect(url.path).toMatch(/^\/api\/inbound\/sendgrid\/[A-Za-z0-9_-]{43}$/);
    const state = (await (await admin("/api/admin/email-settings")).json()) as EmailSettings;
    expect(state).toMatchObject({ inboundUrlSet: true, eventWebhookKeySet: false, replyAddress: null });
    expect(JSON.stringify(state)).not.toContain(url.path.split("/").pop());
    const stored = await sql.query("SELECT inbound_secret_hash FROM mailer.webhook_settings");
    expect(stored.rows[0].inbound_secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0].inbound_secret_hash).not.toContain(url.path.split("/").pop());
  });

  it("is needed: a post without it or with a wrong one is a 404 and stores nothing", async () => {
    const form = inboundParseForm({ from: "jan@klant.nl", to: "antwoord@reply.example.nl", subject: "Hoi" });
    for (const path of ["/api/inbound/sendgrid/abc", `/api/inbound/sendgrid/${"A".repeat(43)}`]) {
      const res = await post(path, form);
      expect(res.status, path).toBe(404);
    }
    expect(await count("inbound_emails")).toBe(0);
  });

  it("stops working at once when a new one is made, which is audited", async () => {
    const old = url;
    url = await rotate();
    const form = inboundParseForm({ from: "jan@klant.nl", to: "antwoord@reply.example.nl", subject: "Oud" });
    expect((await post(old.path, form)).status).toBe(404);
    const audit = await sql.query(
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
    const bytes = await sql.query("SELECT content FROM mailer.inbound_attachments");
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
    const rows = await sql.query(
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
    const row = await sql.query(
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
    expect((await fetch(`${mailer.url}${path}`)).status).toBe(401);
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
    const left = await sql.query(
      "SELECT 1 FROM mailer.inbound_emails WHERE message_id = 'gone@mail.klant.nl'",
    );
    expect(left.rowCount).toBe(0);
    expect(await count("inbound_attachments")).toBe(attachments - 1);
  });

  it("is refused with a clear 4xx when it can never be stored", async () => {
    const noForm = await fetch(`${mailer.url}${url.path}`, {
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
    proxy.cut();
    try {
      const res = await post(url.path, form);
      expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      proxy.restore();
    }
    const retried = await post(url.path, form);
    expect(retried.status).toBe(200);
    expect(((await retried.json()) as { status: string }).status).toBe("stored");
    const rows = await sql.query(
      "SELECT count(*) FROM mailer.inbound_emails WHERE message_id = 'outage@mail.klant.nl'",
    );
    expect(Number(rows.rows[0].count)).toBe(1);
  });

  it("is rate limited per address: past the limit 429 with Retry-After, so SendGrid comes back later", async () => {
    const form = inboundParseForm({ from: "jan@klant.nl", to: "antwoord@reply.example.nl", subject: "x" });
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await post("/api/inbound/sendgrid/wrong", form)).status);
    expect(statuses).toContain(429);
    const limited = await post(url.path, form);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
