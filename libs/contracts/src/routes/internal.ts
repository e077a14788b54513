import { CampaignReport, CampaignReportQuery } from "../http/campaign-report";
import { InternalConversionSettings, InternalLeadConversion } from "../http/conversions";
import { InternalFollowUpsDue, InternalStaff } from "../http/follow-up";
import {
  HealthAnswer,
  InternalContactMessage,
  InternalFirstResponseBody,
  InternalLeaseRequest,
  InternalMailSettings,
  InternalTrackBatch,
  InternalTrackBatchResult,
  ReadinessAnswer,
  TRACK_BATCH_PATH,
} from "../http/internal";
import {
  InternalLeadEmail,
  LeadEmailParams,
  OpenLeadsByEmail,
  OpenLeadsByEmailBody,
} from "../http/lead-emails";
import { InternalPrivacyErased, InternalPrivacyFound, InternalPrivacyRequest } from "../http/privacy";
import { InternalWeeklySummary, WeeklySummaryQuery } from "../http/weekly-summary";
import { idParams, noContent } from "./common";
import type { InternalRoute } from "../routes";

// The calls between services (/internal/*, with the internal token; requireInternal in front of
// each handler) and the probes every service answers. Each declares its answers as the public
// routes do: in tests every answer is held against them (libs/platform/src/route-answers.ts), and
// the calling service parses the answer with the same schema.

const privacyRequest = { body: InternalPrivacyRequest };
const found = { 200: { description: "What the service holds, per kind", schema: InternalPrivacyFound } };
const erased = {
  200: { description: "Rows removed per kind, and the jobs that named them", schema: InternalPrivacyErased },
};
const noLead = { 404: { description: "No such lease request (code not_found)" } };
const noStaff = { 404: { description: "No such admin (code not_found)" } };

export const INTERNAL_ROUTES = [
  {
    method: "GET",
    path: "/healthz",
    service: "all",
    responses: { 200: { description: "Alive", schema: HealthAnswer } },
  },
  {
    method: "GET",
    path: "/readyz",
    service: "all",
    responses: {
      200: { description: "PostgreSQL and Redis answer", schema: ReadinessAnswer },
      503: { description: "A dependency does not answer", schema: ReadinessAnswer },
    },
  },
  {
    method: "GET",
    path: "/internal/lease-requests/{id}",
    service: "leads",
    request: idParams,
    responses: { 200: { description: "The lease request", schema: InternalLeaseRequest }, ...noLead },
  },
  {
    method: "GET",
    path: "/internal/contact-messages/{id}",
    service: "leads",
    request: idParams,
    responses: {
      200: { description: "The contact message", schema: InternalContactMessage },
      404: { description: "No such contact message (code not_found)" },
    },
  },
  // A contact message answered by e-mail from the panel: its first response.
  {
    method: "PUT",
    path: "/internal/contact-messages/{id}/first-response",
    service: "leads",
    request: { params: idParams.params, body: InternalFirstResponseBody },
    responses: { ...noContent, 404: { description: "No such contact message (code not_found)" } },
  },
  {
    method: "GET",
    path: "/internal/follow-ups/due",
    service: "leads",
    responses: { 200: { description: "How many are due today or earlier", schema: InternalFollowUpsDue } },
  },
  // The mailer's notices to admins: who they are and what they chose (leads.staff).
  {
    method: "GET",
    path: "/internal/staff/{id}",
    service: "leads",
    request: idParams,
    responses: { 200: { description: "The admin's address and choices", schema: InternalStaff }, ...noStaff },
  },
  // The weekly summary: one admin's figures of a week (leads), the week's campaigns (tracking).
  {
    method: "GET",
    path: "/internal/staff/{id}/weekly-summary",
    service: "leads",
    request: { params: idParams.params, query: WeeklySummaryQuery },
    responses: { 200: { description: "The week's figures", schema: InternalWeeklySummary }, ...noStaff },
  },
  {
    method: "GET",
    path: "/internal/campaign-report",
    service: "tracking",
    request: { query: CampaignReportQuery },
    responses: { 200: { description: "The campaign report of the period", schema: CampaignReport } },
  },
  {
    method: "GET",
    path: "/internal/mail-settings",
    service: "settings",
    responses: {
      200: {
        description: "The decrypted provider key, the sender and the company",
        schema: InternalMailSettings,
      },
    },
  },
  // A lead's conversation: the mailer tells leads of each e-mail of a lead, and asks which open
  // lead a reply's sender is.
  {
    method: "PUT",
    path: "/internal/lease-requests/{id}/emails/{emailId}",
    service: "leads",
    request: { params: LeadEmailParams, body: InternalLeadEmail },
    responses: {
      ...noContent,
      404: { description: "No such lease request, or the e-mail is not the path's (code not_found)" },
    },
  },
  {
    method: "POST",
    path: "/internal/lease-requests/open-by-email",
    service: "leads",
    request: { body: OpenLeadsByEmailBody },
    responses: { 200: { description: "The open leads with the address", schema: OpenLeadsByEmail } },
  },
  {
    method: "GET",
    path: "/internal/conversion-settings",
    service: "settings",
    responses: {
      200: { description: "The ad platforms' settings, keys decrypted", schema: InternalConversionSettings },
    },
  },
  {
    method: "GET",
    path: "/internal/lease-requests/{id}/conversion",
    service: "leads",
    request: idParams,
    responses: {
      200: { description: "What the lead's conversions are sent with", schema: InternalLeadConversion },
      ...noLead,
    },
  },
  {
    method: "POST",
    path: TRACK_BATCH_PATH,
    service: "tracking",
    request: { body: InternalTrackBatch },
    ownBody: "larger than the JSON reader takes, and read only once the internal token is checked",
    responses: { 200: { description: "One answer per beacon, in order", schema: InternalTrackBatchResult } },
  },
  // People's data (AVG): the gateway finds and erases an address in each service.
  {
    method: "POST",
    path: "/internal/privacy/find",
    service: "leads",
    request: privacyRequest,
    responses: found,
  },
  {
    method: "POST",
    path: "/internal/privacy/erase",
    service: "leads",
    request: privacyRequest,
    responses: erased,
  },
  {
    method: "POST",
    path: "/internal/privacy/find",
    service: "mailer",
    request: privacyRequest,
    responses: found,
  },
  {
    method: "POST",
    path: "/internal/privacy/erase",
    service: "mailer",
    request: privacyRequest,
    responses: erased,
  },
  {
    method: "POST",
    path: "/internal/privacy/find",
    service: "tracking",
    request: privacyRequest,
    responses: found,
  },
  {
    method: "POST",
    path: "/internal/privacy/erase",
    service: "tracking",
    request: privacyRequest,
    responses: erased,
  },
] as const satisfies readonly InternalRoute[];
