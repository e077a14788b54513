import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA1, 6 digits, 30-second
// steps, as every authenticator app reads them from an otpauth:// URI. Recovery codes are random,
// stored as SHA-256 hashes (they carry 50 random bits, so a slow hash adds nothing).

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Codes of one step before and after the current one are accepted too (clock drift). */
const DRIFT_STEPS = 1;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 160 random bits (RFC 4226's recommended length), base32 as the apps want it. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The 30-second step a moment falls in. */
export const totpStep = (ms: number = Date.now()) => Math.floor(ms / 1000 / TOTP_PERIOD_SECONDS);

/** HOTP (RFC 4226) of one counter value. */
export function hotp(secret: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The code an app shows at a moment. */
export function totpCode(secretBase32: string, ms: number = Date.now()): string {
  return hotp(base32Decode(secretBase32), totpStep(ms));
}

/**
 * The step whose code this is (current one ± one step), or undefined. A step at or before
 * `lastStep` is refused: a code that signed in once never does again.
 */
export function matchTotp(
  secretBase32: string,
  code: string,
  lastStep: number | null | undefined,
  ms: number = Date.now(),
): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const secret = base32Decode(secretBase32);
  const now = totpStep(ms);
  let found: number | undefined;
  // Every candidate is computed and compared, so timing does not tell which step matched.
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    const same = timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(code));
    if (same && found === undefined && (lastStep == null || step > lastStep)) found = step;
  }
  return found;
}

/**
 * An app code checked against the last step used: the step to accept, "used" when it is the code
 * of a step already used (typed again, or the same code a second time), or undefined when wrong.
 */
export function checkTotp(
  secretBase32: string,
  code: string,
  lastStep: number | null | undefined,
  ms: number = Date.now(),
): number | "used" | undefined {
  const fresh = matchTotp(secretBase32, code, lastStep, ms);
  if (fresh !== undefined) return fresh;
  return lastStep != null && matchTotp(secretBase32, code, null, ms) !== undefined ? "used" : undefined;
}

/** otpauth://totp/Issuer:username?secret=…&issuer=… (Google Authenticator's key URI format). */
export function otpauthUri(issuer: string, username: string, secretBase32: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(username)}`;
  const query = new URLSearchParams({
    secret: secretBase32,
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** "xxxxx-xxxxx": ten characters of an unambiguous alphabet (about 49 random bits). */
export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let code = "";
  for (const byte of bytes) code += RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Normalized as typed (case, spaces, dashes do not matter), then hashed. */
export function recoveryCodeHash(code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]/g, "");
  return createHash("sha256").update(`recovery:${normalized}`).digest("hex");
}

export const looksLikeRecoveryCode = (code: string) => /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(code.trim());
