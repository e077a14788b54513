import { Secret, TOTP } from "otpauth";

/**
 * The code an authenticator app shows for a base32 secret (the one under the QR code) at a moment:
 * RFC 6238 with SHA-1, 6 digits and 30-second steps, as the otpauth:// URI says. Made here, apart
 * from the gateway's own code, so a browser test signs in as a person with the app would.
 */
export function authenticatorCode(secretBase32: string, ms: number = Date.now()): string {
  const secret = Secret.fromBase32(secretBase32);
  return TOTP.generate({ secret, algorithm: "SHA1", digits: 6, period: 30, timestamp: ms });
}
