// The dimensions visits are broken down by, and how a visit's profile maps onto them.

export const DIMS = {
  channel: 1,
  source: 2,
  campaign: 3,
  landingPage: 4,
  country: 5,
  device: 6,
  browser: 7,
} as const;
export type DimName = keyof typeof DIMS;
export type Dim = (typeof DIMS)[DimName];

/** The dimensions whose values come from the profile (the landing page is the visit's own). */
export const PROFILE_DIMS = [
  DIMS.channel,
  DIMS.source,
  DIMS.campaign,
  DIMS.country,
  DIMS.device,
  DIMS.browser,
];

/** The dimensions analytics can be filtered on (their pairs with every breakdown value are kept). */
export const FILTER_DIMS: ReadonlySet<number> = new Set([DIMS.channel, DIMS.campaign, DIMS.landingPage]);

/** The value of an unknown country, device or browser, and of a source of a visit without one. */
export const UNKNOWN = "(onbekend)";
export const DIRECT_SOURCE = "(direct)";
/** What UTM values and referrer hosts not (yet) stored by name are stored as (domain/admission.ts). */
export const OTHER = "(overig)";

/**
 * Sketch scope of a breakdown value (negative, apart from the site's 0 and page ids): dim in the
 * hundred millions, the value id below. Value ids stay far below 10^8 (values are admitted a bounded number a day and pruned).
 */
export function dimScope(dim: Dim, valueId: number): number {
  return -(dim * 100_000_000 + valueId);
}

export interface ProfileValues {
  channel: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  referrer_host: string;
  country: string;
  device: string;
  browser: string;
}

/** A campaign's breakdown value: [source, medium, campaign] as JSON (a value may hold " / "). */
export function campaignValue(source: string, medium: string, campaign: string): string {
  return JSON.stringify([source || DIRECT_SOURCE, medium || NO_MEDIUM, campaign]);
}
export const NO_MEDIUM = "(geen)";

/** The breakdown values of a profile, by dimension (a visit without a campaign has none). */
export function profileDimValues(p: ProfileValues): [Dim, string][] {
  const values: [Dim, string][] = [
    [DIMS.channel, p.channel],
    [DIMS.source, p.utm_source || p.referrer_host || DIRECT_SOURCE],
    [DIMS.country, p.country || UNKNOWN],
    [DIMS.device, p.device || UNKNOWN],
    [DIMS.browser, p.browser || UNKNOWN],
  ];
  if (p.utm_campaign) values.push([DIMS.campaign, campaignValue(p.utm_source, p.utm_medium, p.utm_campaign)]);
  return values;
}
