import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

function open(key: Buffer, stored: string): string {
  const raw = Buffer.from(stored, "base64");
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("stored secret is too short");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    "utf8",
  );
}

/**
 * AES-256-GCM for secrets at rest (the mail-provider key). Every write gets a fresh random IV;
 * the stored text is base64(iv + tag + ciphertext), so a tampered value fails to decrypt.
 * `previous` keys only decrypt: they let the key be rotated (see `rewrap`).
 */
export function secretBox(key: Buffer, previous: readonly Buffer[] = []) {
  for (const k of [key, ...previous])
    if (k.length !== 32) throw new Error("the encryption key must be 32 bytes");
  const encrypt = (plain: string): string => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64");
  };
  /** Throws when the value was made with none of the keys or was altered. */
  const decrypt = (stored: string): string => {
    try {
      return open(key, stored);
    } catch (err) {
      for (const old of previous) {
        try {
          return open(old, stored);
        } catch {
          // next key
        }
      }
      throw err;
    }
  };
  return {
    encrypt,
    decrypt,
    /**
     * The value encrypted with the current key when it was made with a previous one; null when it
     * already uses the current key. Throws when no key opens it.
     */
    rewrap(stored: string): string | null {
      try {
        open(key, stored);
        return null;
      } catch {
        return encrypt(decrypt(stored));
      }
    },
  };
}
export type SecretBox = ReturnType<typeof secretBox>;
