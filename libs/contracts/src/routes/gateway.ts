import {
  AdminAccount,
  AdminUser,
  AdminUserIdParam,
  AdminUserList,
  ChangePasswordBody,
  CreateAdminUserBody,
  CreatedAdminUser,
  LoginNewPasswordBody,
  LoginResponse,
  LoginTotpBody,
  RecoveryCodes,
  TotpCodeBody,
  TotpDisableBody,
  TotpSetup,
  TotpSetupBody,
  UpdateAccountBody,
  UpdateAdminUserBody,
} from "../http/admin-users";
import { AuditLogPage, AuditLogQuery } from "../http/audit-log";
import { AdminSession, LoginBody } from "../http/auth";
import {
  PrivacyEraseBody,
  PrivacyErasure,
  PrivacyExport,
  PrivacySearchBody,
  PrivacySummary,
} from "../http/privacy";
import { TrackHeartbeatBody, TrackVisitBody } from "../http/tracking";
import { noContent } from "./common";
import type { ApiRoute } from "../routes";

// The gateway's own routes: signing in, the admin's account, the admins, the audit log, people's data
// (AVG) across the services, the OpenAPI document and the visit beacons it batches to tracking.

/** What every route of the signed-in admin's own account may refuse besides its own answers. */
const ACCOUNT_REFUSALS = {
  403: { description: "The account was disabled meanwhile (code account_disabled)" },
  404: { description: "The signed-in account no longer exists (code not_found)" },
};

/** Routes that check the current password: braked like a sign-in. */
const PASSWORD_BRAKE = {
  429: { description: "Too many wrong passwords or codes; wait Retry-After seconds (code rate_limited)" },
};

export const GATEWAY_ROUTES = [
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
] as const satisfies readonly ApiRoute[];
