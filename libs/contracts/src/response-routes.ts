import { LeaseRequest } from "./entities/lease-request";
import { LeadCall, LogCallBody } from "./http/calls";
import { LeaseRequestIdParam } from "./http/lease-requests";
import {
  ResponseSettingsResponse,
  SetLeadOwnerBody,
  UpdateResponseSettingsBody,
} from "./http/response-settings";
import { ResponseReport, ResponseReportQuery } from "./http/response-report";
import type { ApiRoute } from "./routes";
import { z } from "zod";

// Who answers a lead and how fast (services/leads/README.md, "Owners and response times"): the
// routes live apart from routes.ts so this part of the API reads as one.

export const RESPONSE_ROUTES = [
  {
    method: "GET",
    path: "/api/admin/response-settings",
    service: "leads",
    auth: "admin",
    summary: "How new leads are assigned, the promised response times and the working hours they count in",
    responses: {
      200: {
        description: "The settings (the site's promises until saved)",
        schema: ResponseSettingsResponse,
      },
    },
  },
  {
    method: "PUT",
    path: "/api/admin/response-settings",
    service: "leads",
    auth: "admin",
    summary: "Save the assignment rule, the promises and the working hours (audited: the fields changed)",
    request: { body: UpdateResponseSettingsBody },
    responses: { 200: { description: "Saved", schema: ResponseSettingsResponse } },
  },

  {
    method: "PATCH",
    path: "/api/admin/lease-requests/{id}/owner",
    service: "leads",
    auth: "admin",
    summary: "Reassign a lease request to another active admin (audited, on its timeline)",
    request: { params: LeaseRequestIdParam, body: SetLeadOwnerBody },
    responses: {
      200: { description: "The lease request", schema: LeaseRequest },
      404: { description: "No such lease request" },
      409: { description: "The admin is disabled or removed (code owner_inactive)" },
    },
  },

  {
    method: "POST",
    path: "/api/admin/lease-requests/{id}/calls",
    service: "leads",
    auth: "admin",
    summary:
      "Log a call to the customer (bereikt, geen_gehoor, voicemail, verkeerd_nummer; an optional note): on the timeline and audited; bereikt is a first response",
    request: { params: LeaseRequestIdParam, body: LogCallBody },
    responses: {
      201: { description: "Logged", schema: LeadCall },
      404: { description: "No such lease request" },
    },
  },

  {
    method: "GET",
    path: "/api/admin/response-report",
    service: "leads",
    auth: "admin",
    summary:
      "How the promised response times were kept: the quote requests of a period per Amsterdam week, owner, channel and campaign (median and p90 time to the first response in working and clock minutes, share within the promise, never answered)",
    request: { query: ResponseReportQuery },
    responses: {
      200: { description: "The report", schema: ResponseReport },
      400: { description: "A bad date, from after to, a period over two years or ending after today" },
    },
  },
  {
    method: "GET",
    path: "/api/admin/response-report.csv",
    service: "leads",
    auth: "admin",
    summary:
      "The response report as CSV (UTF-8 with BOM, semicolon separated): a row per week, owner, channel, campaign and the total",
    request: { query: ResponseReportQuery },
    responses: {
      200: { description: "CSV file", contentType: "text/csv", schema: z.string() },
      400: { description: "A bad date, from after to, a period over two years or ending after today" },
    },
  },
] as const satisfies readonly ApiRoute[];
