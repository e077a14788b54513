import { createHash } from "node:crypto";
import type { ConversionEvent, ConversionPlatform, InternalLeadConversion } from "@lease/contracts";
import { phoneE164 } from "@lease/platform";

// Each ad platform's documented server event for a lead's event. Contact details leave this
// process only normalised and SHA-256 hashed, as each platform specifies:
//   Meta Conversions API (Customer Information Parameters): em = sha256(trimmed, lower-cased e-mail);
//     ph = sha256(digits with country code, no "+" or leading zeros: 31612345678, from the E.164
//     number libphonenumber-js reads); fbc =
//     fb.1.<ms of the click>.<fbclid>; client_user_agent in clear; event_time in Unix seconds.
//   TikTok Events API 2.0 (/open_api/v1.3/event/track/): user.email = sha256(lower-cased e-mail),
//     user.phone = sha256(E.164 with "+": +31612345678), ttclid and user_agent in clear. (TikTok's
//     page on the user parameters, business-api.tiktok.com/portal/docs?id=1771100865818625, as quoted
//     by Cloudflare Zaraz's TikTok component: "E.164 format (for example, '+12133734253'). Country
//     code must be included and prefixed with the '+' sign", then SHA-256.)
//   Snapchat Conversions API v3: em = sha256(trimmed, lower-cased e-mail), ph = sha256(digits with
//     country code, no "+" or leading zeros), sc_click_id = ScCid, client_user_agent in clear.

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

/** Each platform's name for a lead's events (the lead's is the one the browser pixel sends too). */
export const EVENT_NAMES: Record<ConversionPlatform, Record<ConversionEvent, string>> = {
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

/** A platform's request: where it goes, its headers and JSON body (the token placed as documented). */
export interface PlatformRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const euros = (cents: number) => Math.round(cents) / 100;

function value(input: ConversionInput): { value: number; currency: "EUR" } | undefined {
  return input.valueCents !== null ? { value: euros(input.valueCents), currency: "EUR" } : undefined;
}

/**
 * The event fields Meta and Snapchat share (their server events have the same shape): name, time,
 * id, page, and user_data with the hashed e-mail and phone, the platform's click id and the agent.
 */
function metaShapedEvent(
  input: ConversionInput,
  name: string,
  actionSource: string,
  click: Record<string, string | undefined>,
) {
  const { lead } = input;
  const phone = phoneDigits(lead.phone);
  const custom = value(input);
  return {
    event_name: name,
    event_time: seconds(input.at),
    event_id: input.eventId,
    action_source: actionSource,
    ...(lead.pageUrl ? { event_source_url: lead.pageUrl } : {}),
    user_data: {
      em: [sha256(normalizeEmail(lead.email))],
      ...(phone ? { ph: [sha256(phone)] } : {}),
      ...click,
      ...(lead.userAgent ? { client_user_agent: lead.userAgent } : {}),
    },
    ...(custom ? { custom_data: custom } : {}),
  };
}

/** The moment of the ad click: the page's landing time, else the lead's arrival. */
const clickedAt = (lead: InternalLeadConversion) => lead.clickIds?.clickedAt ?? Date.parse(lead.createdAt);

export function metaRequest(
  input: ConversionInput,
  opts: { baseUrl: string; version: string; pixelId: string; accessToken: string },
): PlatformRequest {
  const fbclid = input.lead.clickIds?.fbclid;
  const click = fbclid ? { fbc: metaFbc(fbclid, clickedAt(input.lead)) } : {};
  const event = metaShapedEvent(input, EVENT_NAMES.meta[input.event], "website", click);
  return {
    url: `${trimSlash(opts.baseUrl)}/v${opts.version}/${encodeURIComponent(opts.pixelId)}/events`,
    headers: { "content-type": "application/json" },
    body: { data: [event], access_token: opts.accessToken },
  };
}

export function tiktokRequest(
  input: ConversionInput,
  opts: { baseUrl: string; pixelId: string; accessToken: string },
): PlatformRequest {
  const { lead } = input;
  const phone = phoneE164(lead.phone);
  const custom = value(input);
  return {
    url: `${trimSlash(opts.baseUrl)}/open_api/v1.3/event/track/`,
    headers: { "content-type": "application/json", "Access-Token": opts.accessToken },
    body: {
      event_source: "web",
      event_source_id: opts.pixelId,
      data: [
        {
          event: EVENT_NAMES.tiktok[input.event],
          event_time: seconds(input.at),
          event_id: input.eventId,
          user: {
            email: sha256(normalizeEmail(lead.email)),
            ...(phone ? { phone: sha256(phone) } : {}),
            ...(lead.clickIds?.ttclid ? { ttclid: lead.clickIds.ttclid } : {}),
            ...(lead.userAgent ? { user_agent: lead.userAgent } : {}),
          },
          ...(lead.pageUrl ? { page: { url: lead.pageUrl } } : {}),
          ...(custom ? { properties: custom } : {}),
        },
      ],
    },
  };
}

export function snapchatRequest(
  input: ConversionInput,
  opts: { baseUrl: string; pixelId: string; accessToken: string },
): PlatformRequest {
  const scCid = input.lead.clickIds?.ScCid;
  const click = scCid ? { sc_click_id: scCid } : {};
  const query = new URLSearchParams({ access_token: opts.accessToken });
  return {
    url: `${trimSlash(opts.baseUrl)}/v3/${encodeURIComponent(opts.pixelId)}/events?${query}`,
    headers: { "content-type": "application/json" },
    body: { data: [metaShapedEvent(input, EVENT_NAMES.snapchat[input.event], "WEB", click)] },
  };
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");
