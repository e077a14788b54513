import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { addressBlock, clientIp, parseTrustedProxies } from "./client-ip";

const req = (remoteAddress: string, xff?: string) =>
  ({
    socket: { remoteAddress },
    headers: xff ? { "x-forwarded-for": xff } : {},
  }) as unknown as IncomingMessage;

describe("client IP behind trusted proxies", () => {
  const trusted = parseTrustedProxies("127.0.0.1, ::1, 10.0.0.0/8, fd00::/8");

  it("uses the socket address when the peer is not a trusted proxy, whatever X-Forwarded-For says", () => {
    expect(clientIp(req("203.0.113.9", "1.2.3.4"), trusted)).toBe("203.0.113.9");
  });

  it("believes X-Forwarded-For from a trusted proxy, taking the nearest untrusted hop", () => {
    expect(clientIp(req("::ffff:127.0.0.1", "198.51.100.7, 10.1.2.3"), trusted)).toBe("198.51.100.7");
    expect(clientIp(req("10.4.5.6", "spoofed, 198.51.100.8, 10.9.9.9"), trusted)).toBe("198.51.100.8");
  });

  it("matches CIDR ranges for IPv4 and IPv6", () => {
    expect(trusted("10.200.1.1")).toBe(true);
    expect(trusted("11.0.0.1")).toBe(false);
    expect(trusted("fd12::1")).toBe(true);
    expect(trusted("2001:db8::1")).toBe(false);
  });

  it("refuses a malformed list with a message naming the entry", () => {
    expect(() => parseTrustedProxies("10.0.0.0/8, nonsense")).toThrowError(/"nonsense"/);
  });
});

describe("addressBlock", () => {
  it("keeps an IPv4 address whole and groups IPv6 by its /64, however it is written", () => {
    expect(addressBlock("198.51.100.7")).toBe("198.51.100.7");
    expect(addressBlock("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBlock("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressBlock("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(addressBlock("::1")).toBe("0:0:0:0::/64");
    expect(addressBlock("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressBlock("::ffff:192.0.2.1")).toBe("0:0:0:0::/64");
  });
});
