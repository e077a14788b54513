import { ActiveVisitorList, VisitorStats } from "../entities/visitor";
import {
  AD_SPEND_CSV_MAX_BYTES,
  AdSpendEntryBody,
  AdSpendImportBody,
  AdSpendImportResult,
  AdSpendList,
  AdSpendQuery,
  SpendLinkBody,
} from "../http/ad-spend";
import { CampaignReport, CampaignReportQuery } from "../http/campaign-report";
import {
  ActiveVisitorsQuery,
  Analytics,
  AnalyticsQuery,
  VisitorSeries,
  VisitorSeriesQuery,
} from "../http/tracking";
import { noContent } from "./common";
import type { ApiRoute } from "../routes";

// The tracking service's routes: visitor figures, analytics, the campaign report and the ad spend.

/** What a change of the stored ad spend may be refused with; nothing is written then. */
const SPEND_REFUSALS = {
  409: { description: "Another import is being stored (code spend_busy): try again shortly" },
  422: {
    description:
      "It would store more distinct campaigns than SPEND_CAMPAIGNS_MAX (code too_many_campaigns), refused before anything is written",
  },
  503: { description: "Not stored in its time limit (code spend_timeout); Retry-After" },
};

export const TRACKING_ROUTES = [
  {
    method: "GET",
    path: "/api/admin/visitor-stats",
    service: "tracking",
    auth: "admin",
    summary: "Live visitor counters and top pages",
    responses: { 200: { description: "Stats", schema: VisitorStats } },
  },
  {
    method: "GET",
    path: "/api/admin/active-visitors",
    service: "tracking",
    auth: "admin",
    summary: "Visitors active right now, most recently seen first, a page at a time",
    request: { query: ActiveVisitorsQuery },
    responses: {
      200: {
        description:
          "The active visitors from `offset`, at most `limit`; the X-Total-Count header counts all that are active (the visitor-stats' currentActive)",
        schema: ActiveVisitorList,
      },
    },
  },
  {
    method: "GET",
    path: "/api/admin/visitor-series",
    service: "tracking",
    auth: "admin",
    summary: "Visitors and page views over time",
    request: { query: VisitorSeriesQuery },
    responses: { 200: { description: "Time series", schema: VisitorSeries } },
  },
  {
    method: "GET",
    path: "/api/admin/analytics",
    service: "tracking",
    auth: "admin",
    summary:
      "Visitors, page views, top pages and breakdowns for any period of calendar days, optionally filtered",
    request: { query: AnalyticsQuery },
    responses: {
      200: { description: "The period's series, totals and top pages", schema: Analytics },
      400: {
        description:
          "from after to, to in the future, a period beyond the 26-month retention, or a bad filter (unknown channel, campaignSource/campaignMedium without campaign, a value too long or with control characters, a page not a path)",
      },
    },
  },
  {
    method: "GET",
    path: "/api/admin/campaign-report",
    service: "tracking",
    auth: "admin",
    summary:
      "Per campaign (source / medium / campaign) and per channel: spend, visits, quote requests, contact messages, offers, contracts, commission, rates, cost per lead and contract, ROAS, totals and the previous period (cohort: stages count in their lead's period)",
    request: { query: CampaignReportQuery },
    responses: {
      200: { description: "The report", schema: CampaignReport },
      400: { description: "from after to, to in the future, or a period beyond the retention" },
      503: {
        description:
          "Not built in its time limit (code report_timeout), or a few builds already waiting (code report_busy); Retry-After",
      },
    },
  },
  {
    method: "POST",
    path: "/api/admin/ad-spend/import",
    service: "tracking",
    auth: "admin",
    summary:
      "Import a spend export of Meta, TikTok, Snapchat or Google Ads (detected from its header); the same file again changes nothing",
    request: { body: AdSpendImportBody },
    bodyLimitBytes: AD_SPEND_CSV_MAX_BYTES,
    responses: {
      200: {
        description: "Rows stored and unchanged, and the bad rows by line",
        schema: AdSpendImportResult,
      },
      400: {
        description:
          "No known export (code unknown_format), or not one good row (code no_rows, with `errors` by line)",
      },
      ...SPEND_REFUSALS,
    },
  },
  {
    method: "POST",
    path: "/api/admin/ad-spend",
    service: "tracking",
    auth: "admin",
    summary: "Type in one day's spend of a campaign (replaces that day's)",
    request: { body: AdSpendEntryBody },
    responses: { 200: { description: "Stored", schema: AdSpendImportResult }, ...SPEND_REFUSALS },
  },
  {
    method: "GET",
    path: "/api/admin/ad-spend",
    service: "tracking",
    auth: "admin",
    summary: "Spend per platform and campaign over a period, with the utm_campaign each counts for",
    request: { query: AdSpendQuery },
    responses: { 200: { description: "The campaigns' spend", schema: AdSpendList } },
  },
  {
    method: "PUT",
    path: "/api/admin/ad-spend/links",
    service: "tracking",
    auth: "admin",
    summary: "Link a spend campaign name to the utm_campaign of its landing URLs (null removes it)",
    request: { body: SpendLinkBody },
    responses: noContent,
  },
] as const satisfies readonly ApiRoute[];
