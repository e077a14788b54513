import http from "node:http";
import type { AddressInfo } from "node:net";

/** One accepted POST /v3/mail/send, as the receiver understood it. */
export interface ReceivedMail {
  apiKey: string;
  to: string[];
  from: string;
  fromName?: string;
  subject: string;
  text: string;
  html: string;
  customArgs: Record<string, string>;
  /** reply_to.email, when the mail had one. */
  replyTo?: string;
  /** The custom headers (`headers`), e.g. Message-ID and References. */
  headers: Record<string, string>;
  status: number;
}

// Headers SendGrid refuses in `headers` (its v3 mail/send reference): they have fields of their own.
const RESERVED_HEADERS = new Set([
  "x-sg-id",
  "x-sg-eid",
  "received",
  "dkim-signature",
  "content-type",
  "content-transfer-encoding",
  "to",
  "from",
  "subject",
  "reply-to",
  "cc",
  "bcc",
]);

export interface SendgridReceiver {
  /** Base URL for SENDGRID_API_BASE_URL. */
  url: string;
  /** Every request that passed the shape check, in order, with the status it was answered with. */
  received: ReceivedMail[];
  /** Requests refused for their shape or auth (400/401), with the reason. */
  rejected: { status: number; reason: string }[];
  /** Script the next answers (e.g. 500 then 202); when empty, 202. */
  answer(...statuses: number[]): void;
  /** Forget the answers scripted and not yet given (back to 202 for every request). */
  unscript(): void;
  /** Answer every request this many ms after it was received (to keep sends in flight). */
  delay(ms: number): void;
  /** Only the mails answered with 2xx (the ones SendGrid would deliver). */
  accepted(): ReceivedMail[];
  close(): Promise<void>;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Checks a v3 mail/send body; returns the problem or the parsed mail. */
function parse(body: unknown): string | Omit<ReceivedMail, "apiKey" | "status"> {
  if (!isObj(body)) return "body is not a JSON object";
  const { personalizations, from, subject, content } = body;
  if (!Array.isArray(personalizations) || personalizations.length === 0) return "personalizations missing";
  const to: string[] = [];
  for (const p of personalizations) {
    if (!isObj(p) || !Array.isArray(p.to) || p.to.length === 0) return "personalizations[].to missing";
    for (const t of p.to) {
      if (!isObj(t) || typeof t.email !== "string" || !t.email.includes("@")) return "to[].email invalid";
      to.push(t.email);
    }
  }
  if (!isObj(from) || typeof from.email !== "string" || !from.email.includes("@"))
    return "from.email invalid";
  const subj = typeof subject === "string" ? subject : (personalizations[0] as { subject?: unknown }).subject;
  if (typeof subj !== "string" || subj.length === 0 || /[\r\n]/.test(subj)) return "subject invalid";
  if (!Array.isArray(content)) return "content missing";
  const part = (type: string) =>
    (content as unknown[]).find((c): c is { type: string; value: string } => isObj(c) && c.type === type)
      ?.value;
  const text = part("text/plain");
  const html = part("text/html");
  if (typeof text !== "string" || typeof html !== "string") return "content needs text/plain and text/html";
  const customArgs = isObj(body.custom_args) ? (body.custom_args as Record<string, string>) : {};
  let replyTo: string | undefined;
  if (body.reply_to !== undefined) {
    const r = body.reply_to;
    if (!isObj(r) || typeof r.email !== "string" || !r.email.includes("@")) return "reply_to.email invalid";
    replyTo = r.email;
  }
  const headers: Record<string, string> = {};
  if (body.headers !== undefined) {
    if (!isObj(body.headers)) return "headers is not an object";
    for (const [name, value] of Object.entries(body.headers)) {
      if (typeof value !== "string" || /[\r\n]/.test(value)) return `header ${name} is not one line of text`;
      if (RESERVED_HEADERS.has(name.toLowerCase())) return `header ${name} is reserved`;
      headers[name] = value;
    }
  }
  return {
    replyTo,
    headers,
    to,
    from: from.email,
    fromName: typeof from.name === "string" ? from.name : undefined,
    subject: subj,
    text,
    html,
    customArgs,
  };
}

/** A local stand-in for SendGrid's v3 API (the only faked dependency in the tests). */
export async function startSendgridReceiver(): Promise<SendgridReceiver> {
  const script: number[] = [];
  const received: ReceivedMail[] = [];
  const rejected: { status: number; reason: string }[] = [];
  let delayMs = 0;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const reply = (status: number, body?: unknown) => {
        if (delayMs > 0) return void setTimeout(() => send(status, body), delayMs);
        send(status, body);
      };
      const send = (status: number, body?: unknown) => {
        if (res.destroyed) return;
        res.writeHead(status, {
          "content-type": "application/json",
          ...(status === 202 ? { "x-message-id": `msg-${received.length}` } : {}),
        });
        res.end(body === undefined ? "" : JSON.stringify(body));
      };
      if (req.method !== "POST" || req.url !== "/v3/mail/send") {
        rejected.push({ status: 404, reason: `${req.method} ${req.url}` });
        return reply(404, { errors: [{ message: "not found" }] });
      }
      const auth = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ""));
      if (!auth) {
        rejected.push({ status: 401, reason: "no bearer token" });
        return reply(401, { errors: [{ message: "authorization required" }] });
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const mail = parse(body);
      if (typeof mail === "string") {
        rejected.push({ status: 400, reason: mail });
        return reply(400, { errors: [{ message: mail }] });
      }
      const status = script.shift() ?? 202;
      received.push({ ...mail, apiKey: auth[1]!, status });
      reply(status, status === 202 ? undefined : { errors: [{ message: `scripted ${status}` }] });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    rejected,
    answer: (...statuses) => void script.push(...statuses),
    unscript: () => void script.splice(0),
    delay: (ms) => void (delayMs = ms),
    accepted: () => received.filter((m) => m.status >= 200 && m.status < 300),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
