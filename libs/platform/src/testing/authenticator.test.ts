import { describe, expect, it } from "vitest";
import { authenticatorCode } from "./authenticator";

describe("authenticatorCode", () => {
  // RFC 6238's SHA-1 secret "12345678901234567890" in base32; its 8-digit codes end in these 6.
  const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

  it("gives RFC 6238's codes at its test times, as a 6-digit app shows them", () => {
    const at = (seconds: number) => authenticatorCode(RFC_SECRET, seconds * 1000);
    expect([59, 1111111109, 1234567890, 2000000000].map(at)).toEqual([
      "287082",
      "081804",
      "005924",
      "279037",
    ]);
  });

  it("changes every 30 seconds", () => {
    expect(authenticatorCode(RFC_SECRET, 60_000)).toBe(authenticatorCode(RFC_SECRET, 89_999));
    expect(authenticatorCode(RFC_SECRET, 59_999)).not.toBe(authenticatorCode(RFC_SECRET, 60_000));
  });
});
