import { isIPv4, isIPv6 } from "node:net";
import { addressBlock, normalizeIp } from "@lease/platform";

/** What may be shown or kept: IPv4 with the last octet zeroed, IPv6 with the last 80 bits zeroed. */
export function truncateIp(ip: string): string | null {
  if (isIPv4(ip)) return ip.replace(/\.\d+$/, ".0");
  if (!isIPv6(ip)) return null;
  const groups = expandIpv6(ip);
  if (!groups) return null;
  return `${groups.slice(0, 3).join(":")}::`;
}

/**
 * The visitor's address as staff may see it: its block, IPv4 /24 or IPv6 /48, written as such
 * ("145.53.1.0/24", "2a02:a440:1234::/48"), so it is never taken for one address. '' for none.
 */
export function ipPrefix(ip: string): string {
  const clean = normalizeIp(ip);
  const truncated = truncateIp(clean);
  if (truncated === null) return "";
  return `${truncated}/${isIPv4(clean) ? 24 : 48}`;
}

/**
 * The block of addresses the ingest budget counts as one party: IPv4 /24 (an office behind a NAT
 * with a few public addresses is one party), IPv6 /64 (one subscriber line). Anything unreadable
 * shares one block.
 */
export function budgetBlock(ip: string): string {
  const clean = normalizeIp(ip);
  if (isIPv4(clean)) return `${clean.replace(/\.\d+$/, ".0")}/24`;
  if (isIPv6(clean)) return addressBlock(clean);
  return "unknown";
}

function expandIpv6(ip: string): string[] | null {
  const zone = ip.indexOf("%");
  const bare = zone >= 0 ? ip.slice(0, zone) : ip;
  const [head = "", tail] = bare.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) counts as two groups; it is in the zeroed part anyway.
  const count = (g: string[]) => g.reduce((n, x) => n + (x.includes(".") ? 2 : 1), 0);
  const missing = 8 - count(left) - count(right);
  if (tail === undefined && missing !== 0) return null;
  const groups = [...left, ...Array<string>(Math.max(missing, 0)).fill("0"), ...right];
  return groups.map((g) => (g.includes(".") ? "0" : (parseInt(g, 16) || 0).toString(16)));
}
