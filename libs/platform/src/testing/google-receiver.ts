import { createPublicKey, randomBytes, randomUUID, verify, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in for Google's two endpoints the conversions service calls: the OAuth 2.0 token
// endpoint (POST /token: the JWT bearer grant of a service account, its RS256 signature checked
// with the account's public key, or the refresh token grant of an OAuth client) and the Data
// Manager API's event ingestion (POST /v1/events:ingest, the bearer token one it issued), which
// checks the documented request: destinations (a Google Ads account and a conversion action),
// HEX encoding, each event's transactionId, RFC 3339 eventTimestamp, eventSource, at most one click
// id, hashed user identifiers, consent values, and a value only with a currency.
// developers.google.com/identity/protocols/oauth2/service-account,
// developers.google.com/data-manager/api/reference/rest/v1/events/ingest

export const GOOGLE_TEST_SCOPE = "https://www.googleapis.com/auth/datamanager";

/** One event of an accepted ingest request, with the request's destination and flags. */
export interface ReceivedGoogleEvent {
  event: Record<string, unknown>;
  destination: { accountId: string; conversionActionId: string };
  encoding: unknown;
  validateOnly: boolean;
  token: string;
  status: number;
}

export interface GoogleReceiver {
  /** GOOGLE_CONVERSIONS_API_BASE_URL */
  url: string;
  /** GOOGLE_OAUTH_TOKEN_URL */
  tokenUrl: string;
  received: ReceivedGoogleEvent[];
  /** Ingest events answered 200 and not validate-only: what Google would count. */
  accepted(): ReceivedGoogleEvent[];
  /** Token grants handed out, by grant type. */
  grants: string[];
  /** Requests refused (token or ingest), with the reason. */
  rejected: { path: string; status: number; reason: string }[];
  /** Script the next ingest answers (e.g. 503 then 200). */
  answer(...statuses: number[]): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export interface GoogleReceiverOptions {
  serviceAccount?: { clientEmail: string; publicKeyPem: string };
  oauthClient?: { clientId: string; clientSecret: string; refreshToken: string };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const HEX_SHA256 = /^[0-9a-f]{64}$/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;
const CONSENT = ["CONSENT_GRANTED", "CONSENT_DENIED", "CONSENT_STATUS_UNSPECIFIED"];
const SOURCES = ["WEB", "APP", "IN_STORE", "PHONE", "OTHER"];
const CLICK_ID = /^[A-Za-z0-9_-]{1,500}$/;

function checkEvent(e: unknown): string | null {
  if (!isObj(e)) return "event is not an object";
  if (typeof e.transactionId !== "string" || !e.transactionId || e.transactionId.length > 256)
    return "transactionId is required";
  if (typeof e.eventTimestamp !== "string" || !RFC3339.test(e.eventTimestamp))
    return "eventTimestamp must be RFC 3339";
  const at = Date.parse(e.eventTimestamp);
  if (!(at <= Date.now() + 60_000) || at < Date.now() - 90 * 86_400_000)
    return "eventTimestamp must lie within the last 90 days";
  if (e.eventSource !== undefined && !SOURCES.includes(String(e.eventSource))) return "eventSource unknown";
  let identified = false;
  if (e.adIdentifiers !== undefined) {
    const ids = e.adIdentifiers;
    if (!isObj(ids)) return "adIdentifiers is not an object";
    const clicks = ["gclid", "gbraid", "wbraid"].filter((k) => ids[k] !== undefined);
    if (Object.keys(ids).some((k) => !["gclid", "gbraid", "wbraid"].includes(k)))
      return "adIdentifiers holds an unknown field";
    if (clicks.length !== 1) return "adIdentifiers takes one of gclid, gbraid and wbraid";
    if (!CLICK_ID.test(String(ids[clicks[0]!]))) return "the click id is malformed";
    identified = true;
  }
  if (e.userData !== undefined) {
    const ud = e.userData;
    if (!isObj(ud) || !Array.isArray(ud.userIdentifiers) || ud.userIdentifiers.length === 0)
      return "userData.userIdentifiers required";
    if (ud.userIdentifiers.length > 10) return "at most 10 user identifiers";
    for (const id of ud.userIdentifiers) {
      if (!isObj(id) || Object.keys(id).length !== 1) return "a user identifier holds exactly one field";
      const [key, value] = Object.entries(id)[0]!;
      if (key !== "emailAddress" && key !== "phoneNumber") return `user identifier ${key} not expected`;
      if (typeof value !== "string" || !HEX_SHA256.test(value))
        return `${key} must be a hex-encoded SHA-256 hash`;
    }
    identified = true;
  }
  if (!identified) return "an event needs adIdentifiers or userData";
  if (e.consent !== undefined) {
    const c = e.consent;
    if (!isObj(c)) return "consent is not an object";
    for (const k of ["adUserData", "adPersonalization"])
      if (c[k] !== undefined && !CONSENT.includes(String(c[k])))
        return `consent.${k} must be a ConsentStatus`;
  }
  if (e.conversionValue !== undefined) {
    if (typeof e.conversionValue !== "number" || e.conversionValue < 0) return "conversionValue is a number";
    if (typeof e.currency !== "string" || !/^[A-Z]{3}$/.test(e.currency))
      return "currency (ISO 4217) is required with a value";
  }
  return null;
}

/** Verifies a service account's RS256 JWT; answers its claims, or why it is refused. */
function verifyAssertion(jwt: string, key: KeyObject): Obj | string {
  const parts = jwt.split(".");
  if (parts.length !== 3) return "the assertion is not a JWT";
  let header: unknown, claims: unknown;
  try {
    header = JSON.parse(Buffer.from(parts[0]!, "base64url").toString("utf8"));
    claims = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8"));
  } catch {
    return "the JWT's parts are not JSON";
  }
  if (!isObj(header) || header.alg !== "RS256") return "the JWT must be signed RS256";
  const signed = verify(
    "RSA-SHA256",
    Buffer.from(`${parts[0]}.${parts[1]}`),
    key,
    Buffer.from(parts[2]!, "base64url"),
  );
  if (!signed) return "Invalid JWT Signature.";
  return isObj(claims) ? claims : "the JWT's claims are not an object";
}

export async function startGoogleReceiver(opts: GoogleReceiverOptions): Promise<GoogleReceiver> {
  const publicKey = opts.serviceAccount ? createPublicKey(opts.serviceAccount.publicKeyPem) : undefined;
  const script: number[] = [];
  const received: ReceivedGoogleEvent[] = [];
  const grants: string[] = [];
  const rejected: { path: string; status: number; reason: string }[] = [];
  const tokens = new Map<string, number>();
  let base = "";

  function token(form: URLSearchParams): { status: number; body: Obj } {
    const grant = form.get("grant_type");
    const bad = (status: number, error: string, description: string) => ({
      status,
      body: { error, error_description: description },
    });
    if (grant === "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      if (!publicKey || !opts.serviceAccount) return bad(400, "invalid_grant", "no service account here");
      const claims = verifyAssertion(form.get("assertion") ?? "", publicKey);
      if (typeof claims === "string") return bad(400, "invalid_grant", claims);
      const now = Math.floor(Date.now() / 1000);
      if (claims.iss !== opts.serviceAccount.clientEmail) return bad(400, "invalid_grant", "Invalid issuer");
      if (claims.aud !== `${base}/token`) return bad(400, "invalid_grant", "Invalid audience");
      if (claims.scope !== GOOGLE_TEST_SCOPE) return bad(400, "invalid_scope", "Invalid scope");
      const iat = Number(claims.iat);
      const exp = Number(claims.exp);
      if (!(Math.abs(iat - now) < 300) || !(exp > now) || exp - iat > 3600)
        return bad(400, "invalid_grant", "Invalid JWT: iat/exp");
    } else if (grant === "refresh_token") {
      const c = opts.oauthClient;
      if (!c || form.get("client_id") !== c.clientId || form.get("client_secret") !== c.clientSecret)
        return bad(401, "invalid_client", "The OAuth client was not found.");
      if (form.get("refresh_token") !== c.refreshToken) return bad(400, "invalid_grant", "Bad Request");
    } else return bad(400, "unsupported_grant_type", `grant_type ${grant}`);
    const issued = `ya29.${randomBytes(24).toString("base64url")}`;
    tokens.set(issued, Date.now() + 3600_000);
    grants.push(grant);
    return { status: 200, body: { access_token: issued, expires_in: 3599, token_type: "Bearer" } };
  }

  function ingest(headers: http.IncomingHttpHeaders, body: unknown): { status: number; body: Obj } {
    const err = (status: number, message: string, code: string) => ({
      status,
      body: { error: { code: status, message, status: code } },
    });
    const auth = /^Bearer (\S+)$/.exec(String(headers.authorization ?? ""));
    const expires = auth ? tokens.get(auth[1]!) : undefined;
    if (!auth || !expires || expires < Date.now())
      return err(401, "Request had invalid authentication credentials.", "UNAUTHENTICATED");
    if (!String(headers["content-type"] ?? "").startsWith("application/json"))
      return err(400, "content-type must be application/json", "INVALID_ARGUMENT");
    if (!isObj(body)) return err(400, "body is not a JSON object", "INVALID_ARGUMENT");
    const dests = body.destinations;
    if (!Array.isArray(dests) || dests.length !== 1)
      return err(400, "one destination expected", "INVALID_ARGUMENT");
    const d = dests[0] as Obj;
    const acct = isObj(d) ? d.operatingAccount : undefined;
    if (!isObj(acct) || acct.accountType !== "GOOGLE_ADS" || !/^\d{10}$/.test(String(acct.accountId)))
      return err(400, "destinations[0].operatingAccount must be a Google Ads account id", "INVALID_ARGUMENT");
    if (!/^\d{1,20}$/.test(String(d.productDestinationId)))
      return err(400, "productDestinationId must be the conversion action's numeric id", "INVALID_ARGUMENT");
    const events = body.events;
    if (!Array.isArray(events) || events.length === 0 || events.length > 2000)
      return err(400, "events: 1 to 2000", "INVALID_ARGUMENT");
    for (const e of events) {
      const why = checkEvent(e);
      if (why) return err(400, why, "INVALID_ARGUMENT");
      if ((e as Obj).userData !== undefined && body.encoding !== "HEX" && body.encoding !== "BASE64")
        return err(400, "encoding is required for user data", "INVALID_ARGUMENT");
    }
    if (body.validateOnly !== undefined && typeof body.validateOnly !== "boolean")
      return err(400, "validateOnly is a boolean", "INVALID_ARGUMENT");
    const validateOnly = body.validateOnly === true;
    const status = validateOnly ? 200 : (script.shift() ?? 200);
    for (const event of events as Obj[])
      received.push({
        event,
        destination: {
          accountId: String(acct.accountId),
          conversionActionId: String(d.productDestinationId),
        },
        encoding: body.encoding,
        validateOnly,
        token: auth[1]!,
        status,
      });
    if (status !== 200)
      return err(status, `scripted ${status}`, status === 429 ? "RESOURCE_EXHAUSTED" : "UNAVAILABLE");
    return { status: 200, body: validateOnly ? {} : { requestId: randomUUID() } };
  }

  const handler: http.RequestListener = (req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://google").pathname;
      let answer: { status: number; body: Obj };
      if (req.method !== "POST") answer = { status: 405, body: { error: "method" } };
      else if (path === "/token") answer = token(new URLSearchParams(raw));
      else if (path === "/v1/events:ingest") {
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          body = undefined;
        }
        answer = ingest(req.headers, body);
      } else answer = { status: 404, body: { error: { code: 404, message: `no such path ${path}` } } };
      if (answer.status >= 400 && answer.status !== 429 && answer.status < 500)
        rejected.push({ path, status: answer.status, reason: JSON.stringify(answer.body) });
      if (res.destroyed) return;
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  };
  let server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: base,
    tokenUrl: `${base}/token`,
    received,
    accepted: () => received.filter((r) => r.status === 200 && !r.validateOnly),
    grants,
    rejected,
    answer: (...statuses) => void script.push(...statuses),
    down: close,
    up: async () => {
      server = http.createServer(handler);
      await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
    },
    close: () => (server.listening ? close() : Promise.resolve()),
  };
}
