import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import iconv from "iconv-lite";
import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";
import { convert as htmlToText } from "html-to-text";
import { HttpError } from "@lease/platform";

// What SendGrid's Inbound Parse posts (multipart/form-data): either the parsed fields (`headers`,
// `from`, `to`, `cc`, `subject`, `text`, `html`, `envelope`, `charsets`, `attachments`,
// `attachment-info`, `attachment1…`, `spam_score`, `SPF`, `dkim`) or, with "POST the raw, full
// MIME message" on, the whole message in `email`. Each text field is in the charset `charsets`
// names, so fields are read as bytes and decoded with iconv-lite; MIME is left to mailparser.

export interface InboundAttachment {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export interface ParsedInbound {
  /** The Message-ID without its angle brackets, or a hash of the message when it has none. */
  messageId: string;
  fromAddress: string;
  fromName: string;
  to: string;
  cc: string;
  /** Every address it was sent to (envelope and headers), lower case: where a reply token is found. */
  recipients: string[];
  subject: string;
  text: string;
  html: string | null;
  inReplyTo: string | null;
  references: string[];
  date: Date | null;
  spamScore: number | null;
  spf: string | null;
  dkim: string | null;
  attachments: InboundAttachment[];
}

const MAX_PARTS = 200;
/** Attachments of one message, in either variant (a message with more is refused: 400). */
export const MAX_FILES = 100;
/**
 * The header block at most (Postfix's default header_size_limit is 100 KB, so a real message stays
 * far below; the parsed variant's `headers` field beyond it is refused: 400).
 */
export const MAX_HEADER_BYTES = 1024 * 1024;
/** What one message keeps of its parts (a longer one is cut, saying so): the inbox lists and shows them. */
export const MAX_SUBJECT_CHARS = 998;
const MAX_NAME_CHARS = 200;
const MAX_ADDRESS_CHARS = 320;
const MAX_ADDRESS_LIST_CHARS = 4000;
export const MAX_TEXT_CHARS = 1_000_000;
export const MAX_HTML_CHARS = 2_000_000;
export const CUT_NOTE = "\n\n[… ingekort: het bericht was langer dan hier wordt bewaard]";
const cut = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

const tooLarge = (limit: number) =>
  new HttpError(
    413,
    "payload_too_large",
    `Het bericht is te groot (maximaal ${Math.round(limit / 1024 / 1024)} MB, de grens van SendGrid)`,
  );
const unreadable = (detail: string) =>
  new HttpError(400, "invalid_message", `Het bericht kon niet worden gelezen: ${detail}`);

interface RawForm {
  fields: Map<string, Buffer>;
  files: { field: string; fileName: string; contentType: string; content: Buffer }[];
}

/**
 * Reads the form from the request as bytes: at most `maxBytes` in all (413 past it, without
 * reading on), at most 200 parts. Fields are kept as their bytes (busboy's latin1 is lossless),
 * since their charset is only known from the `charsets` field.
 */
export function readInboundForm(req: IncomingMessage, maxBytes: number): Promise<RawForm> {
  const contentType = String(req.headers["content-type"] ?? "");
  if (!/^multipart\/form-data\s*;/i.test(contentType))
    return Promise.reject(
      new HttpError(
        415,
        "unsupported_media_type",
        "Stuur het bericht als multipart/form-data, zoals SendGrid Inbound Parse het post",
      ),
    );
  return new Promise((resolve, reject) => {
    const form: RawForm = { fields: new Map(), files: [] };
    let settled = false;
    let received = 0;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe();
      req.resume();
      reject(err);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defCharset: "latin1",
        defParamCharset: "utf8",
        limits: { fieldSize: maxBytes, fileSize: maxBytes, files: MAX_FILES, parts: MAX_PARTS },
      });
    } catch (err) {
      return fail(unreadable((err as Error).message));
    }
    req.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) fail(tooLarge(maxBytes));
    });
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(tooLarge(maxBytes));
      form.fields.set(name, Buffer.from(value, "latin1"));
    });
    parser.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("limit", () => fail(tooLarge(maxBytes)));
      stream.on("end", () =>
        form.files.push({
          field,
          fileName: info.filename ?? "",
          contentType: info.mimeType,
          content: Buffer.concat(chunks),
        }),
      );
    });
    parser.on("partsLimit", () => fail(unreadable(`meer dan ${MAX_PARTS} delen`)));
    parser.on("filesLimit", () => fail(unreadable(`meer dan ${MAX_FILES} bijlagen`)));
    parser.on("error", (err: Error) => fail(unreadable(err.message)));
    parser.on("close", () => {
      if (settled) return;
      settled = true;
      resolve(form);
    });
    req.on("error", (err) => fail(unreadable(err.message)));
    req.pipe(parser);
  });
}

/** PostgreSQL cannot store NUL in text: it becomes the replacement character. */
const clean = (value: string) => value.replaceAll("\0", "\uFFFD");

const charsetsOf = (form: RawForm): Record<string, string> => {
  const raw = form.fields.get("charsets");
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw.toString("utf8"));
    return parsed && typeof parsed === "object" ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
};

/** A field decoded in the charset `charsets` names for it (UTF-8 when it names none we know). */
function decodedField(form: RawForm, charsets: Record<string, string>, name: string): string | undefined {
  const bytes = form.fields.get(name);
  if (bytes === undefined) return undefined;
  const charset = typeof charsets[name] === "string" ? charsets[name] : "utf-8";
  return clean(iconv.encodingExists(charset) ? iconv.decode(bytes, charset) : bytes.toString("utf8"));
}

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value);
const addressText = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : []).map((a) => a.text).join(", ");

const bare = (id: string | undefined | null) => (id ?? "").trim().replace(/^<|>$/g, "").trim();
const referencesOf = (mail: ParsedMail) =>
  (Array.isArray(mail.references) ? mail.references : mail.references ? [mail.references] : [])
    .map(bare)
    .filter(Boolean)
    .slice(0, 100);

/** A file name shown and offered for download: no path, no control characters, not empty. */
function safeFileName(name: string, position: number): string {
  const base = clean(name)
    .split(/[\\/]/)
    .pop()!
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .trim()
    .slice(0, 200);
  return base || `bijlage-${position + 1}`;
}
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const safeContentType = (type: string | undefined) =>
  type && MIME_TYPE.test(type.trim()) ? type.trim().toLowerCase() : "application/octet-stream";

function envelopeOf(form: RawForm): { to: string[]; from: string | null } {
  const raw = form.fields.get("envelope");
  try {
    const parsed = JSON.parse(raw?.toString("utf8") ?? "{}") as { to?: unknown; from?: unknown };
    const to = Array.isArray(parsed.to) ? parsed.to.filter((t): t is string => typeof t === "string") : [];
    return { to, from: typeof parsed.from === "string" ? parsed.from : null };
  } catch {
    return { to: [], from: null };
  }
}

const SIMPLE_PARSER = { skipTextToHtml: true, keepCidLinks: true } as const;

/**
 * The message of an Inbound Parse form, raw or parsed. A form without a sender is no message and
 * can never be stored (400); everything else is kept as it came, decoded.
 */
export async function parseInbound(form: RawForm): Promise<ParsedInbound> {
  const charsets = charsetsOf(form);
  const envelope = envelopeOf(form);
  const field = (name: string) => decodedField(form, charsets, name);
  const raw = form.fields.get("email");
  let mail: ParsedMail;
  let subject: string;
  let text: string | undefined;
  let html: string | null;
  let attachments: InboundAttachment[];
  try {
    if (raw) {
      mail = await simpleParser(raw, SIMPLE_PARSER);
      subject = mail.subject ?? "";
      text = mail.text;
      html = mail.html || null;
      if (mail.attachments.length > MAX_FILES) throw unreadable(`meer dan ${MAX_FILES} bijlagen`);
      attachments = mail.attachments.map((a, i) => ({
        fileName: safeFileName(a.filename ?? "", i),
        contentType: safeContentType(a.contentType),
        content: a.content,
      }));
    } else {
      // The headers field holds the message's header block as it came: mailparser reads it alone.
      const headers = form.fields.get("headers") ?? Buffer.alloc(0);
      if (headers.length > MAX_HEADER_BYTES)
        throw unreadable(`de kopregels zijn langer dan ${MAX_HEADER_BYTES / 1024} KB`);
      const fromField = field("from");
      const block = Buffer.concat([
        headers,
        !/^from:/im.test(headers.toString("latin1")) && fromField
          ? Buffer.from(`\r\nFrom: ${fromField}`, "utf8")
          : Buffer.alloc(0),
        Buffer.from("\r\n\r\n"),
      ]);
      mail = await simpleParser(block, SIMPLE_PARSER);
      subject = field("subject") ?? mail.subject ?? "";
      text = field("text");
      html = field("html") ?? null;
      const info = attachmentInfo(form);
      attachments = form.files.map((f, i) => ({
        fileName: safeFileName(info[f.field]?.filename ?? f.fileName, i),
        contentType: safeContentType(info[f.field]?.type ?? f.contentType),
        content: f.content,
      }));
    }
  } catch (err) {
    throw unreadable((err as Error).message);
  }
  const from = addresses(mail.from)[0] ?? (envelope.from ? { address: envelope.from, name: "" } : undefined);
  if (!from?.address) throw unreadable("geen afzender (From)");
  const recipients = [
    ...envelope.to,
    ...addresses(mail.to).map((a) => a.address ?? ""),
    ...addresses(mail.cc).map((a) => a.address ?? ""),
  ]
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
  if (html !== null && html.length > MAX_HTML_CHARS) html = html.slice(0, MAX_HTML_CHARS);
  if (!text && html) text = htmlToText(html, { wordwrap: false });
  if (text && text.length > MAX_TEXT_CHARS) text = text.slice(0, MAX_TEXT_CHARS) + CUT_NOTE;
  const parsed: Omit<ParsedInbound, "messageId"> = {
    fromAddress: cut(clean(from.address).trim(), MAX_ADDRESS_CHARS),
    fromName: cut(clean(from.name ?? "").trim(), MAX_NAME_CHARS),
    to: cut(clean(addressText(mail.to) || field("to") || ""), MAX_ADDRESS_LIST_CHARS),
    cc: cut(clean(addressText(mail.cc) || field("cc") || ""), MAX_ADDRESS_LIST_CHARS),
    recipients: [...new Set(recipients)].slice(0, 100),
    subject: cut(
      clean(subject)
        .replace(/[\r\n]+/g, " ")
        .trim(),
      MAX_SUBJECT_CHARS,
    ),
    text: clean(text ?? ""),
    html: html === null ? null : clean(html),
    inReplyTo: bare(mail.inReplyTo) || null,
    references: referencesOf(mail),
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    spamScore: spamScoreOf(field("spam_score")),
    spf: field("SPF")?.trim().slice(0, 200) || null,
    dkim: field("dkim")?.trim().slice(0, 500) || null,
    attachments,
  };
  return { ...parsed, messageId: messageIdOf(bare(mail.messageId), parsed) };
}

function attachmentInfo(form: RawForm): Record<string, { filename?: string; type?: string }> {
  try {
    const parsed: unknown = JSON.parse(form.fields.get("attachment-info")?.toString("utf8") ?? "{}");
    return parsed && typeof parsed === "object" ? (parsed as Record<string, { filename?: string }>) : {};
  } catch {
    return {};
  }
}

function spamScoreOf(value: string | undefined): number | null {
  const score = Number.parseFloat(value ?? "");
  return Number.isFinite(score) ? score : null;
}

/**
 * The Message-ID (a redelivery of the same message has the same one); without one, or with one
 * too long to be an id, a hash of what makes the message this message.
 */
function messageIdOf(id: string, m: Omit<ParsedInbound, "messageId">): string {
  if (id && id.length <= 500) return clean(id);
  const hash = createHash("sha256");
  for (const part of [id, m.fromAddress, m.to, m.subject, m.date?.toISOString() ?? "", m.text, m.html ?? ""])
    hash.update(part).update("\0");
  return `sha256:${hash.digest("hex")}`;
}
