import { describe, expect, it } from "vitest";
import { isSameOrigin } from "./upgrade";

describe("isSameOrigin (CSRF check and both admin WebSocket gates)", () => {
  it("compares with PUBLIC_ORIGIN when set, whatever Host the request names", () => {
    expect(isSameOrigin("https://lease.example.nl", "evil.example", "https://lease.example.nl")).toBe(true);
    expect(isSameOrigin("https://lease.example.nl", "lease.example.nl", "https://lease.example.nl/")).toBe(
      true,
    );
    expect(isSameOrigin("https://evil.example", "lease.example.nl", "https://lease.example.nl")).toBe(false);
    expect(isSameOrigin("http://lease.example.nl", "lease.example.nl", "https://lease.example.nl")).toBe(
      false,
    );
  });

  it("compares with the Host header without PUBLIC_ORIGIN, and never accepts a missing or opaque origin", () => {
    expect(isSameOrigin("http://127.0.0.1:8080", "127.0.0.1:8080")).toBe(true);
    expect(isSameOrigin("http://127.0.0.1:8081", "127.0.0.1:8080")).toBe(false);
    expect(isSameOrigin(undefined, "127.0.0.1:8080")).toBe(false);
    expect(isSameOrigin("null", "127.0.0.1:8080")).toBe(false);
    expect(isSameOrigin("not a url", "127.0.0.1:8080")).toBe(false);
  });

  it("without PUBLIC_ORIGIN compares scheme, host and port: an https page is no match for an http site", () => {
    expect(isSameOrigin("https://127.0.0.1:8080", "127.0.0.1:8080")).toBe(false);
    expect(isSameOrigin("https://127.0.0.1:8080", "127.0.0.1:8080", undefined, "https")).toBe(true);
    expect(isSameOrigin("http://lease.example", "lease.example:80")).toBe(true);
    expect(isSameOrigin("http://lease.example:8080", "lease.example")).toBe(false);
    expect(isSameOrigin("http://lease.example", undefined)).toBe(false);
  });
});
