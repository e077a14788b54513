// Cookie consent of the cookie banner: which optional categories the visitor allowed.

export const CONSENT_COOKIE = "cookie_consent";
export const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export interface ConsentChoice {
  analytics: boolean;
  marketing: boolean;
}

export const ACCEPT_ALL: ConsentChoice = { analytics: true, marketing: true };
export const NECESSARY_ONLY: ConsentChoice = { analytics: false, marketing: false };

/** Compact cookie value: "v1.a1.m0". */
export function serializeConsent(choice: ConsentChoice): string {
  return `v1.a${choice.analytics ? 1 : 0}.m${choice.marketing ? 1 : 0}`;
}

/** Reads the choice from a document.cookie string; null when none (or an unreadable one) was made. */
export function parseConsent(cookieHeader: string): ConsentChoice | null {
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== CONSENT_COOKIE) continue;
    const match = /^v1\.a([01])\.m([01])$/.exec(rest.join("="));
    if (!match) return null;
    return { analytics: match[1] === "1", marketing: match[2] === "1" };
  }
  return null;
}

/** The Set-Cookie style string for document.cookie, kept for one year. */
export function consentCookieString(choice: ConsentChoice, secure: boolean): string {
  return `${CONSENT_COOKIE}=${serializeConsent(choice)}; Max-Age=${CONSENT_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${
    secure ? "; Secure" : ""
  }`;
}
