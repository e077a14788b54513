import sgClientPkg from "@sendgrid/client";
import sgMailPkg from "@sendgrid/mail";
import { SpanKind, inSpan } from "@lease/platform";

/** A provider answer we should not retry (4xx other than 429) or may retry (429, 5xx, network). */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "TransportError";
  }
}

export interface OutgoingMessage {
  to: string;
  from: { email: string; name?: string };
  subject: string;
  text: string;
  html: string;
  /** Sent along as custom_args so the provider's logs and events can be matched to our row. */
  outgoingEmailId: string;
  /** A lead's e-mail: where replies go (`local+token@domain`) and the headers that name the lead. */
  replyTo?: string | null;
  headers?: Record<string, string>;
}

export interface MailTransport {
  send(apiKey: string, message: OutgoingMessage): Promise<{ messageId: string | null }>;
}

const hasLineBreak = (s: string) => /[\r\n]/.test(s);

/** SendGrid v3 through @sendgrid/mail, with the API base URL configurable (tests use a local receiver). */
export function sendgridTransport(baseUrl: string, timeoutMs = 10_000): MailTransport {
  const { Client } = sgClientPkg as unknown as { Client: new () => SendgridClient };
  const { MailService } = sgMailPkg as unknown as { MailService: new () => SendgridMail };
  const services = new Map<string, SendgridMail>();
  const attributes = { "server.address": new URL(baseUrl).host };
  const serviceFor = (apiKey: string) => {
    let svc = services.get(apiKey);
    if (!svc) {
      const client = new Client();
      client.setApiKey(apiKey);
      // setApiKey resets the base URL to the region host, so this comes after it.
      client.setDefaultRequest("baseUrl", baseUrl);
      client.setDefaultRequest("timeout", timeoutMs);
      svc = new MailService();
      svc.setClient(client);
      services.clear(); // one key in use at a time; a changed key replaces the old client
      services.set(apiKey, svc);
    }
    return svc;
  };
  return {
    async send(apiKey, m) {
      const headerValues = [m.to, m.from.email, m.subject, m.from.name ?? "", m.replyTo ?? ""];
      if ([...headerValues, ...Object.values(m.headers ?? {})].some(hasLineBreak)) {
        throw new TransportError("line break in a header field", true);
      }
      try {
        const [res] = await inSpan("POST /v3/mail/send", { kind: SpanKind.CLIENT, attributes }, () =>
          serviceFor(apiKey).send({
            to: m.to,
            from: m.from,
            subject: m.subject,
            text: m.text,
            html: m.html,
            customArgs: { outgoing_email_id: m.outgoingEmailId },
            ...(m.replyTo ? { replyTo: m.replyTo } : {}),
            ...(m.headers && Object.keys(m.headers).length > 0 ? { headers: m.headers } : {}),
          }),
        );
        const id = res.headers["x-message-id"];
        return { messageId: typeof id === "string" ? id : null };
      } catch (err) {
        const status =
          (err as { code?: number; response?: { statusCode?: number } }).response?.statusCode ??
          (err as { code?: unknown }).code;
        if (typeof status === "number") {
          const permanent = status >= 400 && status < 500 && status !== 429 && status !== 408;
          const detail = providerMessage(err);
          throw new TransportError(`provider answered ${status}${detail ? `: ${detail}` : ""}`, permanent);
        }
        throw new TransportError(`provider unreachable: ${(err as Error).message}`, false);
      }
    },
  };
}

/** SendGrid's own explanation (`errors[].message` of its JSON answer), short and on one line. */
function providerMessage(err: unknown): string {
  const body = (err as { response?: { body?: unknown } }).response?.body;
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return "";
  return errors
    .map((e) =>
      typeof (e as { message?: unknown })?.message === "string" ? (e as { message: string }).message : "",
    )
    .filter(Boolean)
    .join("; ")
    .replace(/\s+/g, " ")
    .replace(/[^\p{L}\p{N}\p{P}\p{S} ]/gu, "")
    .slice(0, 200);
}

interface SendgridClient {
  setApiKey(key: string): void;
  setDefaultRequest(key: string, value: unknown): void;
}
interface SendgridMail {
  setClient(client: SendgridClient): void;
  send(
    data: Record<string, unknown>,
  ): Promise<[{ statusCode: number; headers: Record<string, unknown> }, unknown]>;
}
