// The Analytics tab's filter: a click on a channel, campaign or landing page narrows the whole tab
// to the visits that match. Kept in the URL beside the tab and the period
// (?tab=analytics&periode=30d&kanaal=betaald-zoeken&campagne=najaar&campagnebron=google&campagnemedium=cpc&landingspagina=%2F),
// so a reload, a shared link and Back/Forward show the same.
import { ANALYTICS_CHANNELS, type AnalyticsChannel, type AnalyticsFilter } from "@lease/contracts";

/**
 * The channel in the address as a Dutch slug (kanaal=betaald-zoeken); the API's key
 * (kanaal=Paid+Search) is still read, so links saved before keep working.
 */
const CHANNEL_SLUGS: Readonly<Record<AnalyticsChannel, string>> = {
  Direct: "direct",
  "Organic Search": "organisch-zoeken",
  "Paid Search": "betaald-zoeken",
  "Organic Social": "organisch-sociaal",
  "Paid Social": "betaald-sociaal",
  Email: "e-mail",
  Referral: "verwijzing",
  Other: "overig",
};

function channelFromParam(value: string | null): AnalyticsChannel | undefined {
  if (!value) return undefined;
  return ANALYTICS_CHANNELS.find((channel) => CHANNEL_SLUGS[channel] === value || channel === value);
}

/** URL parameter (Dutch, like periode/van/tot) of each filter field of the API. */
const PARAMS = {
  channel: "kanaal",
  campaign: "campagne",
  campaignSource: "campagnebron",
  campaignMedium: "campagnemedium",
  page: "landingspagina",
} as const satisfies Record<keyof AnalyticsFilter, string>;
type Field = keyof typeof PARAMS;
const FIELDS = Object.keys(PARAMS) as Field[];

/** The filter the URL asks for; parameters the API would refuse are left out. */
export function filterFromParams(params: URLSearchParams): AnalyticsFilter {
  const filter: AnalyticsFilter = {};
  const text = (name: string, max: number) => {
    const value = params.get(name);
    // eslint-disable-next-line no-control-regex
    return value && value.length <= max && !/[\u0000-\u001f\u007f]/.test(value) ? value : undefined;
  };
  filter.channel = channelFromParam(params.get(PARAMS.channel));
  const campaign = text(PARAMS.campaign, 100);
  if (campaign) {
    filter.campaign = campaign;
    filter.campaignSource = text(PARAMS.campaignSource, 100);
    filter.campaignMedium = text(PARAMS.campaignMedium, 100);
  }
  const page = text(PARAMS.page, 512);
  if (page?.startsWith("/") && !/[?#]/.test(page)) filter.page = page;
  for (const field of FIELDS) if (filter[field] === undefined) delete filter[field];
  return filter;
}

/** The URL's parameters with this filter, keeping every other parameter (the tab, the period). */
export function withFilter(params: URLSearchParams, filter: AnalyticsFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const field of FIELDS) {
    const value = filter[field];
    if (value === undefined) next.delete(PARAMS[field]);
    else next.set(PARAMS[field], field === "channel" ? CHANNEL_SLUGS[value as AnalyticsChannel] : value);
  }
  return next;
}

/** The filter's fields as API query parameters (channel, campaign, ...). */
export function filterQuery(filter: AnalyticsFilter): Record<string, string> {
  const query: Record<string, string> = {};
  for (const field of FIELDS) {
    const value = filter[field];
    if (value !== undefined) query[field] = value;
  }
  return query;
}

export function isFiltered(filter: AnalyticsFilter): boolean {
  return FIELDS.some((field) => filter[field] !== undefined);
}

/** One removable part of a filter: its Dutch label, and the filter without it. */
export interface FilterChip {
  key: "channel" | "campaign" | "page";
  label: string;
  without: AnalyticsFilter;
}

export function filterChips(
  filter: AnalyticsFilter,
  labels: { channel: (v: string) => string; page: (v: string) => string },
): FilterChip[] {
  const chips: FilterChip[] = [];
  if (filter.channel)
    chips.push({
      key: "channel",
      label: `kanaal ${labels.channel(filter.channel)}`,
      without: { ...filter, channel: undefined },
    });
  if (filter.campaign) {
    const parts = [filter.campaignSource, filter.campaignMedium, filter.campaign].filter(Boolean);
    chips.push({
      key: "campaign",
      label: `campagne ${parts.join(" / ")}`,
      without: { ...filter, campaign: undefined, campaignSource: undefined, campaignMedium: undefined },
    });
  }
  if (filter.page)
    chips.push({
      key: "page",
      label: `landingspagina ${labels.page(filter.page)}`,
      without: { ...filter, page: undefined },
    });
  return chips;
}
