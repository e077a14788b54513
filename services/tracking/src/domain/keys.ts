import { hash } from "node:crypto";
import { md5 } from "js-md5";

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
  const d = digest(id);
  const hi = ((d[0]! << 24) | (d[1]! << 16) | (d[2]! << 8) | d[3]!) >>> 0;
  const lo = ((d[4]! << 24) | (d[5]! << 16) | (d[6]! << 8) | d[7]!) >>> 0;
  return { sql: BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo)).toString(), hi, lo };
}

/**
 * A 32-bit key of an event id (the first 4 bytes of its MD5, signed), as tracking.key32(text).
 * Page views are unique on (time, key): two different events would have to share the microsecond
 * and the key (1 in 4 billion) to be taken for one.
 */
export function key32(id: string): number {
  const d = digest(id);
  return (d[0]! << 24) | (d[1]! << 16) | (d[2]! << 8) | d[3]!;
}

// The history import keys two ids a line: node:crypto's one-shot hash costs about 1 us an id (the
// call into C++ and a Buffer each), js-md5's byte array 0.2 us. Text with anything beyond ASCII
// goes to node:crypto, so its UTF-8 bytes (a lone surrogate as U+FFFD) stay what they were.
const BEYOND_ASCII = /[\u0080-\uffff]/;

/** The MD5 digest of the id's UTF-8 bytes. */
function digest(id: string): ArrayLike<number> {
  return BEYOND_ASCII.test(id) ? hash("md5", id, "buffer") : md5.array(id);
}

/** The key of a bigint that PostgreSQL returned (decimal text). */
export function key64FromSql(sql: string): Key64 {
  const unsigned = BigInt.asUintN(64, BigInt(sql));
  return { sql, hi: Number(unsigned >> 32n), lo: Number(unsigned & 0xffffffffn) };
}

/** The same function in SQL, created by the migrations: tracking.key64(text) returns bigint. */
export const KEY64_SQL = `('x' || substr(md5($1), 1, 16))::bit(64)::bigint`;
