import { describe, expect, it } from "vitest";
import { acquisitionOf, channelOf, utmValue, type Channel } from "./acquisition";

/** [landing page as sent, referrer host, expected channel] */
const CASES: [string, string, Channel][] = [
  ["/", "", "Direct"],
  ["/financiele-lease", "", "Direct"],
  ["/?foo=bar", "", "Direct"],
  ["/", "google.nl", "Organic Search"],
  ["/", "google.com", "Organic Search"],
  ["/", "bing.com", "Organic Search"],
  ["/", "duckduckgo.com", "Organic Search"],
  ["/", "ecosia.org", "Organic Search"],
  ["/?utm_source=google&utm_medium=organic", "", "Organic Search"],
  [
    "/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=najaar&gclid=X",
    "google.com",
    "Paid Search",
  ],
  ["/?utm_source=bing&utm_medium=ppc", "", "Paid Search"],
  ["/?gclid=abc", "", "Paid Search"],
  ["/?gbraid=abc", "google.nl", "Paid Search"],
  ["/?msclkid=abc", "bing.com", "Paid Search"],
  ["/?utm_source=google&utm_medium=paid_search", "", "Paid Search"],
  ["/", "facebook.com", "Organic Social"],
  ["/", "lm.facebook.com", "Organic Social"],
  ["/", "linkedin.com", "Organic Social"],
  ["/", "t.co", "Organic Social"],
  ["/", "x.com", "Organic Social"],
  ["/?utm_source=x", "", "Other"],
  ["/?fbclid=abc", "", "Organic Social"],
  ["/?utm_source=nieuwsbrief-oktober&utm_medium=social", "", "Organic Social"],
  ["/?utm_source=facebook&utm_medium=cpc&fbclid=abc", "facebook.com", "Paid Social"],
  ["/?utm_source=linkedin&utm_medium=paid_social", "", "Paid Social"],
  ["/?utm_source=instagram&utm_medium=paid", "", "Paid Social"],
  ["/?utm_source=mailchimp&utm_medium=email&utm_campaign=okt", "", "Email"],
  ["/?utm_source=nieuwsbrief&utm_medium=e-mail", "", "Email"],
  ["/?utm_source=newsletter", "", "Email"],
  ["/", "autoscout24.nl", "Referral"],
  ["/", "reddit.com", "Organic Social"],
  ["/", "kit.co", "Referral"],
  ["/?utm_source=partner&utm_medium=referral", "", "Referral"],
  ["/?utm_source=partner", "", "Other"],
  ["/?utm_source=dpg&utm_medium=display", "", "Other"],
  ["/?utm_source=telegraaf&utm_medium=cpm", "telegraaf.nl", "Other"],
  ["/?utm_campaign=zomer", "", "Other"],
  // A social platform's ad click id alone is a paid social visit; with a medium the medium counts.
  ["/?ttclid=E.C.P.abc", "", "Paid Social"],
  ["/?ScCid=abc", "", "Paid Social"],
  ["/?sccid=abc", "snapchat.com", "Paid Social"],
  ["/?utm_source=tiktok&utm_medium=paid&ttclid=abc", "", "Paid Social"],
  ["/?utm_source=tiktok&utm_medium=social&ttclid=abc", "", "Organic Social"],
  ["/?li_fat_id=abc", "linkedin.com", "Paid Social"],
  ["/?twclid=abc", "", "Paid Social"],
];

describe("the channel of a visit (GA4-like rules)", () => {
  it.each(CASES)("%s from %j is %s", (page, referrerHost, channel) => {
    expect(channelOf(acquisitionOf(page, referrerHost))).toBe(channel);
  });
});

describe("acquisition from the landing URL", () => {
  it("keeps the UTM values and only the fact of a paid click id", () => {
    const a = acquisitionOf(
      "/financiele-lease?utm_source=Google&utm_medium=CPC&utm_campaign=Najaar%202026&utm_term=lease%20auto&utm_content=b&gclid=SECRET",
      "google.com",
    );
    expect(a).toEqual({
      referrerHost: "google.com",
      source: "google",
      medium: "cpc",
      campaign: "Najaar 2026",
      term: "lease auto",
      content: "b",
      paidClick: true,
      clickIdFrom: "google",
    });
    expect(JSON.stringify(a)).not.toContain("SECRET");
  });

  it.each([
    "gclid",
    "gbraid",
    "wbraid",
    "dclid",
    "msclkid",
    "fbclid",
    "ttclid",
    "ScCid",
    "sccid",
    "twclid",
    "li_fat_id",
  ])("counts a landing URL with %s as a paid click", (name) => {
    expect(acquisitionOf(`/financiele-lease?utm_source=x&${name}=abc123`, "").paidClick).toBe(true);
  });

  it("counts no paid click for an empty click id or a parameter that only looks like one", () => {
    for (const page of [
      "/?ttclid=",
      "/?gclid_x=1",
      "/?constructor=1",
      "/?__proto__=1",
      "/?utm_source=ttclid",
    ])
      expect(acquisitionOf(page, "").paidClick, page).toBe(false);
  });

  it("trims values, cuts them at 100 characters and refuses control characters", () => {
    expect(utmValue("  najaar ")).toBe("najaar");
    expect(utmValue("x".repeat(150))).toHaveLength(100);
    expect(utmValue("a\u0000b")).toBe("");
    expect(utmValue("a\nb")).toBe("");
    // Invisible formatting removed, spaces collapsed, never half a surrogate pair.
    expect(utmValue("naj\u200baar\u202e  2026\ufeff")).toBe("najaar 2026");
    expect(utmValue(`${"x".repeat(99)}😀`)).toBe("x".repeat(99));
    expect(acquisitionOf("/?utm_campaign=%0Aevil", "").campaign).toBe("");
    expect(acquisitionOf("/?utm_source=%zz", "").source).toBe("%zz");
  });
});
