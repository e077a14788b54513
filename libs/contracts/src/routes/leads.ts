import { z } from "zod";
import { LeaseRequest } from "../entities/lease-request";
import { LeadCall, LogCallBody } from "../http/calls";
import { ContactBody, ContactResponse } from "../http/contact";
import { RetryConversionsBody } from "../http/conversions";
import { SetFollowUpBody } from "../http/follow-up";
import {
  GoogleAdsFeedParam,
  GoogleAdsFeedUrl,
  GoogleAdsSettings,
  RotateGoogleAdsFeedBody,
  UpdateGoogleAdsSettingsBody,
} from "../http/google-ads";
import { LeadHistory, LeadNote, NoteBody, NoteIdParams } from "../http/lead-history";
import {
  CreateLeaseRequestBody,
  CreateLeaseRequestResponse,
  LeaseRequestExportQuery,
  LeaseRequestIdParam,
  LeaseRequestListQuery,
  LeaseRequestListResponse,
  UpdateLeaseStatusBody,
} from "../http/lease-requests";
import { ResponseReport, ResponseReportQuery } from "../http/response-report";
import {
  ResponseSettingsResponse,
  SetLeadOwnerBody,
  UpdateResponseSettingsBody,
} from "../http/response-settings";
import { idParams, noContent } from "./common";
import type { ApiRoute } from "../routes";

// The leads service's routes: quote requests and contact messages, the admin's lead list and a
// lead's status, notes, follow-up and history, the Google Ads conversion file, and who answers a lead
// and how fast (services/leads/README.md, "Owners and response times").

export const LEADS_ROUTES = [
  {
    method: "POST",
    path: "/api/lease-requests",
    service: "leads",
    auth: "public",
    summary: "Submit a quote request",
    request: { body: CreateLeaseRequestBody },
    responses: { 201: { description: "Stored", schema: CreateLeaseRequestResponse } },
  },
  {
    method: "POST",
    path: "/api/contact",
    service: "leads",
    auth: "public",
    summary: "Send a message from the contact section",
    request: { body: ContactBody },
    responses: { 201: { description: "Stored", schema: ContactResponse } },
  },
  {
    method: "GET",
    path: "/api/admin/lease-requests",
    service: "leads",
    auth: "admin",
    summary: "List lease requests, newest first, with the four counters",
    request: { query: LeaseRequestListQuery },
    responses: { 200: { description: "A page of requests", schema: LeaseRequestListResponse } },
  },
  {
    method: "GET",
    path: "/api/admin/lease-requests/export.csv",
    service: "leads",
    auth: "admin",
    summary: "All lease requests matching the filter as CSV (UTF-8 with BOM, semicolon separated)",
    request: { query: LeaseRequestExportQuery },
    responses: { 200: { description: "CSV file", contentType: "text/csv", schema: z.string() } },
  },
  {
    method: "GET",
    path: "/api/admin/lease-requests/{id}",
    service: "leads",
    auth: "admin",
    summary: "One lease request (the compose page's pre-fill)",
    request: idParams,
    responses: { 200: { description: "The request", schema: LeaseRequest } },
  },
  {
    method: "PATCH",
    path: "/api/admin/lease-requests/{id}/status",
    service: "leads",
    auth: "admin",
    summary: "Set status and read flag",
    request: { ...idParams, body: UpdateLeaseStatusBody },
    responses: {
      200: { description: "Updated request", schema: LeaseRequest },
      409: {
        description:
          "Back from a stage without moveBackFrom (stage_move_back_unconfirmed), or moveBackFrom is not the lead's stage (stage_changed_meanwhile)",
      },
    },
  },
  {
    method: "DELETE",
    path: "/api/admin/lease-requests/{id}",
    service: "leads",
    auth: "admin",
    summary: "Delete a lease request",
    request: idParams,
    responses: noContent,
  },
  {
    method: "POST",
    path: "/api/admin/lease-requests/{id}/conversions/retry",
    service: "leads",
    auth: "admin",
    summary: "Send the request's failed conversions to the ad platforms again (one platform, or every one)",
    request: { ...idParams, body: RetryConversionsBody, bodyOptional: true },
    responses: {
      200: { description: "The request, its conversions waiting again", schema: LeaseRequest },
      409: { description: "Nothing failed to send again (code nothing_to_retry)" },
    },
  },
  {
    method: "PUT",
    path: "/api/admin/lease-requests/{id}/follow-up",
    service: "leads",
    auth: "admin",
    summary: 'Set or clear the request\'s follow-up day ("Opvolgen op")',
    request: { ...idParams, body: SetFollowUpBody },
    responses: { 200: { description: "Updated request", schema: LeaseRequest } },
  },
  {
    method: "GET",
    path: "/api/admin/lease-requests/{id}/history",
    service: "leads",
    auth: "admin",
    summary: "The request's history, newest first: received, status changes (who, when) and notes",
    request: idParams,
    responses: { 200: { description: "The history", schema: LeadHistory } },
  },
  {
    method: "POST",
    path: "/api/admin/lease-requests/{id}/notes",
    service: "leads",
    auth: "admin",
    summary: "Add a note (plain text, at most 5,000 characters) as the signed-in admin",
    request: { ...idParams, body: NoteBody },
    responses: { 201: { description: "The note", schema: LeadNote } },
  },
  {
    method: "PUT",
    path: "/api/admin/lease-requests/{id}/notes/{noteId}",
    service: "leads",
    auth: "admin",
    summary: "Change a note; only its author may (403 otherwise)",
    request: { params: NoteIdParams, body: NoteBody },
    responses: {
      200: { description: "The changed note", schema: LeadNote },
      403: { description: "Another admin's note (code forbidden)" },
    },
  },
  {
    method: "DELETE",
    path: "/api/admin/lease-requests/{id}/notes/{noteId}",
    service: "leads",
    auth: "admin",
    summary: "Delete a note; only its author may (403 otherwise)",
    request: { params: NoteIdParams },
    responses: { ...noContent, 403: { description: "Another admin's note (code forbidden)" } },
  },

  // The Google Ads offline conversion file.
  {
    method: "GET",
    path: "/api/admin/google-ads-settings",
    service: "leads",
    auth: "admin",
    summary: "The Google Ads conversion names and whether a secret URL exists (never the URL)",
    responses: { 200: { description: "The settings", schema: GoogleAdsSettings } },
  },
  {
    method: "PUT",
    path: "/api/admin/google-ads-settings",
    service: "leads",
    auth: "admin",
    summary: "Set the conversion actions' names the file uses (as Google Ads names them)",
    request: { body: UpdateGoogleAdsSettingsBody },
    responses: { 200: { description: "The settings", schema: GoogleAdsSettings } },
  },
  {
    method: "POST",
    path: "/api/admin/google-ads-settings/feed-url",
    service: "leads",
    auth: "admin",
    summary:
      "Make a new secret URL for Google Ads' scheduled upload, answered this once; the previous one answers 404 at once",
    request: { body: RotateGoogleAdsFeedBody, bodyOptional: true },
    responses: { 200: { description: "The new URL's path", schema: GoogleAdsFeedUrl } },
  },
  {
    method: "GET",
    path: "/api/admin/google-ads/conversions.csv",
    service: "leads",
    auth: "admin",
    summary:
      "Google Ads' offline conversion file (click conversions template): the last 90 days' leads with a Google click id and marketing consent, their offers and contracts",
    responses: { 200: { description: "CSV file", contentType: "text/csv", schema: z.string() } },
  },
  {
    method: "GET",
    path: "/api/google-ads/conversions/{secret}.csv",
    service: "leads",
    auth: "public",
    summary:
      "The same file for Google Ads' scheduled upload, without a cookie; a wrong secret answers 404 (rate limited per address)",
    request: { params: GoogleAdsFeedParam },
    responses: {
      200: { description: "CSV file", contentType: "text/csv", schema: z.string() },
      429: { description: "Too many requests from this address" },
    },
    secretPath: true,
  },

  // Who answers a lead and how fast: owners, calls, the promised response times and their report.
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
