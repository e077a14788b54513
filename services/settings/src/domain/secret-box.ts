import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets at rest (the mail-provider key). Every write gets a fresh random IV;
 * the stored text is base64(iv + tag + ciphertext), so a tampered value fails to decrypt.
 */
export function secretBox(key: Buffer) {
  if (key.length !== 32) throw new Error("the encryption key must be 32 bytes");
  return {
    encrypt(plain: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64");
    },
    /** Throws when the value was not made with this key or was altered. */
    decrypt(stored: string): string {
      const raw = Buffer.from(stored, "base64");
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("stored secret is too short");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        "utf8",
      );
    },
  };
}
export type SecretBox = ReturnType<typeof secretBox>;
