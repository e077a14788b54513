import http from "node:http";
import net, { type AddressInfo } from "node:net";

// Local stand-ins for the ad platforms' conversion APIs (Meta Conversions API, TikTok Events API
// 2.0, Snapchat Conversions API v3), the only faked dependencies besides SendGrid: each checks the
// documented request (path, where the token goes, the event fields, hashed contact details) and
// answers scripted statuses; it can go down (connections refused) and come back on the same port.

export type AdPlatform = "meta" | "tiktok" | "snapchat";

/** One event of an accepted request, as sent, with its pixel id and token. */
export interface ReceivedConversion {
  platform: AdPlatform;
  pixelId: string;
  token: string;
  event: Record<string, unknown>;
  status: number;
  /** The request's test code (Meta's and TikTok's test_event_code; "validate" for Snapchat's /events/validate). */
  testEventCode?: string;
}

export interface AdPlatformReceiver {
  /** Base URL for META_API_BASE_URL, TIKTOK_API_BASE_URL or SNAPCHAT_API_BASE_URL. */
  url: string;
  received: ReceivedConversion[];
  /** Requests refused for their shape or token, with the reason. */
  rejected: { status: number; reason: string }[];
  /** Script the next answers (e.g. 500 then 200); when empty, the platform's success. */
  answer(...statuses: number[]): void;
  /** Only the events answered with success. */
  accepted(): ReceivedConversion[];
  /** Stop listening (connections refused), as a platform that is down. */
  down(): Promise<void>;
  /** Listen again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;
type Refused = { refused: true; status: number; reason: string };
type Taken = {
  refused?: false;
  pixelId: string;
  token: string;
  events: Obj[];
  ok: unknown;
  testEventCode?: string;
};
type Check = (
  path: string,
  query: URLSearchParams,
  headers: http.IncomingHttpHeaders,
  body: Obj,
) => Refused | Taken;
const refuse = (status: number, reason: string): Refused => ({ refused: true, status, reason });
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const SHA256 = /^[0-9a-f]{64}$/;
const hashes = (v: unknown) =>
  Array.isArray(v) && v.length > 0 && v.every((h) => typeof h === "string" && SHA256.test(h));
/** Unix seconds within the last 7 days (Meta's limit) and not in the future. */
const recentSeconds = (v: unknown) =>
  Number.isInteger(v) &&
  (v as number) <= Date.now() / 1000 + 60 &&
  (v as number) > Date.now() / 1000 - 7 * 86_400;
const money = (v: unknown) =>
  v === undefined ||
  (isObj(v) && typeof v.value === "number" && v.value >= 0 && /^[A-Z]{3}$/.test(String(v.currency)));
const httpUrl = (v: unknown) => typeof v === "string" && /^https?:\/\/[^\s?#]+$/.test(v);
const ipAddress = (v: unknown) => typeof v === "string" && net.isIP(v) !== 0;
/** A test code as the platforms' tools show it: letters and digits. */
const testCode = (v: unknown) => v === undefined || (typeof v === "string" && /^[A-Za-z0-9]{4,64}$/.test(v));

function checkEvents(data: unknown, check: (e: Obj) => string | null): string | Obj[] {
  if (!Array.isArray(data) || data.length === 0 || data.length > 1000)
    return "data must be a non-empty array";
  for (const e of data) {
    if (!isObj(e)) return "data[] must be objects";
    const problem = check(e);
    if (problem) return problem;
  }
  return data as Obj[];
}

/** Meta: POST /v{version}/{pixel}/events, { data: [...], access_token } (Conversions API). */
const meta: Check = (path, _q, _h, body) => {
  const m = /^\/v\d+\.\d+\/(\d{10,20})\/events$/.exec(path);
  if (!m) return refuse(404, `no such path ${path}`);
  if (typeof body.access_token !== "string" || !body.access_token) return refuse(401, "access_token missing");
  const events = checkEvents(body.data, (e) => {
    if (typeof e.event_name !== "string" || !e.event_name) return "event_name missing";
    if (!recentSeconds(e.event_time)) return "event_time must be Unix seconds of the last 7 days";
    if (typeof e.event_id !== "string" || !e.event_id) return "event_id missing";
    if (e.action_source !== "website") return 'action_source must be "website"';
    if (!httpUrl(e.event_source_url)) return "event_source_url required for website events";
    const u = e.user_data;
    if (!isObj(u)) return "user_data missing";
    if (!hashes(u.em)) return "user_data.em must be SHA-256 hashes";
    if (u.ph !== undefined && !hashes(u.ph)) return "user_data.ph must be SHA-256 hashes";
    if (u.fbc !== undefined && !/^fb\.1\.\d{13}\.[A-Za-z0-9._~-]+$/.test(String(u.fbc)))
      return "user_data.fbc must be fb.1.<ms>.<fbclid>";
    if (u.fbp !== undefined && !/^fb\.[0-2]\.\d{10,13}\.\d+$/.test(String(u.fbp)))
      return "user_data.fbp must be the _fbp cookie fb.<0-2>.<ms>.<random>";
    if (u.external_id !== undefined && !hashes(u.external_id))
      return "user_data.external_id must be SHA-256 hashes";
    if (u.country !== undefined && !hashes(u.country)) return "user_data.country must be SHA-256 hashes";
    if (u.client_ip_address !== undefined && !ipAddress(u.client_ip_address))
      return "user_data.client_ip_address must be an IP address";
    if (typeof u.client_user_agent !== "string")
      return "user_data.client_user_agent required for website events";
    if (!money(e.custom_data)) return "custom_data needs value and currency";
    return null;
  });
  if (typeof events === "string") return refuse(400, events);
  if (!testCode(body.test_event_code)) return refuse(400, "test_event_code must be the Test Events code");
  return {
    pixelId: m[1]!,
    token: body.access_token,
    events,
    ok: { events_received: events.length, messages: [], fbtrace_id: "AbCdEf" },
    testEventCode: body.test_event_code as string | undefined,
  };
};

/** TikTok: POST /open_api/v1.3/event/track/, Access-Token header, event_source web (Events API 2.0). */
const tiktok: Check = (path, _q, headers, body) => {
  if (path !== "/open_api/v1.3/event/track/") return refuse(404, `no such path ${path}`);
  const token = headers["access-token"];
  if (typeof token !== "string" || !token) return refuse(401, "Access-Token header missing");
  if (body.event_source !== "web") return refuse(400, 'event_source must be "web"');
  if (typeof body.event_source_id !== "string" || !/^[A-Z0-9]{15,25}$/.test(body.event_source_id))
    return refuse(400, "event_source_id must be the pixel code");
  const events = checkEvents(body.data, (e) => {
    if (typeof e.event !== "string" || !e.event) return "event missing";
    if (!recentSeconds(e.event_time)) return "event_time must be Unix seconds";
    if (typeof e.event_id !== "string" || !e.event_id) return "event_id missing";
    const u = e.user;
    if (!isObj(u)) return "user missing";
    if (typeof u.email !== "string" || !SHA256.test(u.email)) return "user.email must be a SHA-256 hash";
    if (u.phone !== undefined && (typeof u.phone !== "string" || !SHA256.test(u.phone)))
      return "user.phone must be a SHA-256 hash";
    if (u.external_id !== undefined && (typeof u.external_id !== "string" || !SHA256.test(u.external_id)))
      return "user.external_id must be a SHA-256 hash";
    if (u.ip !== undefined && !ipAddress(u.ip)) return "user.ip must be an IP address";
    if (e.page !== undefined && !(isObj(e.page) && httpUrl(e.page.url))) return "page.url must be a URL";
    if (!money(e.properties)) return "properties need value and currency";
    return null;
  });
  if (typeof events === "string") return refuse(400, events);
  if (!testCode(body.test_event_code)) return refuse(400, "test_event_code must be the test event code");
  return {
    pixelId: body.event_source_id,
    token,
    events,
    ok: { code: 0, message: "OK", data: {} },
    testEventCode: body.test_event_code as string | undefined,
  };
};

/** Snapchat: POST /v3/{pixel}/events?access_token=…, { data: [...] } (Conversions API v3). */
const snapchat: Check = (path, query, _h, body) => {
  const m = /^\/v3\/([0-9a-f-]{36})\/events(\/validate)?$/.exec(path);
  if (!m) return refuse(404, `no such path ${path}`);
  const token = query.get("access_token");
  if (!token) return refuse(401, "access_token missing");
  const events = checkEvents(body.data, (e) => {
    if (typeof e.event_name !== "string" || !/^[A-Z_0-9]+$/.test(e.event_name)) return "event_name missing";
    if (!recentSeconds(e.event_time)) return "event_time must be Unix seconds";
    if (typeof e.event_id !== "string" || !e.event_id) return "event_id missing";
    if (e.action_source !== "WEB") return 'action_source must be "WEB"';
    if (e.event_source_url !== undefined && !httpUrl(e.event_source_url))
      return "event_source_url must be a URL";
    const u = e.user_data;
    if (!isObj(u)) return "user_data missing";
    if (!hashes(u.em)) return "user_data.em must be SHA-256 hashes";
    if (u.ph !== undefined && !hashes(u.ph)) return "user_data.ph must be SHA-256 hashes";
    if (u.external_id !== undefined && !hashes(u.external_id))
      return "user_data.external_id must be SHA-256 hashes";
    if (u.client_ip_address !== undefined && !ipAddress(u.client_ip_address))
      return "user_data.client_ip_address must be an IP address";
    if (!money(e.custom_data)) return "custom_data needs value and currency";
    return null;
  });
  if (typeof events === "string") return refuse(400, events);
  return {
    pixelId: m[1]!,
    token,
    events,
    ok: { status: "VALID", reason: "", events_received: events.length },
    ...(m[2] ? { testEventCode: "validate" } : {}),
  };
};

const CHECKS: Record<AdPlatform, Check> = { meta, tiktok, snapchat };

/** A local receiver of one platform's conversion API. */
export async function startAdPlatformReceiver(platform: AdPlatform): Promise<AdPlatformReceiver> {
  const script: number[] = [];
  const received: ReceivedConversion[] = [];
  const rejected: { status: number; reason: string }[] = [];
  const handler: http.RequestListener = (req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const reply = (status: number, body: unknown) => {
        if (res.destroyed) return;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const url = new URL(req.url ?? "/", "http://receiver");
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const result =
        req.method !== "POST"
          ? refuse(405, `${req.method} ${url.pathname}`)
          : !isObj(body)
            ? refuse(400, "body is not a JSON object")
            : CHECKS[platform](url.pathname, url.searchParams, req.headers, body);
      if (result.refused) {
        rejected.push({ status: result.status, reason: result.reason });
        return reply(result.status, { error: { message: result.reason } });
      }
      const status = script.shift() ?? 200;
      for (const event of result.events)
        received.push({
          platform,
          pixelId: result.pixelId,
          token: result.token,
          event,
          status,
          ...(result.testEventCode ? { testEventCode: result.testEventCode } : {}),
        });
      reply(
        status,
        status === 200
          ? result.ok
          : { error: { message: `scripted ${status}` }, message: `scripted ${status}` },
      );
    });
  };
  let server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    rejected,
    answer: (...statuses) => void script.push(...statuses),
    accepted: () => received.filter((r) => r.status === 200),
    down: close,
    up: async () => {
      server = http.createServer(handler);
      await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
    },
    close: () => (server.listening ? close() : Promise.resolve()),
  };
}
