import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import iconv from "iconv-lite";

// What SendGrid's webhooks post, built byte for byte as its documentation shows them, for tests that
// post to the real routes: Inbound Parse's multipart/form-data (its boundary is "xYzZY"), parsed
// or raw (the whole MIME message in `email`), and the Event Webhook's signed JSON batches.

const BOUNDARY = "xYzZY";

export interface InboundAttachmentSpec {
  filename: string;
  type: string;
  content: Buffer;
}

export interface InboundParseSpec {
  from: string;
  to: string;
  subject: string;
  text?: string;
  html?: string;
  /** The charset of every text field, as `charsets` names it (SendGrid sends each in the message's own). */
  charset?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  cc?: string;
  /** envelope.to; defaults to `to`. */
  envelopeTo?: string[];
  spamScore?: number;
  attachments?: InboundAttachmentSpec[];
  date?: Date;
}

export interface WebhookPost {
  body: Buffer;
  contentType: string;
}

const part = (name: string, value: Buffer, extra = "") =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n`),
    value,
    Buffer.from("\r\n"),
  ]);
const form = (parts: Buffer[]): WebhookPost => ({
  body: Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]),
  contentType: `multipart/form-data; boundary=${BOUNDARY}`,
});
const bare = (address: string) => /<([^>]+)>/.exec(address)?.[1] ?? address;

function headerBlock(spec: InboundParseSpec, contentType: string): string {
  return [
    "Received: by mx0047p1mdw1.sendgrid.net with SMTP id 6WCVv7KAWn Wed, 10 Aug 2026 21:44:21 +0000 (UTC)",
    "MIME-Version: 1.0",
    `From: ${spec.from}`,
    `Date: ${(spec.date ?? new Date()).toUTCString()}`,
    ...(spec.messageId ? [`Message-ID: <${spec.messageId}>`] : []),
    ...(spec.inReplyTo ? [`In-Reply-To: <${spec.inReplyTo}>`] : []),
    ...(spec.references?.length ? [`References: ${spec.references.map((r) => `<${r}>`).join(" ")}`] : []),
    `Subject: ${spec.subject}`,
    `To: ${spec.to}`,
    ...(spec.cc ? [`Cc: ${spec.cc}`] : []),
    `Content-Type: ${contentType}`,
  ].join("\n");
}

/** Inbound Parse's default post: the message parsed into fields, each text in `charset`. */
export function inboundParseForm(spec: InboundParseSpec): WebhookPost {
  const charset = spec.charset ?? "UTF-8";
  const encode = (value: string) => iconv.encode(value, charset);
  const attachments = spec.attachments ?? [];
  const fields: [string, Buffer][] = [
    ["headers", Buffer.from(headerBlock(spec, 'multipart/alternative; boundary="001a113df448"'))],
    ["dkim", Buffer.from("{@example.nl : pass}")],
    ["to", encode(spec.to)],
    ...(spec.cc ? ([["cc", encode(spec.cc)]] as [string, Buffer][]) : []),
    ...(spec.html !== undefined ? ([["html", encode(spec.html)]] as [string, Buffer][]) : []),
    ["from", encode(spec.from)],
    ...(spec.text !== undefined ? ([["text", encode(spec.text)]] as [string, Buffer][]) : []),
    ["sender_ip", Buffer.from("209.85.223.194")],
    [
      "envelope",
      Buffer.from(JSON.stringify({ to: spec.envelopeTo ?? [bare(spec.to)], from: bare(spec.from) })),
    ],
    ["attachments", Buffer.from(String(attachments.length))],
    ["subject", encode(spec.subject)],
    ["spam_score", Buffer.from(String(spec.spamScore ?? 0.1))],
    [
      "attachment-info",
      Buffer.from(
        JSON.stringify(
          Object.fromEntries(
            attachments.map((a, i) => [
              `attachment${i + 1}`,
              { filename: a.filename, name: a.filename, type: a.type },
            ]),
          ),
        ),
      ),
    ],
    [
      "charsets",
      Buffer.from(
        JSON.stringify({
          to: "UTF-8",
          cc: "UTF-8",
          html: charset,
          subject: charset,
          from: "UTF-8",
          text: charset,
        }),
      ),
    ],
    ["SPF", Buffer.from("pass")],
  ];
  return form([
    ...fields.map(([name, value]) => part(name, value)),
    ...attachments.map((a, i) =>
      part(`attachment${i + 1}`, a.content, `; filename="${a.filename}"\r\nContent-Type: ${a.type}`),
    ),
  ]);
}

/** A whole MIME message (text part quoted-printable in `charset`, attachments base64), as the raw variant carries it. */
export function mimeMessage(spec: InboundParseSpec): string {
  const charset = spec.charset ?? "UTF-8";
  const mixed = "b1_mixed_0123";
  const qp = (value: string) =>
    [...iconv.encode(value, charset)]
      .map((byte) =>
        byte === 0x0a
          ? "\n"
          : byte >= 33 && byte <= 126 && byte !== 61
            ? String.fromCharCode(byte)
            : `=${byte.toString(16).toUpperCase().padStart(2, "0")}`,
      )
      .join("")
      .replace(/\n/g, "\r\n");
  const parts = [
    [
      `Content-Type: text/plain; charset=${charset}`,
      "Content-Transfer-Encoding: quoted-printable",
      "",
      qp(spec.text ?? ""),
    ].join("\r\n"),
    ...(spec.html !== undefined
      ? [
          [
            `Content-Type: text/html; charset=${charset}`,
            "Content-Transfer-Encoding: quoted-printable",
            "",
            qp(spec.html),
          ].join("\r\n"),
        ]
      : []),
    ...(spec.attachments ?? []).map((a) =>
      [
        `Content-Type: ${a.type}; name="${a.filename}"`,
        `Content-Disposition: attachment; filename="${a.filename}"`,
        "Content-Transfer-Encoding: base64",
        "",
        a.content.toString("base64").replace(/.{76}/g, "$&\r\n"),
      ].join("\r\n"),
    ),
  ];
  return [
    headerBlock(spec, `multipart/mixed; boundary="${mixed}"`).replace(/\n/g, "\r\n"),
    "",
    ...parts.map((p) => `--${mixed}\r\n${p}`),
    `--${mixed}--`,
    "",
  ].join("\r\n");
}

/** Inbound Parse's post with "POST the raw, full MIME message" on: the message in `email`. */
export function inboundParseRawForm(spec: InboundParseSpec): WebhookPost {
  return form([
    part("dkim", Buffer.from("{@example.nl : pass}")),
    part("email", Buffer.from(mimeMessage(spec), "latin1")),
    part("to", Buffer.from(spec.to)),
    part("from", Buffer.from(spec.from)),
    part("sender_ip", Buffer.from("209.85.223.194")),
    part(
      "envelope",
      Buffer.from(JSON.stringify({ to: spec.envelopeTo ?? [bare(spec.to)], from: bare(spec.from) })),
    ),
    part("subject", Buffer.from(spec.subject)),
    part("spam_score", Buffer.from(String(spec.spamScore ?? 0.1))),
    part("charsets", Buffer.from(JSON.stringify({ to: "UTF-8", subject: "UTF-8", from: "UTF-8" }))),
    part("SPF", Buffer.from("pass")),
  ]);
}

export interface SignedEventBatch {
  body: Buffer;
  headers: Record<string, string>;
}

/**
 * An Event Webhook batch as SendGrid posts it: the JSON array, signed with ECDSA P-256 / SHA-256
 * over the timestamp followed by the body (the signature base64 DER, in
 * X-Twilio-Email-Event-Webhook-Signature). The test makes the key pair; SendGrid's own is never here.
 */
export function signEventBatch(
  events: unknown[],
  privateKey: KeyObject,
  timestamp = Math.floor(Date.now() / 1000),
): SignedEventBatch {
  const body = Buffer.from(JSON.stringify(events));
  const signature = sign("sha256", Buffer.concat([Buffer.from(String(timestamp)), body]), privateKey);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-twilio-email-event-webhook-signature": signature.toString("base64"),
      "x-twilio-email-event-webhook-timestamp": String(timestamp),
    },
  };
}

/** A P-256 key pair; `verificationKey` is the public key as SendGrid shows it (base64 of its DER). */
export function eventWebhookKeys(): { privateKey: KeyObject; verificationKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  return {
    privateKey,
    verificationKey: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
  };
}
