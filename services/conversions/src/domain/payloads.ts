import { createHash } from "node:crypto";
import type { ConversionEvent, InternalLeadConversion, MatchKey, TokenPlatform } from "@lease/contracts";
import { phoneCountry, phoneE164 } from "@lease/platform";

// Each ad platform's documented server event for a lead's event. Contact details leave this
// process only normalised and SHA-256 hashed, as each platform specifies:
//   Meta Conversions API (Customer Information Parameters): em = sha256(trimmed, lower-cased e-mail);
//     ph = sha256(digits with country code, no "+" or leading zeros: 31612345678, from the E.164
//     number libphonenumber-js reads); fbc = fb.1.<ms of the click>.<fbclid>, fbp (the pixel's
//     _fbp cookie), client_ip_address and client_user_agent in clear; external_id = [sha256(lead
//     id)]; country = [sha256("nl")] (lower-case ISO code, here the phone number's country);
//     event_time in Unix seconds; test_event_code beside data for the Test Events tool.
//   TikTok Events API 2.0 (/open_api/v1.3/event/track/): user.email = sha256(lower-cased e-mail),
//     user.phone = sha256(E.164 with "+": +31612345678), user.external_id = sha256(lead id), ttclid,
//     ip and user_agent in clear; test_event_code beside data. (TikTok's page on the user
//     parameters, business-api.tiktok.com/portal/docs?id=1771100865818625, as quoted by Cloudflare
//     Zaraz's TikTok component: "E.164 format (for example, '+12133734253'). Country code must be
//     included and prefixed with the '+' sign", then SHA-256.)
//   Snapchat Conversions API v3: em = sha256(trimmed, lower-cased e-mail), ph = sha256(digits with
//     country code, no "+" or leading zeros), external_id = [sha256(lead id)], sc_click_id = ScCid,
//     client_ip_address and client_user_agent in clear; a test event goes to /events/validate.

export const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Meta's and Snapchat's ph before hashing: the digits of the E.164 number libphonenumber-js reads
 * from what people type ("+31 (0)6-1234 5678", "0031 (0)6 …", "06 1234 5678", "+32 …"), without
 * "+": 31612345678. Null when it is no valid number, which is then left out rather than sent wrong.
 */
export const phoneDigits = (phone: string): string | null => phoneE164(phone)?.slice(1) ?? null;

/** Meta's fbc parameter: fb.<subdomain index 1>.<ms of the click>.<fbclid>. */
export const metaFbc = (fbclid: string, clickedAtMs: number) => `fb.1.${clickedAtMs}.${fbclid}`;

/**
 * Each platform's name for a lead's events (the lead's is the one the browser pixel sends too);
 * Google takes each event as a conversion action of its own, by id (domain/google.ts).
 */
export const EVENT_NAMES: Record<TokenPlatform, Record<ConversionEvent, string>> = {
  meta: { lead: "Lead", offerte: "Offerte", getekend: "Purchase" },
  tiktok: { lead: "SubmitForm", offerte: "Offerte", getekend: "CompletePayment" },
  snapchat: { lead: "SIGN_UP", offerte: "CUSTOM_EVENT_1", getekend: "PURCHASE" },
};

export interface ConversionInput {
  lead: InternalLeadConversion;
  event: ConversionEvent;
  eventId: string;
  /** When it happened (ISO). */
  at: string;
  valueCents: number | null;
}

/**
 * A platform's request: where it goes, its headers and JSON body (the token placed as documented),
 * and which match keys its event carries.
 */
export interface PlatformRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  matchKeys: MatchKey[];
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const euros = (cents: number) => Math.round(cents) / 100;

function value(input: ConversionInput): { value: number; currency: "EUR" } | undefined {
  return input.valueCents !== null ? { value: euros(input.valueCents), currency: "EUR" } : undefined;
}

/**
 * The keys each event carries besides the e-mail, with marketing consent only (leads keeps them
 * only then): the phone when it is a valid number, the visitor's address while the arrival is
 * still to be sent, and the lead's own id hashed (external_id), the same for all its events.
 */
function extras(lead: InternalLeadConversion) {
  return { ip: lead.clientIp, externalId: sha256(lead.id) };
}

/**
 * The event fields Meta and Snapchat share (their server events have the same shape): name, time,
 * id, page, and user_data with the hashed e-mail and phone, the platform's click id and match
 * keys, the address and the agent.
 */
function metaShapedEvent(
  input: ConversionInput,
  name: string,
  actionSource: string,
  keys: Record<string, unknown>,
) {
  const { lead } = input;
  const phone = phoneDigits(lead.phone);
  const custom = value(input);
  const { ip, externalId } = extras(lead);
  return {
    event_name: name,
    event_time: seconds(input.at),
    event_id: input.eventId,
    action_source: actionSource,
    ...(lead.pageUrl ? { event_source_url: lead.pageUrl } : {}),
    user_data: {
      em: [sha256(normalizeEmail(lead.email))],
      ...(phone ? { ph: [sha256(phone)] } : {}),
      ...keys,
      external_id: [externalId],
      ...(ip ? { client_ip_address: ip } : {}),
      ...(lead.userAgent ? { client_user_agent: lead.userAgent } : {}),
    },
    ...(custom ? { custom_data: custom } : {}),
  };
}

/** The match keys an event built from this lead carries (the lead's conversions list shows them). */
function keysOf(lead: InternalLeadConversion, click: boolean, more: MatchKey[] = []): MatchKey[] {
  const keys: MatchKey[] = ["email"];
  if (phoneE164(lead.phone)) keys.push("phone");
  if (click) keys.push("click_id");
  keys.push(...more);
  if (lead.clientIp) keys.push("ip");
  keys.push("external_id");
  return keys;
}

/** The moment of the ad click: the page's landing time, else the lead's arrival. */
const clickedAt = (lead: InternalLeadConversion) => lead.clickIds?.clickedAt ?? Date.parse(lead.createdAt);

export function metaRequest(
  input: ConversionInput,
  opts: { baseUrl: string; version: string; pixelId: string; accessToken: string; testEventCode?: string },
): PlatformRequest {
  const { lead } = input;
  const fbclid = lead.clickIds?.fbclid;
  const country = phoneCountry(lead.phone);
  // Meta's fbc and fbp in clear, country hashed like the contact details (lower-case ISO code).
  const keys = {
    ...(fbclid ? { fbc: metaFbc(fbclid, clickedAt(lead)) } : {}),
    ...(lead.fbp ? { fbp: lead.fbp } : {}),
    ...(country ? { country: [sha256(country)] } : {}),
  };
  const event = metaShapedEvent(input, EVENT_NAMES.meta[input.event], "website", keys);
  const more: MatchKey[] = [...(lead.fbp ? ["fbp" as const] : []), ...(country ? ["country" as const] : [])];
  return {
    url: `${trimSlash(opts.baseUrl)}/v${opts.version}/${encodeURIComponent(opts.pixelId)}/events`,
    headers: { "content-type": "application/json" },
    body: {
      data: [event],
      access_token: opts.accessToken,
      ...(opts.testEventCode ? { test_event_code: opts.testEventCode } : {}),
    },
    matchKeys: keysOf(lead, Boolean(fbclid), more),
  };
}

export function tiktokRequest(
  input: ConversionInput,
  opts: { baseUrl: string; pixelId: string; accessToken: string; testEventCode?: string },
): PlatformRequest {
  const { lead } = input;
  const phone = phoneE164(lead.phone);
  const custom = value(input);
  const { ip, externalId } = extras(lead);
  const ttclid = lead.clickIds?.ttclid;
  return {
    url: `${trimSlash(opts.baseUrl)}/open_api/v1.3/event/track/`,
    headers: { "content-type": "application/json", "Access-Token": opts.accessToken },
    body: {
      event_source: "web",
      event_source_id: opts.pixelId,
      ...(opts.testEventCode ? { test_event_code: opts.testEventCode } : {}),
      data: [
        {
          event: EVENT_NAMES.tiktok[input.event],
          event_time: seconds(input.at),
          event_id: input.eventId,
          user: {
            email: sha256(normalizeEmail(lead.email)),
            ...(phone ? { phone: sha256(phone) } : {}),
            ...(ttclid ? { ttclid } : {}),
            external_id: externalId,
            ...(ip ? { ip } : {}),
            ...(lead.userAgent ? { user_agent: lead.userAgent } : {}),
          },
          ...(lead.pageUrl ? { page: { url: lead.pageUrl } } : {}),
          ...(custom ? { properties: custom } : {}),
        },
      ],
    },
    matchKeys: keysOf(lead, Boolean(ttclid)),
  };
}

export function snapchatRequest(
  input: ConversionInput,
  opts: { baseUrl: string; pixelId: string; accessToken: string; validate?: boolean },
): PlatformRequest {
  const scCid = input.lead.clickIds?.ScCid;
  const keys = scCid ? { sc_click_id: scCid } : {};
  const query = new URLSearchParams({ access_token: opts.accessToken });
  // Snapchat's Test Event Tool is the same event posted to /events/validate (nothing is counted).
  const path = opts.validate ? "events/validate" : "events";
  return {
    url: `${trimSlash(opts.baseUrl)}/v3/${encodeURIComponent(opts.pixelId)}/${path}?${query}`,
    headers: { "content-type": "application/json" },
    body: { data: [metaShapedEvent(input, EVENT_NAMES.snapchat[input.event], "WEB", keys)] },
    matchKeys: keysOf(input.lead, Boolean(scCid)),
  };
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");
