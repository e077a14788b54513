import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { HOTP, Secret, TOTP } from "otpauth";

// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) by the otpauth library: HMAC-SHA1,
// 6 digits, 30-second steps, as every authenticator app reads them from an otpauth:// URI. What is
// ours: the window (one step either side), never a step used before, and comparing every candidate.
// Recovery codes are random, stored as SHA-256 hashes (they carry 50 random bits, so a slow hash
// adds nothing).

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
const TOTP_ALGORITHM = "SHA1";
/** Codes of one step before and after the current one are accepted too (clock drift). */
const DRIFT_STEPS = 1;

/** A secret of these bytes (copied: a small Buffer may be a view on a shared pool). */
const secretOf = (bytes: Uint8Array) => new Secret({ buffer: Uint8Array.from(bytes).buffer });

export function base32Encode(bytes: Buffer): string {
  return secretOf(bytes).base32;
}

/** Base32 as people and apps write it: case, spaces and padding do not matter. */
export function base32Decode(text: string): Buffer {
  return Buffer.from(Secret.fromBase32(text.replace(/[\s=]/g, "")).bytes);
}

/** A new secret: 160 random bits (RFC 4226's recommended length), base32 as the apps want it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The 30-second step a moment falls in. */
export const totpStep = (ms: number = Date.now()) =>
  TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: ms });

/** HOTP (RFC 4226) of one counter value. */
export function hotp(secret: Buffer, counter: number, digits = TOTP_DIGITS): string {
  return HOTP.generate({ secret: secretOf(secret), algorithm: TOTP_ALGORITHM, digits, counter });
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

/** otpauth://totp/Issuer:username?issuer=…&secret=…&algorithm=SHA1&digits=6&period=30 (the key URI apps scan). */
export function otpauthUri(issuer: string, username: string, secretBase32: string): string {
  return new TOTP({
    issuer,
    label: username,
    secret: secretOf(base32Decode(secretBase32)),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).toString();
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
