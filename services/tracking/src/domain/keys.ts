import { hash } from "node:crypto";

/**
 * A 64-bit key of a text id (a session id, an event id): the first 8 bytes of its MD5. Stored as
 * bigint (8 bytes instead of a 30-40 byte text in every row) and used as the HyperLogLog hash.
 * PostgreSQL computes the same key with tracking.key64(text), so an operator can still find a
 * session's rows by its id. Two ids share a key with probability ~n²/2⁶⁵ (1 in 3,700 at 100 M ids);
 * page views are unique on (time, key), so a clash would also need the same microsecond.
 */
export interface Key64 {
  /** Signed 64-bit value as PostgreSQL's bigint reads it, in decimal. */
  readonly sql: string;
  readonly hi: number;
  readonly lo: number;
}

export function key64(id: string): Key64 {
  if (md5Short(id)) {
    const hi = swap(DIGEST[0]!) >>> 0;
    const lo = swap(DIGEST[1]!) >>> 0;
    return { sql: BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo)).toString(), hi, lo };
  }
  const digest = hash("md5", id, "buffer");
  return { sql: digest.readBigInt64BE(0).toString(), hi: digest.readUInt32BE(0), lo: digest.readUInt32BE(4) };
}

/**
 * A 32-bit key of an event id (the first 4 bytes of its MD5, signed), as tracking.key32(text).
 * Page views are unique on (time, key): two different events would have to share the microsecond
 * and the key (1 in 4 billion) to be taken for one.
 */
export function key32(id: string): number {
  if (md5Short(id)) return swap(DIGEST[0]!);
  return hash("md5", id, "buffer").readInt32BE(0);
}

// MD5 (RFC 1321) of a string of one block, in JavaScript: the history import keys two ids a line,
// and node:crypto's one-shot hash cost 1.9 us an id (the call into C++ and a Buffer each), this
// 0.3 us. Ids of ASCII up to 55 characters (one 64-byte block) only; others go to node:crypto.
const SHIFTS = Uint8Array.from([
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9,
  14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15,
  21, 6, 10, 15, 21,
]);
const SINES = Int32Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0);
const WORD = Uint8Array.from({ length: 64 }, (_, i) =>
  i < 16 ? i : i < 32 ? (5 * i + 1) % 16 : i < 48 ? (3 * i + 5) % 16 : (7 * i) % 16,
);
const BLOCK = new Int32Array(16);
/** The digest's four words (little-endian, as MD5 defines them) after md5Short. */
const DIGEST = new Int32Array(4);

/** MD5 of `text` into DIGEST when it is ASCII of at most 55 characters; false (untouched) otherwise. */
function md5Short(text: string): boolean {
  const n = text.length;
  if (n > 55) return false;
  BLOCK.fill(0);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return false;
    BLOCK[i >> 2]! |= c << ((i & 3) * 8);
  }
  BLOCK[n >> 2]! |= 0x80 << ((n & 3) * 8);
  BLOCK[14] = n * 8;
  let a = 0x67452301;
  let b = 0xefcdab89 | 0;
  let c = 0x98badcfe | 0;
  let d = 0x10325476;
  for (let i = 0; i < 64; i++) {
    let f: number;
    if (i < 16) f = (b & c) | (~b & d);
    else if (i < 32) f = (d & b) | (~d & c);
    else if (i < 48) f = b ^ c ^ d;
    else f = c ^ (b | ~d);
    f = (f + a + SINES[i]! + BLOCK[WORD[i]!]!) | 0;
    a = d;
    d = c;
    c = b;
    b = (b + ((f << SHIFTS[i]!) | (f >>> (32 - SHIFTS[i]!)))) | 0;
  }
  DIGEST[0] = a + 0x67452301;
  DIGEST[1] = b + (0xefcdab89 | 0);
  DIGEST[2] = c + (0x98badcfe | 0);
  DIGEST[3] = d + 0x10325476;
  return true;
}

/** A little-endian word read big-endian (the digest's first bytes as readInt32BE reads them). */
function swap(x: number): number {
  return ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24);
}

/** The key of a bigint that PostgreSQL returned (decimal text). */
export function key64FromSql(sql: string): Key64 {
  const unsigned = BigInt.asUintN(64, BigInt(sql));
  return { sql, hi: Number(unsigned >> 32n), lo: Number(unsigned & 0xffffffffn) };
}

/** The same function in SQL, created by the migrations: tracking.key64(text) returns bigint. */
export const KEY64_SQL = `('x' || substr(md5($1), 1, 16))::bit(64)::bigint`;
