// The admin panel's calls, each made from its contract entry (route-call.ts): path, method and
// the schema its answer is parsed with come from API_ROUTES.
import type { ActiveVisitorList, LeaseRequest } from "@lease/contracts";
import {
  type EmailTemplateBody,
  ACTIVE_VISITORS_TOTAL_HEADER,
  PRIVACY_ERASE_CONFIRMATION,
  INBOX_CURSOR_HEADER,
  INBOX_PAGE,
  INBOX_TOTAL_HEADER,
  INBOX_UNREAD_HEADER,
  type AnalyticsChannel,
  type ConversionPlatform,
  type ConversionTestBody,
  type UpdateConversionSettingsInput,
  type UpdateGoogleAdsSettingsBody,
  type EmailFolder,
  type LeaseStatus,
  type UpdateLeaseStatusInput,
  type AdSpendEntryBody,
  type SpendLinkBody,
  type LoginBody,
  type SendEmailBody,
  type ThemeValues,
  type UpdateCompanySettingsBody,
  type LogCallBody,
  type UpdateAccountBody,
  type UpdateResponseSettingsBody,
} from "@lease/contracts";
import type { z } from "zod";
import { ApiError, apiErrorOf } from "../api/client";
import { callRoute, exchangeRoute, routeUrl } from "./route-call";

export const ADMIN_KEYS = {
  me: ["/api/admin/me"],
  leaseRequests: ["/api/admin/lease-requests"],
  companySettings: ["/api/admin/company-settings"],
  emails: ["/api/admin/emails"],
  visitorStats: ["/api/admin/visitor-stats"],
  activeVisitors: ["/api/admin/active-visitors"],
  analytics: ["/api/admin/analytics"],
  account: ["/api/admin/account"],
  users: ["/api/admin/users"],
  responseSettings: ["/api/admin/response-settings"],
  auditLog: ["/api/admin/audit-log"],
  adSpend: ["/api/admin/ad-spend"],
  campaignReport: ["/api/admin/campaign-report"],
  responseReport: ["/api/admin/response-report"],
  conversionSettings: ["/api/admin/conversion-settings"],
  googleAdsSettings: ["/api/admin/google-ads-settings"],
  leadConversions: (id: string) => ["/api/admin/lease-requests", id, "conversions"] as const,
} as const;

/** Signed in, or the next step (an authenticator code, an own password) with its ticket. */
export const login = (body: LoginBody) => callRoute("POST", "/api/admin/login", { body });
export const loginWithCode = (ticket: string, code: string) =>
  callRoute("POST", "/api/admin/login/totp", { body: { ticket, code } });
export const loginWithNewPassword = (ticket: string, newPassword: string) =>
  callRoute("POST", "/api/admin/login/new-password", { body: { ticket, newPassword } });

export const fetchAccount = () => callRoute("GET", "/api/admin/account");
/**
 * Requests that renew this browser's session: the server ends every session of the admin (open
 * sockets close with 4401) and answers with a new cookie. The socket's close can arrive before
 * that answer; stillSignedIn waits for these, so the panel is not sent to the sign-in page with
 * the old cookie while the new one is on its way.
 */
const renewals = new Set<Promise<unknown>>();
function renewing<T>(request: Promise<T>): Promise<T> {
  renewals.add(request);
  const done = () => renewals.delete(request);
  request.then(done, done);
  return request;
}
export const changePassword = (currentPassword: string, newPassword: string) =>
  renewing(callRoute("PUT", "/api/admin/account/password", { body: { currentPassword, newPassword } }));
export const startTotpSetup = (currentPassword: string) =>
  callRoute("POST", "/api/admin/account/totp/setup", { body: { currentPassword } });
export const confirmTotp = (code: string) =>
  renewing(callRoute("POST", "/api/admin/account/totp/confirm", { body: { code } }));
export const disableTotp = (currentPassword: string, code: string) =>
  callRoute("POST", "/api/admin/account/totp/disable", { body: { currentPassword, code } });

/** A page of the audit log; `before` is the last entry's time of the previous page. */
export const fetchAuditLog = (filter: {
  action?: string;
  actor?: string;
  target?: string;
  from?: string;
  before?: string;
  limit?: number;
}) => callRoute("GET", "/api/admin/audit-log", { query: filter });
export const fetchUsers = () => callRoute("GET", "/api/admin/users");
export const createUser = (username: string) => callRoute("POST", "/api/admin/users", { body: { username } });
export const setUserDisabled = (id: string, disabled: boolean) =>
  callRoute("PATCH", "/api/admin/users/{id}", { params: { id }, body: { disabled } });
export const setUserTakesNewLeads = (id: string, takesNewLeads: boolean) =>
  callRoute("PATCH", "/api/admin/users/{id}", { params: { id }, body: { takesNewLeads } });
export const updateAccount = (body: UpdateAccountBody) => callRoute("PUT", "/api/admin/account", { body });
export const resetUserTotp = (id: string) =>
  callRoute("POST", "/api/admin/users/{id}/totp/reset", { params: { id }, body: {} });
export const removeUser = (id: string) => callRoute("DELETE", "/api/admin/users/{id}", { params: { id } });
export const fetchMe = () => callRoute("GET", "/api/admin/me");
/**
 * Whether this browser still has a session (after the server closed the socket with 4401), asked
 * once a renewal of this panel's own session (above) has its answer and cookie.
 */
export const stillSignedIn = async () => {
  await Promise.allSettled([...renewals]);
  return fetchMe().then(
    () => true,
    () => false,
  );
};
export const logout = () => callRoute("POST", "/api/admin/logout");

export interface LeaseRequestFilter {
  q: string;
  status: LeaseStatus | "";
  /** The visit's channel (English, as the API names it) and utm_campaign; "" for any. */
  channel: AnalyticsChannel | "";
  campaign: string;
  /** "vandaag": only what is to be followed up today or earlier. */
  followUp?: "vandaag" | "";
  /** "me": "Mijn aanvragen", the signed-in admin's leads. */
  owner?: "me" | "";
  /** "urgency": the waiting leads by deadline, the late first. */
  sort?: "urgency" | "";
  page: number;
  pageSize: number;
}

export function leaseRequestQuery(filter: Partial<LeaseRequestFilter>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}

export const fetchLeaseRequests = (filter: LeaseRequestFilter) =>
  callRoute("GET", "/api/admin/lease-requests", { query: { ...filter } });

/** One request by id; null when it does not exist (deleted meanwhile, or a mistyped link). */
export async function findLeaseRequest(id: string): Promise<LeaseRequest | null> {
  try {
    return await callRoute("GET", "/api/admin/lease-requests/{id}", { params: { id } });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

export const updateLeaseStatus = (id: string, body: UpdateLeaseStatusInput) =>
  callRoute("PATCH", "/api/admin/lease-requests/{id}/status", { params: { id }, body });

export const deleteLeaseRequest = (id: string) =>
  callRoute("DELETE", "/api/admin/lease-requests/{id}", { params: { id } });

/** Sets or clears "Opvolgen op" (YYYY-MM-DD). */
/** Sends the request's failed conversions to one ad platform (or every one) again. */
export const retryConversions = (id: string, platform?: ConversionPlatform) =>
  callRoute("POST", "/api/admin/lease-requests/{id}/conversions/retry", {
    params: { id },
    body: platform ? { platform } : {},
  });

export const setFollowUp = (id: string, followUpOn: string | null) =>
  callRoute("PUT", "/api/admin/lease-requests/{id}/follow-up", { params: { id }, body: { followUpOn } });

/** A request's timeline rows (receipt, status changes, notes), newest first. */
export const fetchLeadHistory = (id: string) =>
  callRoute("GET", "/api/admin/lease-requests/{id}/history", { params: { id } });
/** The e-mails sent for a request (its newest 100), for its timeline. */
export const fetchLeadEmails = (id: string) =>
  callRoute("GET", "/api/admin/emails", { query: { folder: "sent", leaseRequestId: id, limit: 100 } });
export const addLeadNote = (id: string, body: string) =>
  callRoute("POST", "/api/admin/lease-requests/{id}/notes", { params: { id }, body: { body } });
export const updateLeadNote = (id: string, noteId: string, body: string) =>
  callRoute("PUT", "/api/admin/lease-requests/{id}/notes/{noteId}", {
    params: { id, noteId },
    body: { body },
  });
export const deleteLeadNote = (id: string, noteId: string) =>
  callRoute("DELETE", "/api/admin/lease-requests/{id}/notes/{noteId}", { params: { id, noteId } });

export const exportCsvUrl = (
  filter: Pick<LeaseRequestFilter, "q" | "status" | "followUp" | "channel" | "campaign" | "owner">,
) => routeUrl("GET", "/api/admin/lease-requests/export.csv", { query: { ...filter } });

export const setLeadOwner = (id: string, ownerId: string) =>
  callRoute("PATCH", "/api/admin/lease-requests/{id}/owner", { params: { id }, body: { ownerId } });
export const logCall = (id: string, body: LogCallBody) =>
  callRoute("POST", "/api/admin/lease-requests/{id}/calls", { params: { id }, body });
export const fetchResponseSettings = () => callRoute("GET", "/api/admin/response-settings");
export const updateResponseSettings = (body: UpdateResponseSettingsBody) =>
  callRoute("PUT", "/api/admin/response-settings", { body });

export const fetchCompanySettings = () => callRoute("GET", "/api/admin/company-settings");
/** Partial update: absent keeps a value, "" clears it (the contract's input shape). */
export type CompanySettingsUpdate = z.input<typeof UpdateCompanySettingsBody>;
export const fetchConversionSettings = () => callRoute("GET", "/api/admin/conversion-settings");
export const updateConversionSettings = (body: UpdateConversionSettingsInput) =>
  callRoute("PUT", "/api/admin/conversion-settings", { body });
/** One test event to the platform's test tool; answers the platform's status and own message. */
export const sendConversionTest = (platform: ConversionPlatform, body: ConversionTestBody) =>
  callRoute("POST", "/api/admin/conversion-settings/{platform}/test", { params: { platform }, body });

export const fetchGoogleAdsSettings = () => callRoute("GET", "/api/admin/google-ads-settings");
export const updateGoogleAdsSettings = (body: UpdateGoogleAdsSettingsBody) =>
  callRoute("PUT", "/api/admin/google-ads-settings", { body });
/** A new secret URL for Google Ads' scheduled upload (answered once); the previous one stops working. */
export const rotateGoogleAdsFeed = () =>
  callRoute("POST", "/api/admin/google-ads-settings/feed-url", { body: {} });
/** The Google Ads offline conversion file, as the browser downloads it (the session cookie goes along). */
export const GOOGLE_ADS_FILE_URL = routeUrl("GET", "/api/admin/google-ads/conversions.csv", {});

export const updateCompanySettings = (body: CompanySettingsUpdate) =>
  callRoute("PUT", "/api/admin/company-settings", { body });

export const fetchTheme = () => callRoute("GET", "/api/theme-settings");
export const updateTheme = (body: ThemeValues) => callRoute("PUT", "/api/admin/theme-settings", { body });

export const sendTestEmail = () => callRoute("POST", "/api/admin/email-settings/test");

/** One page of a folder (inbox or sent mail), newest first; `before` is the previous page's `next`. */
export async function fetchEmails(folder: EmailFolder, before?: string) {
  const { data: items, headers } = await exchangeRoute("GET", "/api/admin/emails", {
    query: { folder, limit: INBOX_PAGE, before },
  });
  const count = (name: string) => {
    const n = Number(headers.get(name));
    return headers.get(name) !== null && Number.isInteger(n) ? n : undefined;
  };
  return {
    items,
    total: count(INBOX_TOTAL_HEADER),
    unread: count(INBOX_UNREAD_HEADER),
    next: headers.get(INBOX_CURSOR_HEADER),
  };
}
export const fetchEmail = (id: string) => callRoute("GET", "/api/admin/emails/{id}", { params: { id } });
export const retryEmail = (id: string) =>
  callRoute("POST", "/api/admin/emails/{id}/retry", { params: { id } });
export const cancelEmail = (id: string) =>
  callRoute("POST", "/api/admin/emails/{id}/cancel", { params: { id } });
export const markEmailRead = (id: string) =>
  callRoute("PUT", "/api/admin/emails/{id}/read", { params: { id } });
export const deleteEmail = (id: string) => callRoute("DELETE", "/api/admin/emails/{id}", { params: { id } });
export const sendEmail = (body: SendEmailBody) => callRoute("POST", "/api/admin/send-email", { body });

export const fetchVisitorStats = () => callRoute("GET", "/api/admin/visitor-stats");
/** One page of the active visitors, and how many are active in all. */
export interface ActiveVisitorsPage {
  visitors: ActiveVisitorList;
  total: number;
}
export async function fetchActiveVisitors(offset: number, limit: number): Promise<ActiveVisitorsPage> {
  const { data: visitors, headers } = await exchangeRoute("GET", "/api/admin/active-visitors", {
    query: { offset, limit },
  });
  const total = Number(headers.get(ACTIVE_VISITORS_TOTAL_HEADER));
  return { visitors, total: Number.isInteger(total) ? total : offset + visitors.length };
}
/** A period's analytics, narrowed to the visits that match `filter` (channel, campaign, page) when given. */
export const fetchAnalytics = (from: string, to: string, filter: Record<string, string> = {}) =>
  callRoute("GET", "/api/admin/analytics", { query: { from, to, ...filter } });

// People's data (AVG): the address goes in the body (POST), never in a URL.
export const searchPersonalData = (email: string) =>
  callRoute("POST", "/api/admin/privacy/search", { body: { email } });
export const erasePersonalData = (email: string) =>
  callRoute("POST", "/api/admin/privacy/erase", { body: { email, confirm: PRIVACY_ERASE_CONFIRMATION } });

/** The export as the file the gateway names (a JSON attachment), downloaded in the browser. */
export async function downloadPersonalData(email: string): Promise<void> {
  const response = await fetch(routeUrl("POST", "/api/admin/privacy/export", {}), {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email }),
  });
  if (!response.ok) throw await apiErrorOf(response);
  const name =
    /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ??
    "persoonsgegevens.json";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A platform's spend export, as read from the file (the service detects which platform). */
export const importAdSpend = (csv: string) =>
  callRoute("POST", "/api/admin/ad-spend/import", { body: { csv } });
export const addAdSpend = (body: AdSpendEntryBody) => callRoute("POST", "/api/admin/ad-spend", { body });
export const fetchAdSpend = (from: string, to: string) =>
  callRoute("GET", "/api/admin/ad-spend", { query: { from, to } });
export const linkSpendCampaign = (body: SpendLinkBody) =>
  callRoute("PUT", "/api/admin/ad-spend/links", { body });
/** How the promised response times were kept (its CSV: responseReportCsvUrl). */
export const fetchResponseReport = (from: string, to: string) =>
  callRoute("GET", "/api/admin/response-report", { query: { from, to } });
export const responseReportCsvUrl = (from: string, to: string) =>
  routeUrl("GET", "/api/admin/response-report.csv", { query: { from, to } });

export const fetchCampaignReport = (from: string, to: string) =>
  callRoute("GET", "/api/admin/campaign-report", { query: { from, to } });

// The conversation on the lead: a received e-mail's HTML, and the SendGrid webhooks' settings.
export const fetchEmailDetail = (id: string) =>
  callRoute("GET", "/api/admin/emails/{id}", { params: { id } });
export const fetchEmailSettings = () => callRoute("GET", "/api/admin/email-settings");
export const rotateInboundUrl = () =>
  callRoute("POST", "/api/admin/email-settings/inbound-url", { body: {} });
export const saveReplyAddress = (replyAddress: string | null) =>
  callRoute("PUT", "/api/admin/email-settings/inbound", { body: { replyAddress } });
export const saveEventWebhookKey = (verificationKey: string) =>
  callRoute("PUT", "/api/admin/email-settings/event-webhook", { body: { verificationKey } });

// Staff's e-mail templates (E-mail Instellingen; the compose window offers them).
export const fetchEmailTemplates = () => callRoute("GET", "/api/admin/email-templates");
export const saveEmailTemplate = (template: EmailTemplateBody & { id?: string }) => {
  const { id, ...body } = template;
  return id
    ? callRoute("PUT", "/api/admin/email-templates/{id}", { params: { id }, body })
    : callRoute("POST", "/api/admin/email-templates", { body });
};
export const deleteEmailTemplate = (id: string) =>
  callRoute("DELETE", "/api/admin/email-templates/{id}", { params: { id } });
