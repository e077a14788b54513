import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { InboundUrl } from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import {
  adminCookie,
  createTestDatabase,
  inboundParseForm,
  inboundParseRawForm,
  testEnv,
  type InboundParseSpec,
  type TestDatabase,
  type WebhookPost,
} from "@lease/platform/testing";
import {
  CUT_NOTE,
  MAX_FILES,
  MAX_HTML_CHARS,
  MAX_SUBJECT_CHARS,
  MAX_TEXT_CHARS,
} from "./domain/inbound-parse";
import { startMailer } from "./service";
import { startSettingsFixture } from "./testing";

// Every part of an Inbound Parse post is bounded ("what do 100,000 of these do?"): the number of
// attachments in either variant, the header block, and what one message keeps of its subject,
// addresses and bodies (the inbox lists and shows them). Posted as SendGrid posts them.

let db: TestDatabase;
let settings: Awaited<ReturnType<typeof startSettingsFixture>>;
let mailer: RunningService;
let sql: pg.Client;
let url: InboundUrl;

beforeAll(async () => {
  db = await createTestDatabase("inbound_bounds");
  const base = testEnv({ DATABASE_URL: db.url });
  settings = await startSettingsFixture(base.INTERNAL_TOKEN!);
  const env = {
    ...base,
    SETTINGS_URL: settings.url,
    LEADS_URL: "http://127.0.0.1:9",
    INBOUND_MAX_BYTES: String(16 * 1024 * 1024),
  };
  mailer = await startMailer(env);
  const cookie = await adminCookie(env);
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  const res = await fetch(`${mailer.url}/api/admin/email-settings/inbound-url`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: "{}",
  });
  url = (await res.json()) as InboundUrl;
});
afterAll(async () => {
  await sql?.end();
  await mailer?.stop();
  await settings?.close();
  await db?.drop();
});

const post = ({ body, contentType }: WebhookPost) =>
  fetch(`${mailer.url}${url.path}`, { method: "POST", headers: { "content-type": contentType }, body });
const stored = async () =>
  Number((await sql.query("SELECT count(*) FROM mailer.inbound_emails")).rows[0].count);
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
      expect(((await res.json()) as { message: string }).message).toContain(`meer dan ${MAX_FILES} bijlagen`);
    }
    expect(await stored()).toBe(1);
    const kept = await sql.query("SELECT count(*)::int AS n FROM mailer.inbound_attachments");
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
    const { rows } = await sql.query(
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
