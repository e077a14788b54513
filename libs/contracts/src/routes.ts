import { z } from "zod";
import { ActiveVisitorList, VisitorStats } from "./entities/visitor";
import { AdminCompanySettings, PublicCompanySettings } from "./entities/company-settings";
import { EmailMessageList } from "./entities/email-message";
import { ThemeSettings } from "./entities/theme-settings";
import { AdminSession, LoginBody } from "./http/auth";
import { AuditLogPage, AuditLogQuery } from "./http/audit-log";
import {
  AdminAccount,
  UpdateAccountBody,
  AdminUser,
  AdminUserIdParam,
  AdminUserList,
  ChangePasswordBody,
  CreateAdminUserBody,
  TotpSetupBody,
  CreatedAdminUser,
  LoginNewPasswordBody,
  LoginResponse,
  LoginTotpBody,
  RecoveryCodes,
  TotpCodeBody,
  TotpDisableBody,
  TotpSetup,
  UpdateAdminUserBody,
} from "./http/admin-users";
import { ContactBody, ContactResponse } from "./http/contact";
import {
  CancelEmailResponse,
  EmailAttachmentParams,
  EmailIdParam,
  EmailListQuery,
  EmailSettingsTestResponse,
  RetryEmailResponse,
  SendEmailBody,
  SendEmailResponse,
} from "./http/emails";
import {
  CreateLeaseRequestBody,
  CreateLeaseRequestResponse,
  LeaseRequestIdParam,
  LeaseRequestExportQuery,
  LeaseRequestListQuery,
  LeaseRequestListResponse,
  UpdateLeaseStatusBody,
} from "./http/lease-requests";
import { SetFollowUpBody } from "./http/follow-up";
import { CampaignReport, CampaignReportQuery } from "./http/campaign-report";
import { WeeklySummaryQuery } from "./http/weekly-summary";
import {
  AD_SPEND_CSV_MAX_BYTES,
  AdSpendEntryBody,
  AdSpendImportBody,
  AdSpendImportResult,
  AdSpendList,
  AdSpendQuery,
  SpendLinkBody,
} from "./http/ad-spend";
import {
  InternalPrivacyRequest,
  PrivacyErasure,
  PrivacyEraseBody,
  PrivacyExport,
  PrivacySearchBody,
  PrivacySummary,
} from "./http/privacy";
import { LeadHistory, LeadNote, NoteBody, NoteIdParams } from "./http/lead-history";
import { UpdateCompanySettingsBody, UpdateThemeSettingsBody } from "./http/settings";
import { InternalFirstResponseBody, InternalTrackBatch, TRACK_BATCH_PATH } from "./http/internal";
import { InternalLeadEmail, LeadEmailParams, OpenLeadsByEmailBody } from "./http/lead-emails";
import {
  Analytics,
  AnalyticsQuery,
  TrackHeartbeatBody,
  TrackVisitBody,
  VisitorSeries,
  VisitorSeriesQuery,
  ActiveVisitorsQuery,
} from "./http/tracking";
import { LeaseRequest } from "./entities/lease-request";
import {
  ConversionPlatformParam,
  ConversionSettings,
  ConversionTestBody,
  ConversionTestResult,
  RetryConversionsBody,
  UpdateConversionSettingsBody,
} from "./http/conversions";
import {
  GoogleAdsFeedParam,
  GoogleAdsFeedUrl,
  GoogleAdsSettings,
  RotateGoogleAdsFeedBody,
  UpdateGoogleAdsSettingsBody,
} from "./http/google-ads";
import { EmailDetail, EmailMessage } from "./entities/email-message";
import {
  EmailTemplate,
  EmailTemplateBody,
  EmailTemplateIdParam,
  EmailTemplateList,
} from "./http/email-templates";
import {
  EmailSettings,
  INBOUND_BODY_LIMIT_BYTES,
  InboundParseResponse,
  InboundSecretParam,
  InboundUrl,
  RotateInboundUrlBody,
  UpdateInboundBody,
  EVENT_WEBHOOK_BODY_LIMIT_BYTES,
  EventBatchResponse,
  UpdateEventWebhookBody,
} from "./http/inbound-mail";
import { RESPONSE_ROUTES } from "./response-routes";

export const SERVICES = ["gateway", "leads", "settings", "tracking", "mailer", "conversions"] as const;
export type ServiceName = (typeof SERVICES)[number];
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type RouteAuth = "public" | "admin";

export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

/**
 * What a route takes: its router validates each part before the handler runs (400 with the
 * fields' messages) and hands the handler the parsed values.
 */
export interface RouteRequest {
  body?: z.ZodType;
  query?: z.ZodObject;
  params?: z.ZodObject;
  /** A request without a body reads as `{}` (every field of the body is optional). */
  bodyOptional?: true;
}

export interface ApiRoute {
  method: HttpMethod;
  /** OpenAPI style: "/api/admin/lease-requests/{id}/status". */
  path: string;
  service: ServiceName;
  auth: RouteAuth;
  summary: string;
  request?: RouteRequest;
  responses: Record<number, RouteResponse>;
  /** A larger JSON body than the services' default (BODY_LIMIT_BYTES) this route takes, e.g. an uploaded export. */
  bodyLimitBytes?: number;
  /** The path itself is a secret (a URL that works without a cookie): logs name the route's template instead. */
  secretPath?: true;
  /**
   * Posted by a provider's servers (SendGrid's webhooks): no Origin and not necessarily JSON, so the
   * gateway's cross-site check does not apply, and the body reaches the service byte for byte,
   * streamed. The route proves the sender itself (a secret path or a signature).
   */
  webhook?: true;
  /**
   * The handler reads the body itself, and why (multipart, bytes a signature covers, forwarded
   * unparsed): its router is mounted ahead of the JSON reader, and a declared body schema is for
   * the handler to apply to what it read.
   */
  ownBody?: string;
}

const noContent = { 204: { description: "Done; no body" } };

/** What every route of the signed-in admin's own account may refuse besides its own answers. */
const ACCOUNT_REFUSALS = {
  403: { description: "The account was disabled meanwhile (code account_disabled)" },
  404: { description: "The signed-in account no longer exists (code not_found)" },
};
/** Routes that check the current password: braked like a sign-in. */
const PASSWORD_BRAKE = {
  429: { description: "Too many wrong passwords or codes; wait Retry-After seconds (code rate_limited)" },
};
const idParams = { params: LeaseRequestIdParam };
const emailIdParams = { params: EmailIdParam };

/** What a change of the stored ad spend may be refused with; nothing is written then. */
const SPEND_REFUSALS = {
  409: { description: "Another import is being stored (code spend_busy): try again shortly" },
  422: {
    description:
      "It would store more distinct campaigns than SPEND_CAMPAIGNS_MAX (code too_many_campaigns), refused before anything is written",
  },
  503: { description: "Not stored in its time limit (code spend_timeout); Retry-After" },
};

export const API_ROUTES = [
  ...RESPONSE_ROUTES,
  // gateway
  {
    method: "POST",
    path: "/api/admin/login",
    service: "gateway",
    auth: "public",
    summary:
      "Log in; sets the admin_session cookie, or answers the next step (a TOTP code, a new password) with a ticket",
    request: { body: LoginBody },
    responses: {
      200: {
        description: "Logged in, or the password was right and one more step follows",
        schema: LoginResponse,
      },
      403: { description: "The account is disabled (code account_disabled)" },
    },
  },
  {
    method: "POST",
    path: "/api/admin/login/totp",
    service: "gateway",
    auth: "public",
    summary: "Second sign-in step: the authenticator's code or a recovery code (the sign-in brake applies)",
    request: { body: LoginTotpBody },
    responses: { 200: { description: "Logged in, or a new password is due", schema: LoginResponse } },
  },
  {
    method: "POST",
    path: "/api/admin/login/new-password",
    service: "gateway",
    auth: "public",
    summary: "Last sign-in step after a one-time password: choose one's own password; sets the cookie",
    request: { body: LoginNewPasswordBody },
    responses: { 200: { description: "Logged in", schema: AdminSession } },
  },
  {
    method: "POST",
    path: "/api/admin/logout",
    service: "gateway",
    auth: "admin",
    summary: "Log out; ends the session and clears the cookie",
    responses: noContent,
  },
  {
    method: "GET",
    path: "/api/admin/me",
    service: "gateway",
    auth: "admin",
    summary: "The signed-in admin",
    responses: { 200: { description: "Session is valid", schema: AdminSession } },
  },
  {
    method: "GET",
    path: "/api/admin/account",
    service: "gateway",
    auth: "admin",
    summary: "The signed-in admin's own account: two-factor sign-in and recovery codes left",
    responses: { 200: { description: "The account", schema: AdminAccount }, ...ACCOUNT_REFUSALS },
  },
  {
    method: "PUT",
    path: "/api/admin/account",
    service: "gateway",
    auth: "admin",
    summary:
      "The admin's own notices: the address, an e-mail for a late lead, the weekly summary (audited: the fields changed)",
    request: { body: UpdateAccountBody },
    responses: {
      200: { description: "Saved", schema: AdminAccount },
      400: { description: "Not an e-mail address, or an e-mail chosen without an address" },
      ...ACCOUNT_REFUSALS,
    },
  },
  {
    method: "PUT",
    path: "/api/admin/account/password",
    service: "gateway",
    auth: "admin",
    summary: "Change one's own password (current one required); every other session of the admin ends",
    request: { body: ChangePasswordBody },
    responses: {
      200: { description: "Changed; a new session cookie is set", schema: AdminSession },
      ...ACCOUNT_REFUSALS,
      ...PASSWORD_BRAKE,
    },
  },
  {
    method: "POST",
    path: "/api/admin/account/totp/setup",
    service: "gateway",
    auth: "admin",
    summary:
      "Start two-factor sign-in (current password required): a new authenticator secret (QR code), active once confirmed",
    request: { body: TotpSetupBody },
    responses: {
      200: { description: "The secret, this once", schema: TotpSetup },
      ...ACCOUNT_REFUSALS,
      409: { description: "Two-factor sign-in is on already" },
      ...PASSWORD_BRAKE,
    },
  },
  {
    method: "POST",
    path: "/api/admin/account/totp/confirm",
    service: "gateway",
    auth: "admin",
    summary:
      "Turn two-factor sign-in on with a first code; answers ten one-time recovery codes; every other session of the admin ends",
    request: { body: TotpCodeBody },
    responses: {
      200: { description: "On; a new session cookie is set", schema: RecoveryCodes },
      ...ACCOUNT_REFUSALS,
      409: { description: "Two-factor sign-in is on already, or its setup was not started (code conflict)" },
    },
  },
  {
    method: "POST",
    path: "/api/admin/account/totp/disable",
    service: "gateway",
    auth: "admin",
    summary: "Turn two-factor sign-in off (current password and a code or recovery code required)",
    request: { body: TotpDisableBody },
    responses: { 200: { description: "Off", schema: AdminAccount }, ...ACCOUNT_REFUSALS, ...PASSWORD_BRAKE },
  },
  {
    method: "GET",
    path: "/api/admin/audit-log",
    service: "gateway",
    auth: "admin",
    summary:
      "The audit log, newest first, filtered by action, admin, target and period (sign-ins, admin accounts, lease request status changes and deletions, inbox deletions, settings saved, e-mails sent; kept two years)",
    request: { query: AuditLogQuery },
    responses: { 200: { description: "A page of entries", schema: AuditLogPage } },
  },
  {
    method: "GET",
    path: "/api/admin/users",
    service: "gateway",
    auth: "admin",
    summary: "Every admin account",
    responses: { 200: { description: "The admins", schema: AdminUserList } },
  },
  {
    method: "POST",
    path: "/api/admin/users",
    service: "gateway",
    auth: "admin",
    summary: "Create an admin with a one-time password (shown once; changed at the first sign-in)",
    request: { body: CreateAdminUserBody },
    responses: {
      201: { description: "Created", schema: CreatedAdminUser },
      409: { description: "The username is taken" },
    },
  },
  {
    method: "PATCH",
    path: "/api/admin/users/{id}",
    service: "gateway",
    auth: "admin",
    summary: "Disable (every session ends at once) or enable an admin",
    request: { params: AdminUserIdParam, body: UpdateAdminUserBody },
    responses: {
      200: { description: "Updated", schema: AdminUser },
      409: { description: "Oneself or the last active admin (code conflict)" },
    },
  },
  {
    method: "POST",
    path: "/api/admin/users/{id}/totp/reset",
    service: "gateway",
    auth: "admin",
    summary:
      "Turn another admin's two-factor sign-in off (a lost phone and recovery codes); audited, their sessions end",
    request: { params: AdminUserIdParam },
    responses: {
      200: { description: "Off", schema: AdminUser },
      409: { description: "Oneself (use Mijn account)" },
    },
  },
  {
    method: "DELETE",
    path: "/api/admin/users/{id}",
    service: "gateway",
    auth: "admin",
    summary: "Remove an admin (every session ends at once)",
    request: { params: AdminUserIdParam },
    responses: { ...noContent, 409: { description: "Oneself or the last active admin (code conflict)" } },
  },
  // People's data (AVG): POST so the address stays out of URLs and access logs.
  {
    method: "POST",
    path: "/api/admin/privacy/search",
    service: "gateway",
    auth: "admin",
    summary: "What is held about an e-mail address: counts per kind, with the oldest and newest date",
    request: { body: PrivacySearchBody },
    responses: {
      200: { description: "The summary", schema: PrivacySummary },
      422: {
        description:
          "The company's own address (code privacy_company_address) or an admin's username (privacy_staff_address): refused, nothing read or changed",
      },
      502: { description: "A service did not answer (code privacy_incomplete); nothing is changed" },
    },
  },
  {
    method: "POST",
    path: "/api/admin/privacy/export",
    service: "gateway",
    auth: "admin",
    summary:
      "Everything about an e-mail address as one JSON document for the person (Dutch, an attachment); audited",
    request: { body: PrivacySearchBody },
    responses: {
      200: { description: "The JSON file", schema: PrivacyExport },
      422: {
        description:
          "The company's own address (code privacy_company_address) or an admin's username (privacy_staff_address): refused, nothing read or changed",
      },

      502: { description: "A service did not answer (code privacy_incomplete)" },
    },
  },
  {
    method: "POST",
    path: "/api/admin/privacy/erase",
    service: "gateway",
    auth: "admin",
    summary:
      'Erase everything held about an e-mail address in every service (confirm: "WISSEN"); idempotent, audited without the address',
    request: { body: PrivacyEraseBody },
    responses: {
      200: { description: "Erased", schema: PrivacyErasure },
      422: {
        description:
          "The company's own address (code privacy_company_address) or an admin's username (privacy_staff_address): refused, nothing read or changed",
      },
      502: {
        description:
          "A service did not answer (code privacy_incomplete): part may be erased; the same request again finishes it",
      },
    },
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    service: "gateway",
    auth: "public",
    summary: "This API as an OpenAPI 3.1 document",
    responses: { 200: { description: "OpenAPI document" } },
  },
  // leads
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
  // leads: the Google Ads offline conversion file
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
  // settings
  {
    method: "GET",
    path: "/api/company-settings",
    service: "settings",
    auth: "public",
    summary: "Public company details and pixel ids (never secrets)",
    responses: { 200: { description: "Company settings", schema: PublicCompanySettings } },
  },
  {
    method: "GET",
    path: "/api/theme-settings",
    service: "settings",
    auth: "public",
    summary: "Theme colours and radii",
    responses: { 200: { description: "Theme settings", schema: ThemeSettings } },
  },
  {
    method: "GET",
    path: "/api/admin/conversion-settings",
    service: "settings",
    auth: "admin",
    summary: "Which ad platforms receive the leads' conversions server-side; tokenSet, never a token",
    responses: { 200: { description: "Per platform", schema: ConversionSettings } },
  },
  {
    method: "PUT",
    path: "/api/admin/conversion-settings",
    service: "settings",
    auth: "admin",
    summary: "Switch platforms on or off and store their access tokens (encrypted)",
    request: { body: UpdateConversionSettingsBody, bodyOptional: true },
    responses: { 200: { description: "Per platform", schema: ConversionSettings } },
  },
  {
    method: "POST",
    path: "/api/admin/conversion-settings/{platform}/test",
    service: "conversions",
    auth: "admin",
    summary:
      "Send one test event (Meta/TikTok test_event_code, Snapchat /events/validate, Google validateOnly) and answer the platform's status and message",
    request: { params: ConversionPlatformParam, body: ConversionTestBody, bodyOptional: true },
    responses: {
      200: { description: "The platform's answer", schema: ConversionTestResult },
      409: {
        description:
          "The platform is not set up (pixel id, token, account or credentials missing; code conflict)",
      },
      429: { description: "More than a few test events a minute from this admin; wait Retry-After seconds" },
    },
  },
  {
    method: "GET",
    path: "/api/admin/company-settings",
    service: "settings",
    auth: "admin",
    summary: "Company, e-mail and pixel settings; the API key masked",
    responses: { 200: { description: "Company settings", schema: AdminCompanySettings } },
  },
  {
    method: "PUT",
    path: "/api/admin/company-settings",
    service: "settings",
    auth: "admin",
    summary: "Partially update company, e-mail and pixel settings",
    request: { body: UpdateCompanySettingsBody, bodyOptional: true },
    responses: { 200: { description: "Stored settings", schema: AdminCompanySettings } },
  },
  {
    method: "PUT",
    path: "/api/admin/theme-settings",
    service: "settings",
    auth: "admin",
    summary: "Partially update the theme",
    request: { body: UpdateThemeSettingsBody, bodyOptional: true },
    responses: { 200: { description: "Stored theme", schema: ThemeSettings } },
  },
  {
    method: "POST",
    path: "/api/admin/theme-settings/reset",
    service: "settings",
    auth: "admin",
    summary: "Reset the theme to the defaults",
    responses: { 200: { description: "Default theme, stored", schema: ThemeSettings } },
  },
  // visit beacons (gateway) and tracking
  {
    method: "POST",
    path: "/api/track/visit",
    // Answered by the gateway, which batches the beacons to tracking's one ingest route
    // (INTERNAL_ROUTES: TRACK_BATCH_PATH).
    service: "gateway",
    auth: "public",
    summary: "Record a page visit",
    request: { body: TrackVisitBody },
    ownBody: "forwarded unparsed to tracking, which validates each beacon with this schema",
    responses: noContent,
  },
  {
    method: "POST",
    path: "/api/track/heartbeat",
    // Answered by the gateway, which batches the beacons to tracking's one ingest route
    // (INTERNAL_ROUTES: TRACK_BATCH_PATH).
    service: "gateway",
    auth: "public",
    summary: "Keep a visitor session active",
    request: { body: TrackHeartbeatBody },
    ownBody: "forwarded unparsed to tracking, which validates each beacon with this schema",
    responses: noContent,
  },
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
  // mailer
  {
    method: "GET",
    path: "/api/admin/emails",
    service: "mailer",
    auth: "admin",
    summary: "Inbox or sent mail, newest first",
    request: { query: EmailListQuery },
    responses: {
      200: {
        description:
          "The newest `limit` e-mails of the folder (older than `before` if given); the X-Total-Count and X-Unread-Count headers count the whole folder, X-Next-Cursor (only when older e-mails exist) is the `before` of the next page",
        schema: EmailMessageList,
      },
    },
  },
  {
    method: "GET",
    path: "/api/admin/emails/{id}",
    service: "mailer",
    auth: "admin",
    summary: "One e-mail, with its delivery state (a received one with its HTML as sent)",
    request: emailIdParams,
    responses: { 200: { description: "The e-mail", schema: EmailDetail } },
  },
  {
    method: "GET",
    path: "/api/admin/emails/{id}/attachments/{attachmentId}",
    service: "mailer",
    auth: "admin",
    summary:
      "Download an attachment of a received e-mail: always Content-Disposition attachment, as a type a browser does not run",
    request: { params: EmailAttachmentParams },
    responses: {
      200: {
        description: "The attachment's bytes",
        contentType: "application/octet-stream",
        schema: z.string(),
      },
      404: { description: "No such e-mail or attachment" },
      410: {
        description:
          "Listed, but its bytes were not kept: the attachments' store was full (code attachment_not_kept)",
      },
    },
  },
  {
    method: "POST",
    path: "/api/admin/emails/{id}/retry",
    service: "mailer",
    auth: "admin",
    summary: "Send a failed e-mail again",
    request: emailIdParams,
    responses: {
      202: { description: "Queued again", schema: RetryEmailResponse },
      409: { description: "Not a failed outgoing e-mail (code not_retryable)" },
    },
  },
  {
    method: "POST",
    path: "/api/admin/emails/{id}/cancel",
    service: "mailer",
    auth: "admin",
    summary: "Stop an e-mail that is queued or waiting for a new attempt: it is not sent",
    request: emailIdParams,
    responses: {
      200: {
        description: "Not sent; it counts as failed and can be sent again",
        schema: CancelEmailResponse,
      },
      409: { description: "Being sent right now, or already sent or failed (code not_cancellable)" },
    },
  },
  {
    method: "PUT",
    path: "/api/admin/emails/{id}/read",
    service: "mailer",
    auth: "admin",
    summary: "Mark an e-mail read",
    request: emailIdParams,
    responses: { 200: { description: "Updated e-mail", schema: EmailMessage } },
  },
  {
    method: "DELETE",
    path: "/api/admin/emails/{id}",
    service: "mailer",
    auth: "admin",
    summary: "Delete an e-mail",
    request: emailIdParams,
    responses: noContent,
  },
  {
    method: "POST",
    path: "/api/admin/send-email",
    service: "mailer",
    auth: "admin",
    summary: "Store an outgoing e-mail and queue it for sending",
    request: { body: SendEmailBody },
    responses: {
      202: { description: "Queued", schema: SendEmailResponse },
      409: {
        description:
          "No API key or sender address set, or the stored key cannot be decrypted (code mail_not_configured or mail_key_unreadable)",
      },
    },
  },
  {
    method: "GET",
    path: "/api/admin/email-templates",
    service: "mailer",
    auth: "admin",
    summary: "Staff's e-mail templates, the default (the follow-up) first",
    responses: { 200: { description: "The templates", schema: EmailTemplateList } },
  },
  {
    method: "POST",
    path: "/api/admin/email-templates",
    service: "mailer",
    auth: "admin",
    summary: "Add a template (name, subject, body with {{placeholders}})",
    request: { body: EmailTemplateBody },
    responses: {
      201: { description: "Added", schema: EmailTemplate },
      409: { description: "A template of that name exists (code duplicate_name)" },
      422: { description: "There are EMAIL_TEMPLATES_MAX (200) templates already (code too_many_templates)" },
    },
  },
  {
    method: "PUT",
    path: "/api/admin/email-templates/{id}",
    service: "mailer",
    auth: "admin",
    summary: "Change a template",
    request: { params: EmailTemplateIdParam, body: EmailTemplateBody },
    responses: {
      200: { description: "Changed", schema: EmailTemplate },
      404: { description: "No such template" },
      409: { description: "Another template has that name (code duplicate_name)" },
    },
  },
  {
    method: "DELETE",
    path: "/api/admin/email-templates/{id}",
    service: "mailer",
    auth: "admin",
    summary: "Remove a template (the default follow-up cannot be removed, only changed)",
    request: { params: EmailTemplateIdParam },
    responses: {
      ...noContent,
      404: { description: "No such template" },
      409: { description: "The default template (code default_template)" },
    },
  },
  {
    method: "GET",
    path: "/api/admin/email-settings",
    service: "mailer",
    auth: "admin",
    summary:
      "Whether the SendGrid webhooks are set up (never a secret), the reply address, when each last received",
    responses: { 200: { description: "The webhooks' state", schema: EmailSettings } },
  },
  {
    method: "POST",
    path: "/api/admin/email-settings/inbound-url",
    service: "mailer",
    auth: "admin",
    summary:
      "Make a new secret Inbound Parse URL, answered this once; the previous one answers 404 from then on; audited",
    request: { body: RotateInboundUrlBody, bodyOptional: true },
    responses: { 200: { description: "The new URL", schema: InboundUrl } },
  },
  {
    method: "PUT",
    path: "/api/admin/email-settings/inbound",
    service: "mailer",
    auth: "admin",
    summary:
      "Set the reply address: the panel's e-mails are sent with Reply-To local+<token>@domain, the token naming the lead",
    request: { body: UpdateInboundBody },
    responses: { 200: { description: "The webhooks' state", schema: EmailSettings } },
  },
  {
    method: "PUT",
    path: "/api/admin/email-settings/event-webhook",
    service: "mailer",
    auth: "admin",
    summary:
      "Set the Event Webhook's verification key (SendGrid's ECDSA public key; audited, never shown back)",
    request: { body: UpdateEventWebhookBody },
    responses: {
      200: { description: "The webhooks' state", schema: EmailSettings },
      400: { description: "Not a P-256 public key (code validation_failed)" },
    },
  },
  {
    method: "POST",
    path: "/api/sendgrid/events",
    service: "mailer",
    auth: "public",
    summary:
      "SendGrid's Event Webhook: a signed JSON array of events (delivered, deferred, bounce, dropped, open, ...); 2xx once verified and stored",
    bodyLimitBytes: EVENT_WEBHOOK_BODY_LIMIT_BYTES,
    ownBody: "the signature covers the body's exact bytes; parsed once it is verified",
    responses: {
      200: {
        description: "Verified and stored (an event seen before changes nothing)",
        schema: EventBatchResponse,
      },
      400: { description: "Verified but no JSON array of events (code invalid_events)" },
      401: { description: "Unsigned: no signature or timestamp header (code unsigned)" },
      403: {
        description:
          "Wrong signature, no key set, a timestamp outside five minutes, or a batch seen before (code bad_signature, stale, replayed)",
      },
      413: { description: "Larger than SendGrid's batches" },
      429: { description: "Too many posts from this address" },
      503: { description: "Not stored just now; SendGrid retries" },
    },
    webhook: true,
  },
  {
    method: "POST",
    path: "/api/inbound/sendgrid/{secret}",
    service: "mailer",
    auth: "public",
    summary:
      "SendGrid Inbound Parse: one received message as multipart/form-data (parsed or raw); 2xx once stored, 5xx when it could not be (SendGrid retries)",
    request: { params: InboundSecretParam },
    bodyLimitBytes: INBOUND_BODY_LIMIT_BYTES,
    ownBody: "multipart/form-data, streamed",
    responses: {
      200: { description: "Stored, or stored before (same Message-ID)", schema: InboundParseResponse },
      400: { description: "No multipart/form-data, or no message in it (code invalid_message)" },
      415: { description: "Not posted as multipart/form-data (code unsupported_media_type)" },
      404: { description: "No such URL (a wrong or replaced secret)" },
      413: { description: "The message is larger than SendGrid's 30 MB" },
      429: { description: "Too many posts from this address; SendGrid retries later" },
      503: {
        description: "Not stored just now (the database is away, or too many at once); SendGrid retries",
      },
    },
    secretPath: true,
    webhook: true,
  },
  {
    method: "POST",
    path: "/api/admin/email-settings/test",
    service: "mailer",
    auth: "admin",
    summary: "Send a test e-mail to the configured sender address and wait for the provider's answer",
    responses: {
      200: { description: "The provider accepted it", schema: EmailSettingsTestResponse },
      409: {
        description:
          "API key or sender address missing, or the stored key cannot be decrypted (code conflict or mail_key_unreadable)",
      },
      502: { description: "The provider refused it or did not answer in time (the reason, in Dutch)" },
      503: { description: "The e-mail settings could not be read just now" },
    },
  },
] as const satisfies readonly ApiRoute[];

/** One route of the public API, with its literal path and schemas. */
export type ApiRouteEntry = (typeof API_ROUTES)[number];

/** The public API's route answering `method` at `path`, with its literal schemas. */
export type ApiRouteAt<M extends HttpMethod, P extends string> = Extract<
  ApiRouteEntry,
  { method: M; path: P }
>;

/** The paths of the public API under `method`. */
export type ApiPath<M extends HttpMethod> = Extract<ApiRouteEntry, { method: M }>["path"];

/** The contract's entry for `method` and `path` (a path the API does not have fails to compile). */
export function apiRoute<M extends HttpMethod, P extends ApiPath<M>>(method: M, path: P): ApiRouteAt<M, P> {
  const route = API_ROUTES.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`${method} ${path} is no route of API_ROUTES`);
  return route as ApiRouteAt<M, P>;
}

/**
 * Routes the public never reaches: service-to-service calls (/internal/*, with the internal token)
 * and the probes every service answers. With API_ROUTES they are every route a service has, and
 * so every value a metric's `route` label can take (besides "unmatched").
 */
/** A route only services call (or every service's probe), with what it takes. */
export interface InternalRoute {
  method: HttpMethod;
  path: string;
  service: ServiceName | "all";
  request?: RouteRequest;
  /** As ApiRoute's: the handler reads the body itself, and why. */
  ownBody?: string;
}

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

/** A path template in the form metrics use: "/api/admin/lease-requests/{id}" → "/api/admin/lease-requests/:id". */
export const metricRoute = (openApiPath: string): string => openApiPath.replace(/\{([^}]+)\}/g, ":$1");

/** The value of a metric's `route` label for anything that is no known route. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * Maps a request path (without query string) to the route template it matches, or "unmatched":
 * labels are then bounded by the route table, whatever paths clients make up. Literal paths are
 * one map lookup; templates with parameters are tried after, fewest parameters first (so
 * "/export.csv" wins over "/{id}").
 */
export function createRouteMatcher(
  paths: readonly string[] = [...API_ROUTES, ...INTERNAL_ROUTES].map((r) => r.path),
): (path: string) => string {
  const literal = new Map<string, string>();
  const patterns: { re: RegExp; label: string; params: number }[] = [];
  for (const path of new Set(paths)) {
    const label = metricRoute(path);
    const params = (path.match(/\{/g) ?? []).length;
    if (params === 0) literal.set(path, label);
    else {
      const source = path
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
        .join("[^/]+");
      patterns.push({ re: new RegExp(`^${source}$`), label, params });
    }
  }
  patterns.sort((a, b) => a.params - b.params);
  return (path) => {
    const hit = literal.get(path);
    if (hit !== undefined) return hit;
    for (const p of patterns) if (p.re.test(path)) return p.label;
    return UNMATCHED_ROUTE;
  };
}

/**
 * The service owning a public request path (without query string): the service of the API_ROUTES
 * entry whose path template it matches, or undefined when none does. The gateway routes on this, so
 * a route is reachable as soon as it is in API_ROUTES; paths of no route are refused at the edge.
 */
export function createServiceMatcher(
  routes: readonly Pick<ApiRoute, "path" | "service">[] = API_ROUTES,
): (path: string) => ServiceName | undefined {
  const owner = new Map(routes.map((r) => [metricRoute(r.path), r.service]));
  const match = createRouteMatcher(routes.map((r) => r.path));
  return (path) => owner.get(match(path));
}

export const serviceForPath = createServiceMatcher();

/**
 * The body limit of the route a path belongs to when it takes more than the default (undefined:
 * the default applies). The gateway and every service read it, so both let such a body through.
 */
export function createBodyLimitMatcher(
  routes: readonly Pick<ApiRoute, "path" | "bodyLimitBytes">[] = API_ROUTES,
): (path: string) => number | undefined {
  const limits = new Map(
    routes.filter((r) => r.bodyLimitBytes !== undefined).map((r) => [metricRoute(r.path), r.bodyLimitBytes]),
  );
  const match = createRouteMatcher(routes.map((r) => r.path));
  return (path) => (limits.size === 0 ? undefined : limits.get(match(path)));
}

export const bodyLimitForPath = createBodyLimitMatcher();

/**
 * A request path as logs may show it: a path under a route whose path is a secret (`secretPath`,
 * e.g. "/api/google-ads/conversions/{secret}.csv") is shown as that route's template, whatever
 * follows its fixed start and in any letter case (a mistyped secret may still be nearly right).
 */
export function createLoggedPath(
  routes: readonly Pick<ApiRoute, "path" | "secretPath">[] = API_ROUTES,
): (path: string) => string {
  const secret = routes
    .filter((r) => r.secretPath)
    .map((r) => ({ start: r.path.slice(0, r.path.indexOf("{")).toLowerCase(), template: r.path }));
  if (secret.length === 0) return (path) => path;
  return (path) => {
    const lower = path.toLowerCase();
    return secret.find((r) => lower.startsWith(r.start))?.template ?? path;
  };
}

export const loggedPath = createLoggedPath();

/** Whether a request path belongs to a provider's webhook (`webhook` in API_ROUTES). */
export function createWebhookMatcher(
  routes: readonly Pick<ApiRoute, "path" | "webhook">[] = API_ROUTES,
): (path: string) => boolean {
  const hooks = new Set(routes.filter((r) => r.webhook).map((r) => metricRoute(r.path)));
  const match = createRouteMatcher(routes.map((r) => r.path));
  return (path) => hooks.size > 0 && hooks.has(match(path));
}

export const isWebhookPath = createWebhookMatcher();
