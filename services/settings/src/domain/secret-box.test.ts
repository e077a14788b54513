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

describe("secretBox key rotation", () => {
  const plain = "SG.rotate-me.0123456789";
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it("reads values made with a previous key and rewraps them with the current one", () => {
    const stored = secretBox(oldKey).encrypt(plain);
    const rotating = secretBox(newKey, [oldKey]);
    expect(rotating.decrypt(stored)).toBe(plain);
    const rewrapped = rotating.rewrap(stored)!;
    expect(rewrapped).not.toBeNull();
    // After the rotation the old key can go: the new key alone reads the rewrapped value.
    expect(secretBox(newKey).decrypt(rewrapped)).toBe(plain);
    expect(() => secretBox(oldKey).decrypt(rewrapped)).toThrow();
    expect(rotating.rewrap(rewrapped)).toBeNull();
  });

  it("still refuses a value no key opens", () => {
    const stranger = secretBox(randomBytes(32)).encrypt(plain);
    const rotating = secretBox(newKey, [oldKey]);
    expect(() => rotating.decrypt(stranger)).toThrow();
    expect(() => rotating.rewrap(stranger)).toThrow();
    expect(() => secretBox(newKey, [randomBytes(16)])).toThrow();
  });
});
