import { z } from "zod";
import { httpUrl } from "./fields";

/**
 * The click ids an ad platform appends to its landing URLs. The page keeps them (in memory, and in
 * the tab's session storage only with marketing consent) and sends them with a quote request only
 * when the visitor gave marketing consent; the lead keeps them only then, to send its conversions.
 */
export const CLICK_ID_PARAMS = ["gclid", "gbraid", "wbraid", "fbclid", "ttclid", "ScCid"] as const;
export type ClickIdParam = (typeof CLICK_ID_PARAMS)[number];

/**
 * Google's click ids (gclid, gbraid, wbraid): the characters Google issues (base64url: letters,
 * digits, "-" and "_"), never a "-" first, which a spreadsheet reads as a formula (they go into the
 * Google Ads conversion file). The web page keeps only ids that match (web/src/lib/constants.ts).
 */
export const GOOGLE_CLICK_ID_REGEX = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,499}$/;
/** The other platforms' click ids: URL-safe characters, never a "-" first either. */
export const CLICK_ID_REGEX = /^[A-Za-z0-9._~][A-Za-z0-9._~-]{0,499}$/;

const CLICK_ID_MESSAGE = "Een klik-id van de advertentie is ongeldig";
const clickId = (pattern: RegExp) =>
  z.string({ error: CLICK_ID_MESSAGE }).regex(pattern, { error: CLICK_ID_MESSAGE }).optional();

export const FormClickIds = z
  .strictObject({
    gclid: clickId(GOOGLE_CLICK_ID_REGEX),
    gbraid: clickId(GOOGLE_CLICK_ID_REGEX),
    wbraid: clickId(GOOGLE_CLICK_ID_REGEX),
    fbclid: clickId(CLICK_ID_REGEX),
    ttclid: clickId(CLICK_ID_REGEX),
    ScCid: clickId(CLICK_ID_REGEX),
    clickedAt: z
      .number({ error: "clickedAt is een tijdstip in milliseconden" })
      .int({ error: "clickedAt is een tijdstip in milliseconden" })
      .min(1_500_000_000_000, { error: "clickedAt is een tijdstip in milliseconden" })
      .max(9_999_999_999_999, { error: "clickedAt is een tijdstip in milliseconden" })
      .optional()
      .describe("When the visitor landed from the ad (ms since 1970): Meta's fbc carries it"),
  })
  .describe("Click ids of the landing URL; only with marketing consent");
export type FormClickIds = z.infer<typeof FormClickIds>;

/**
 * The Meta pixel's browser id, its _fbp cookie: fb.<subdomain index>.<ms of creation>.<random>
 * (developers.facebook.com/docs/marketing-api/conversions-api/parameters/fbp-and-fbc). The page
 * sends only a value of this shape, so a quote request is never refused for a strange cookie.
 */
export const FBP_REGEX = /^fb\.[0-2]\.\d{10,13}\.\d{1,20}$/;

/** What a quote form adds about marketing: the page's consent, and with it the ids for the ad platforms. */
export const FormMarketing = {
  marketingConsent: z
    .boolean({ error: "marketingConsent is true of false" })
    .optional()
    .describe(
      "The visitor's marketing consent as the page knows it; without true no click id is kept and nothing is sent to an ad platform",
    ),
  clickIds: FormClickIds.optional(),
  fbp: z
    .string({ error: "fbp is het _fbp-cookie van de Meta-pixel" })
    .regex(FBP_REGEX, { error: "fbp is het _fbp-cookie van de Meta-pixel (fb.1.<tijd>.<getal>)" })
    .optional()
    .describe("The Meta pixel's _fbp cookie (marketing consent only): Meta's fbp match key"),
  eventId: z
    .uuid({ error: "eventId is een UUID" })
    .optional()
    .describe("The id of the browser pixel's Lead event, so the server's event is counted once with it"),
  pageUrl: httpUrl("pageUrl is een http(s)-adres")
    .optional()
    .describe("The page the form was sent from (without query), the platforms' event_source_url"),
};
