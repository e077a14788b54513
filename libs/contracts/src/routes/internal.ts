import { CampaignReportQuery } from "../http/campaign-report";
import { InternalFirstResponseBody, InternalTrackBatch, TRACK_BATCH_PATH } from "../http/internal";
import { InternalLeadEmail, LeadEmailParams, OpenLeadsByEmailBody } from "../http/lead-emails";
import { InternalPrivacyRequest } from "../http/privacy";
import { WeeklySummaryQuery } from "../http/weekly-summary";
import { idParams } from "./common";
import type { InternalRoute } from "../routes";

// The calls between services (/internal/*, with the internal token; requireInternal in front of
// each handler) and the probes every service answers.

const privacyRequest = { body: InternalPrivacyRequest };

export const INTERNAL_ROUTES = [
  { method: "GET", path: "/healthz", service: "all" },
  { method: "GET", path: "/readyz", service: "all" },
  { method: "GET", path: "/internal/lease-requests/{id}", service: "leads", request: idParams },
  { method: "GET", path: "/internal/contact-messages/{id}", service: "leads", request: idParams },
  // A contact message answered by e-mail from the panel: its first response.
  {
    method: "PUT",
    path: "/internal/contact-messages/{id}/first-response",
    service: "leads",
    request: { params: idParams.params, body: InternalFirstResponseBody },
  },
  { method: "GET", path: "/internal/follow-ups/due", service: "leads" },
  // The mailer's notices to admins: who they are and what they chose (leads.staff).
  { method: "GET", path: "/internal/staff/{id}", service: "leads", request: idParams },
  // The weekly summary: one admin's figures of a week (leads), the week's campaigns (tracking).
  {
    method: "GET",
    path: "/internal/staff/{id}/weekly-summary",
    service: "leads",
    request: { params: idParams.params, query: WeeklySummaryQuery },
  },
  {
    method: "GET",
    path: "/internal/campaign-report",
    service: "tracking",
    request: { query: CampaignReportQuery },
  },
  { method: "GET", path: "/internal/mail-settings", service: "settings" },
  // A lead's conversation: the mailer tells leads of each e-mail of a lead, and asks which open
  // lead a reply's sender is.
  {
    method: "PUT",
    path: "/internal/lease-requests/{id}/emails/{emailId}",
    service: "leads",
    request: { params: LeadEmailParams, body: InternalLeadEmail },
  },
  {
    method: "POST",
    path: "/internal/lease-requests/open-by-email",
    service: "leads",
    request: { body: OpenLeadsByEmailBody },
  },
  { method: "GET", path: "/internal/conversion-settings", service: "settings" },
  { method: "GET", path: "/internal/lease-requests/{id}/conversion", service: "leads", request: idParams },
  {
    method: "POST",
    path: TRACK_BATCH_PATH,
    service: "tracking",
    request: { body: InternalTrackBatch },
    ownBody: "larger than the JSON reader takes, and read only once the internal token is checked",
  },
  // People's data (AVG): the gateway finds and erases an address in each service.
  { method: "POST", path: "/internal/privacy/find", service: "leads", request: privacyRequest },
  { method: "POST", path: "/internal/privacy/erase", service: "leads", request: privacyRequest },
  { method: "POST", path: "/internal/privacy/find", service: "mailer", request: privacyRequest },
  { method: "POST", path: "/internal/privacy/erase", service: "mailer", request: privacyRequest },
  { method: "POST", path: "/internal/privacy/find", service: "tracking", request: privacyRequest },
  { method: "POST", path: "/internal/privacy/erase", service: "tracking", request: privacyRequest },
] as const satisfies readonly InternalRoute[];
