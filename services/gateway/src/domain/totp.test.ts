import { describe, expect, it } from "vitest";
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newRecoveryCode,
  newTotpSecret,
  otpauthUri,
  recoveryCodeHash,
  totpCode,
  totpStep,
} from "./totp";
import { secretBox } from "./secret-box";

// The published test vectors of RFC 4226 (HOTP) and RFC 6238 (TOTP, SHA-1), and the rules around them.

const RFC_SECRET = Buffer.from("12345678901234567890");

describe("HOTP and TOTP", () => {
  it("gives RFC 4226's codes for counters 0-9", () => {
    const codes = Array.from({ length: 10 }, (_, counter) => hotp(RFC_SECRET, counter));
    expect(codes).toEqual([
      "755224",
      "287082",
      "359152",
      "969429",
      "338314",
      "254676",
      "287922",
      "162583",
      "399871",
      "520489",
    ]);
  });

  it("gives RFC 6238's SHA-1 codes (8 digits) at its test times", () => {
    const at = (seconds: number) => hotp(RFC_SECRET, totpStep(seconds * 1000), 8);
    expect([59, 1111111109, 1111111111, 1234567890, 2000000000, 20000000000].map(at)).toEqual([
      "94287082",
      "07081804",
      "14050471",
      "89005924",
      "69279037",
      "65353130",
    ]);
  });

  it("round-trips base32 as authenticator apps write it", () => {
    expect(base32Encode(RFC_SECRET)).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    expect(base32Decode("gezd gnbv gy3t qojq gezd gnbv gy3t qojq")).toEqual(RFC_SECRET);
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  it("accepts the current step and one either side, never a step used before, never non-digits", () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = totpStep(now);
    expect(matchTotp(secret, totpCode(secret, now), null, now)).toBe(step);
    expect(matchTotp(secret, totpCode(secret, now - 30_000), null, now)).toBe(step - 1);
    expect(matchTotp(secret, totpCode(secret, now + 30_000), null, now)).toBe(step + 1);
    expect(matchTotp(secret, totpCode(secret, now - 60_000), null, now)).toBeUndefined();
    expect(matchTotp(secret, totpCode(secret, now + 60_000), null, now)).toBeUndefined();
    expect(matchTotp(secret, totpCode(secret, now), step, now)).toBeUndefined();
    expect(matchTotp(secret, totpCode(secret, now + 30_000), step, now)).toBe(step + 1);
    expect(matchTotp(secret, "12345a", null, now)).toBeUndefined();
  });

  it("writes the otpauth URI apps scan", () => {
    const uri = new URL(otpauthUri("Beheer lease.example.nl", "jan@team", "GEZDGNBV"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Beheer lease.example.nl:jan@team");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: "GEZDGNBV",
      issuer: "Beheer lease.example.nl",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});

describe("recovery codes", () => {
  it("are ten characters in two groups, hashed the same however they are typed", () => {
    const code = newRecoveryCode();
    expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(recoveryCodeHash(code.toUpperCase().replace("-", " "))).toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash(code)).not.toContain(code.replace("-", ""));
    expect(new Set(Array.from({ length: 50 }, newRecoveryCode)).size).toBe(50);
  });
});

describe("secretBox", () => {
  it("seals and opens; another key or a changed byte opens nothing", () => {
    const box = secretBox("one-secret-0123456789-abcdefghijklmnop", "admin-totp-secret");
    const sealed = box.seal("GEZDGNBVGY3TQOJQ");
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("GEZDGNBVGY3TQOJQ");
    expect(box.seal("GEZDGNBVGY3TQOJQ")).not.toBe(sealed);
    expect(box.open(sealed)).toBe("GEZDGNBVGY3TQOJQ");
    expect(
      secretBox("another-secret-0123456789-abcdefghijk", "admin-totp-secret").open(sealed),
    ).toBeUndefined();
    expect(secretBox("one-secret-0123456789-abcdefghijklmnop", "other-purpose").open(sealed)).toBeUndefined();
    const parts = sealed.split(".");
    const data = Buffer.from(parts[3]!, "base64url");
    data[0] = data[0]! ^ 1;
    expect(box.open([...parts.slice(0, 3), data.toString("base64url")].join("."))).toBeUndefined();
    expect(box.open("garbage")).toBeUndefined();
  });
});
