import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Secrets the gateway keeps in its database (the admins' TOTP secrets) are encrypted with
// AES-256-GCM under a key derived (HKDF-SHA256) from JWT_SECRET, so a copy of the database alone
// does not reveal them. Stored as "v1.<iv>.<tag>.<ciphertext>" (base64url).

export interface SecretBox {
  seal(plain: string): string;
  /** Undefined when the value was not sealed with this key (e.g. JWT_SECRET rotated). */
  open(sealed: string): string | undefined;
}

export function secretBox(masterSecret: string, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", masterSecret, "lease-gateway", purpose, 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || data === undefined) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        return undefined;
      }
    },
  };
}
