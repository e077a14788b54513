import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { secretBox } from "./secret-box";

describe("secretBox (AES-256-GCM at rest)", () => {
  const box = secretBox(randomBytes(32));
  const key = "SG.abcdefghijklmnopqrstuvwxyz.0123456789";

  it("round-trips, with a fresh 12-byte IV on every write", () => {
    const a = box.encrypt(key);
    const b = box.encrypt(key);
    expect(a).not.toBe(b);
    expect(box.decrypt(a)).toBe(key);
    const raw = Buffer.from(a, "base64");
    expect(raw.length).toBe(12 + 16 + Buffer.byteLength(key));
    expect(raw.toString("latin1")).not.toContain("abcdefghij");
  });

  it("refuses a value that was altered or made with another key", () => {
    const stored = Buffer.from(box.encrypt(key), "base64");
    stored[stored.length - 1]! ^= 1;
    expect(() => box.decrypt(stored.toString("base64"))).toThrow();
    expect(() => secretBox(randomBytes(32)).decrypt(box.encrypt(key))).toThrow();
    expect(() => box.decrypt("c2hvcnQ=")).toThrow();
  });

  it("needs a 32-byte key", () => {
    expect(() => secretBox(randomBytes(16))).toThrow();
  });
});
