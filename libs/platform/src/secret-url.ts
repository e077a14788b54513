import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// A URL that works without a cookie because its path holds a secret (Google Ads' scheduled upload,
// SendGrid's Inbound Parse): 32 random bytes, base64url. Only its SHA-256 is stored, so the secret
// is shown once, when made, and a copy of the database does not open the URL.

export function newUrlSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString("base64url");
  return { secret, hash: urlSecretHash(secret) };
}

export const urlSecretHash = (secret: string): string => createHash("sha256").update(secret).digest("hex");

/**
 * Whether a URL's secret is the stored one: only a value of the secrets' shape (`pattern`) is
 * considered, compared in constant time, and false without a stored hash.
 */
export function urlSecretMatches(secret: string, storedHash: string | null, pattern: RegExp): boolean {
  if (!pattern.test(secret)) return false;
  const given = createHash("sha256").update(secret).digest();
  const stored = storedHash ? Buffer.from(storedHash, "hex") : Buffer.alloc(given.length);
  return stored.length === given.length && timingSafeEqual(given, stored) && storedHash !== null;
}
