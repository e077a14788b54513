import type { IncomingMessage } from "node:http";
import net from "node:net";

export type TrustedProxies = (ip: string) => boolean;

export function normalizeIp(ip: string): string {
  return ip.startsWith("::ffff:") ? ip.slice(7) : ip;
}

/**
 * Parses a comma-separated list of addresses and CIDR ranges ("127.0.0.1, 10.0.0.0/8, fd00::/8"):
 * pod addresses change on every restart, so a Kubernetes ingress is trusted by its range.
 */
export function parseTrustedProxies(list: string): TrustedProxies {
  const blocks = new net.BlockList();
  for (const raw of list.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const [address, bits] = entry.split("/");
    const family = net.isIPv6(address!) ? "ipv6" : "ipv4";
    if (!net.isIP(address!))
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    if (bits === undefined) blocks.addAddress(address!, family);
    else blocks.addSubnet(address!, Number(bits), family);
  }
  return (ip: string) => {
    const clean = normalizeIp(ip);
    const family = net.isIPv6(clean) ? "ipv6" : net.isIPv4(clean) ? "ipv4" : undefined;
    return family !== undefined && blocks.check(clean, family);
  };
}

/** The socket address, or the nearest untrusted hop of X-Forwarded-For when the socket is a trusted proxy. */
export function clientIp(req: IncomingMessage, trusted: TrustedProxies): string {
  const socketIp = normalizeIp(req.socket.remoteAddress ?? "");
  if (!trusted(socketIp)) return socketIp;
  const forwarded = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((s) => normalizeIp(s.trim()))
    .filter((s) => net.isIP(s) !== 0);
  for (let i = forwarded.length - 1; i >= 0; i--) {
    const hop = forwarded[i]!;
    if (!trusted(hop)) return hop;
  }
  return forwarded[0] ?? socketIp;
}

/**
 * The block of addresses one party readily holds, for counting abuse per party: an IPv4 address
 * as it is (an office behind one NAT is one party), an IPv6 address as its /64 (one subscriber
 * line gets a whole /64 and can rotate through it freely).
 */
export function addressBlock(ip: string): string {
  if (!net.isIPv6(ip)) return ip;
  const bare = ip.split("%")[0]!.toLowerCase();
  const [head = "", tail] = bare.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) takes two groups; only the first four groups matter.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const zeros = Array<string>(Math.max(8 - width(left) - width(right), 0)).fill("0");
  const groups = [...left, ...zeros, ...right].slice(0, 4).map((g) => parseInt(g, 16).toString(16));
  return `${groups.join(":")}::/64`;
}
