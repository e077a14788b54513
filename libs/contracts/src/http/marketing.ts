import { z } from "zod";
import { httpUrl } from "./fields";

/**
 * The click ids an ad platform appends to its landing URLs. The page keeps them (in memory, and in
 * the tab's session storage only with marketing consent) and sends them with a quote request only
 * when the visitor gave marketing consent; the lead keeps them only then, to send its conversions.
 */
export const CLICK_ID_PARAMS = ["gclid", "gbraid", "wbraid", "fbclid", "ttclid", "ScCid"] as const;
export type ClickIdParam = (typeof CLICK_ID_PARAMS)[number];

const CLICK_ID_MESSAGE = "Een klik-id van de advertentie is ongeldig";
const clickId = z
  .string({ error: CLICK_ID_MESSAGE })
  .regex(/^[A-Za-z0-9._~-]{1,500}$/, { error: CLICK_ID_MESSAGE })
  .optional();

export const FormClickIds = z
  .strictObject({
    gclid: clickId,
    gbraid: clickId,
    wbraid: clickId,
    fbclid: clickId,
    ttclid: clickId,
    ScCid: clickId,
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

/** What a quote form adds about marketing: the page's consent, and with it the ids for the ad platforms. */
export const FormMarketing = {
  marketingConsent: z
    .boolean({ error: "marketingConsent is true of false" })
    .optional()
    .describe(
      "The visitor's marketing consent as the page knows it; without true no click id is kept and nothing is sent to an ad platform",
    ),
  clickIds: FormClickIds.optional(),
  eventId: z
    .uuid({ error: "eventId is een UUID" })
    .optional()
    .describe("The id of the browser pixel's Lead event, so the server's event is counted once with it"),
  pageUrl: httpUrl("pageUrl is een http(s)-adres")
    .optional()
    .describe("The page the form was sent from (without query), the platforms' event_source_url"),
};
