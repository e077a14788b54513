// Where a visit came from, read from its first page view: the referrer's host, the UTM parameters
// of the landing URL, whether it carried a paid-click id, and the channel these add up to.
//
// Channel rules, in the spirit of Google Analytics 4's default channel grouping, checked in this
// order (the first that matches wins):
//   Paid Search     a search engine source (or a Google/Microsoft click id) with a paid medium
//                   (cpc, ppc, paid*, retargeting, *cp*), or a Google/Microsoft click id alone
//   Paid Social     a social source with a paid medium, or the click id of a social platform's ad
//                   (TikTok, Snapchat, X, LinkedIn) without another medium
//   Email           source or medium "email", "e-mail", "e_mail", "e mail", "newsletter", "nieuwsbrief"
//   Organic Search  a search engine source or referrer, without a paid medium
//   Organic Social  a social source or referrer, or a social medium (social, social-network, sm, ...)
//   Referral        medium referral, app or link, or any other referrer without UTM parameters
//   Direct          no source, no medium and no referrer
//   Other           anything else (UTM-tagged traffic none of the rules above describes: display,
//                   affiliate, print, ...)

export const CHANNELS = [
  "Direct",
  "Organic Search",
  "Paid Search",
  "Organic Social",
  "Paid Social",
  "Email",
  "Referral",
  "Other",
] as const;
export type Channel = (typeof CHANNELS)[number];

export interface Acquisition {
  /** Host of the referrer without "www.", "" for none or the site itself. */
  referrerHost: string;
  source: string;
  medium: string;
  campaign: string;
  term: string;
  content: string;
  /** The landing URL carried an ad platform's click id (CLICK_IDS; only the fact is kept). */
  paidClick: boolean;
  /**
   * Which platform's click id: all but Meta's mean an ad click (Meta adds fbclid to organic links
   * too); Google's and Microsoft's a search ad, the others a social one.
   */
  clickIdFrom?: ClickIdPlatform;
}

const SEARCH = [
  "google",
  "bing",
  "yahoo",
  "duckduckgo",
  "ecosia",
  "baidu",
  "yandex",
  "startpage",
  "qwant",
  "ask",
  "aol",
  "search.brave",
  "brave",
  "seznam",
  "naver",
];
const SOCIAL = [
  "facebook",
  "fb",
  "instagram",
  "linkedin",
  "lnkd",
  "twitter",
  "t.co",
  "x.com",
  "tiktok",
  "pinterest",
  "reddit",
  "youtube",
  "whatsapp",
  "snapchat",
  "threads",
  "messenger",
  "telegram",
];
const PAID_MEDIUM = /^(.*cp.*|ppc|retargeting|paid.*)$/;
const EMAIL = /^(email|e-mail|e_mail|e mail|newsletter|nieuwsbrief|mail)$/;
const SOCIAL_MEDIUM = /^(social|social-network|social-media|sm|social network|social media)$/;
const REFERRAL_MEDIUM = /^(referral|app|link)$/;

/**
 * Does a source or host name a site of the list? "google", "www.google.nl", "lm.facebook.com" and
 * "t.co" do; "reddit.com" is not "t.co" and "maxx.nl" is not "x".
 */
function isOneOf(value: string, names: string[]): boolean {
  if (!value) return false;
  const host = value.toLowerCase();
  const labels = host.split(".");
  return names.some((name) =>
    name.includes(".") ? host === name || host.endsWith(`.${name}`) : labels.includes(name),
  );
}

/** The channel of a visit, from its acquisition (see the rules at the top of this file). */
export function channelOf(a: Acquisition): Channel {
  const source = a.source.toLowerCase();
  const medium = a.medium.toLowerCase();
  const from = source || a.referrerHost;
  const paidMedium = PAID_MEDIUM.test(medium);
  const adClick = a.paidClick && (a.clickIdFrom === "google" || a.clickIdFrom === "microsoft");
  const socialAdClick = a.paidClick && SOCIAL_AD_CLICK_IDS.has(a.clickIdFrom);
  const search = isOneOf(from, SEARCH) || adClick;
  const social = isOneOf(from, SOCIAL) || a.clickIdFrom === "meta" || socialAdClick;
  if (search && (paidMedium || (adClick && !medium))) return "Paid Search";
  if (social && (paidMedium || (socialAdClick && !medium))) return "Paid Social";
  if (EMAIL.test(source) || EMAIL.test(medium)) return "Email";
  if (search && !paidMedium && (!medium || medium === "organic")) return "Organic Search";
  if ((social && !paidMedium) || SOCIAL_MEDIUM.test(medium)) return "Organic Social";
  if (REFERRAL_MEDIUM.test(medium) || (!source && !medium && a.referrerHost)) return "Referral";
  if (!source && !medium && !a.referrerHost && !a.campaign) return "Direct";
  return "Other";
}

export type ClickIdPlatform = "google" | "microsoft" | "meta" | "tiktok" | "snapchat" | "x" | "linkedin";

/**
 * The click ids ad platforms add to their landing URLs (names compared without case: Snapchat
 * writes ScCid, some tools sccid): every one makes the visit a paid click. The page keeps the ones
 * conversions are sent for (CLICK_ID_PARAMS in libs/contracts); these are only recognised here.
 */
export const CLICK_IDS: ReadonlyMap<string, ClickIdPlatform> = new Map([
  ["gclid", "google"],
  ["gbraid", "google"],
  ["wbraid", "google"],
  ["dclid", "google"],
  ["msclkid", "microsoft"],
  ["fbclid", "meta"],
  ["ttclid", "tiktok"],
  ["sccid", "snapchat"],
  ["twclid", "x"],
  ["li_fat_id", "linkedin"],
]);
/** Click ids that only a social platform's ad carries. */
const SOCIAL_AD_CLICK_IDS: ReadonlySet<ClickIdPlatform | undefined> = new Set([
  "tiktok",
  "snapchat",
  "x",
  "linkedin",
]);
/** Longest UTM value kept; longer ones are cut. */
export const UTM_MAX = 100;

/** Invisible formatting (soft hyphen, zero-width, direction marks and overrides, BOM): removed. */
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * A UTM value as stored: '' when it holds control characters; invisible formatting characters
 * removed (they make a made-up name look like a real one), runs of spaces one space, trimmed, at
 * most 100 characters (never half a surrogate pair).
 */
export function utmValue(raw: string | null): string {
  if (!raw) return "";
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw)) return "";
  const cut = raw.replace(INVISIBLE, "").replace(/\s+/g, " ").trim().slice(0, UTM_MAX);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * The acquisition of a visit from its landing page as sent (path and query) and its referrer host.
 * Query values are decoded; a query that cannot be read counts as none.
 */
export function acquisitionOf(page: string, referrerHost: string): Acquisition {
  const q = page.indexOf("?");
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(q === -1 ? "" : page.slice(q + 1).split("#")[0]);
  } catch {
    params = new URLSearchParams();
  }
  let clickIdFrom: Acquisition["clickIdFrom"];
  for (const [name, value] of params) {
    const from = CLICK_IDS.get(name.toLowerCase());
    if (!from || value === "") continue;
    // An ad click id says more than fbclid; of two ad click ids the first counts.
    if (clickIdFrom === undefined || (clickIdFrom === "meta" && from !== "meta")) clickIdFrom = from;
  }
  return {
    referrerHost,
    source: utmValue(params.get("utm_source")).toLowerCase(),
    medium: utmValue(params.get("utm_medium")).toLowerCase(),
    campaign: utmValue(params.get("utm_campaign")),
    term: utmValue(params.get("utm_term")),
    content: utmValue(params.get("utm_content")),
    paidClick: clickIdFrom !== undefined,
    clickIdFrom,
  };
}
