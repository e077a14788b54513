import { createHmac } from "node:crypto";
import { normalizeIp } from "@lease/platform";
import { ipPrefix } from "./ip-prefix";

/** The longest user agent ingest looks at; the anonymous id is derived from the same prefix. */
export const MAX_USER_AGENT = 512;

/** Every anonymous id starts with this; a browser's own ids are "session-…", so the two never meet. */
export const ANONYMOUS_ID_PREFIX = "anon-";

/**
 * The visitor id of a visit without analytics consent: a keyed hash of the visitor's address and
 * user agent under the day's salt (as Plausible does), so nothing needs to be kept on the device.
 * The salt rotates at Amsterdam midnight and is never kept past its day (repositories/day-salt.ts),
 * so the same visitor gets an unrelated id the next day and no id can be traced back to an address
 * once the day is over.
 *
 * Pure: any service that knows the day's salt, the request's client address (as clientIp() gives it)
 * and its raw User-Agent header finds the id tracking recorded for that visitor today.
 */
export function anonymousVisitorId(daySalt: string, ip: string, userAgent: string | undefined): string {
  const digest = createHmac("sha256", daySalt)
    .update(`${normalizeIp(ip)}\n${(userAgent ?? "").slice(0, MAX_USER_AGENT)}`)
    .digest("hex");
  return `${ANONYMOUS_ID_PREFIX}${digest.slice(0, 32)}`;
}

/**
 * Which address block (IPv4 /24, IPv6 /48) a hit came from, as a keyed hash under the day's salt:
 * the writer counts the distinct blocks a new campaign value or referrer came from
 * (domain/admission.ts) without the block itself reaching the stream or the counters. Unrelated
 * the next day, like the anonymous ids. '' for an unreadable address.
 */
export function sourceTag(daySalt: string, ip: string): string {
  const block = ipPrefix(ip);
  if (!block) return "";
  return createHmac("sha256", daySalt).update(`block\n${block}`).digest("base64url").slice(0, 11);
}
