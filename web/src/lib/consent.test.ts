import { describe, expect, it } from "vitest";
import { ACCEPT_ALL, NECESSARY_ONLY, consentCookieString, parseConsent, serializeConsent } from "./consent";

describe("cookie consent", () => {
  it("round-trips a choice through the cookie", () => {
    for (const choice of [ACCEPT_ALL, NECESSARY_ONLY, { analytics: true, marketing: false }]) {
      expect(parseConsent(`other=1; cookie_consent=${serializeConsent(choice)}; x=y`)).toEqual(choice);
    }
  });

  it("treats a missing or malformed cookie as no choice", () => {
    expect(parseConsent("")).toBeNull();
    expect(parseConsent("cookie_consent=yes")).toBeNull();
    expect(parseConsent("my_cookie_consent=v1.a1.m1")).toBeNull();
  });

  it("keeps the choice for one year on the whole site", () => {
    const cookie = consentCookieString(ACCEPT_ALL, true);
    expect(cookie).toBe("cookie_consent=v1.a1.m1; Max-Age=31536000; Path=/; SameSite=Lax; Secure");
    expect(consentCookieString(NECESSARY_ONLY, false)).not.toContain("Secure");
  });
});
