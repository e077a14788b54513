import { hash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { key32, key64 } from "./keys";

/** The keys by their definition: the first bytes of node:crypto's MD5 of the id. */
const byCrypto = (id: string) => {
  const digest = hash("md5", id, "buffer");
  return {
    key32: digest.readInt32BE(0),
    key64: {
      sql: digest.readBigInt64BE(0).toString(),
      hi: digest.readUInt32BE(0),
      lo: digest.readUInt32BE(4),
    },
  };
};

/** Ids as the services make them. */
const NAMED = [
  "",
  "a",
  "abc",
  "h1-0",
  "session-lente1-1773136800000",
  "anon-0123456789abcdef0123456789abcdef",
];

describe("key32 and key64", () => {
  it("are the first 4 and 8 bytes of the id's MD5, for every length and character", () => {
    const ids = [...NAMED];
    for (let n = 0; n <= 130; n++)
      ids.push(
        Array.from({ length: n }, (_, i) => String.fromCharCode(32 + ((i * 31 + n * 7) % 95))).join(""),
      );
    // Outside ASCII the keys come from node:crypto: the same answer either way.
    ids.push(
      "café",
      "sessie-é".repeat(3),
      "😀",
      "x".repeat(55) + "é",
      "\u007f\u0000",
      "lone-\ud800",
      "x".repeat(200),
    );
    for (let i = 0; i < 2000; i++) ids.push(`h${i % 7}-${i * 7919}-${i.toString(36)}`);
    for (const id of ids) {
      const expected = byCrypto(id);
      expect({ id, key32: key32(id), key64: key64(id) }).toEqual({ id, ...expected });
    }
  });
});
