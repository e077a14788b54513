// The admin panel's calls, each answer parsed with its contracts schema.
import {
  EmailTemplate,
  EmailTemplateList,
  type EmailTemplateBody,
  EmailDetail,
  EmailSettings,
  InboundUrl,
  ACTIVE_VISITORS_TOTAL_HEADER,
  ActiveVisitorList,
  AdminAccount,
  AdminUser,
  AdminUserList,
  AuditLogPage,
  PRIVACY_ERASE_CONFIRMATION,
  PrivacyErasure,
  PrivacySummary,
  CreatedAdminUser,
  LoginResponse,
  RecoveryCodes,
  TotpSetup,
  Analytics,
  AdminCompanySettings,
  AdminSession,
  EmailMessage,
  EmailMessageList,
  EmailSettingsTestResponse,
  INBOX_CURSOR_HEADER,
  INBOX_PAGE,
  INBOX_TOTAL_HEADER,
  INBOX_UNREAD_HEADER,
  LeadHistory,
  LeadNote,
  LeaseRequest,
  LeaseRequestListResponse,
  CancelEmailResponse,
  RetryEmailResponse,
  SendEmailResponse,
  ThemeSettings,
  VisitorStats,
  type AnalyticsChannel,
  type ConversionPlatform,
  ConversionSettings,
  type ConversionTestBody,
  ConversionTestResult,
  type UpdateConversionSettingsInput,
  GoogleAdsFeedUrl,
  GoogleAdsSettings,
  type UpdateGoogleAdsSettingsBody,
  type EmailFolder,
  type LeaseStatus,
  type UpdateLeaseStatusInput,
  AdSpendImportResult,
  AdSpendList,
  CampaignReport,
  type AdSpendEntryBody,
  type SpendLinkBody,
  type LoginBody,
  type SendEmailBody,
  type ThemeValues,
  type UpdateCompanySettingsBody,
  ResponseReport,
  LeadCall,
  ResponseSettingsResponse,
  type LogCallBody,
  type UpdateAccountBody,
  type UpdateResponseSettingsBody,
} from "@lease/contracts";
import type { z } from "zod";
import { ApiError, apiErrorOf, apiExchange, apiRequest } from "../api/client";

async function call<S extends z.ZodType>(schema: S, method: string, path: string, body?: unknown) {
  return schema.parse(await apiRequest<unknown>(method, path, body)) as z.infer<S>;
}

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
export const login = (body: LoginBody) => call(LoginResponse, "POST", "/api/admin/login", body);
export const loginWithCode = (ticket: string, code: string) =>
  call(LoginResponse, "POST", "/api/admin/login/totp", { ticket, code });
export const loginWithNewPassword = (ticket: string, newPassword: string) =>
  call(AdminSession, "POST", "/api/admin/login/new-password", { ticket, newPassword });

export const fetchAccount = () => call(AdminAccount, "GET", "/api/admin/account");
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
  renewing(call(AdminSession, "PUT", "/api/admin/account/password", { currentPassword, newPassword }));
export const startTotpSetup = (currentPassword: string) =>
  call(TotpSetup, "POST", "/api/admin/account/totp/setup", { currentPassword });
export const confirmTotp = (code: string) =>
  renewing(call(RecoveryCodes, "POST", "/api/admin/account/totp/confirm", { code }));
export const disableTotp = (currentPassword: string, code: string) =>
  call(AdminAccount, "POST", "/api/admin/account/totp/disable", { currentPassword, code });

/** A page of the audit log; `before` is the last entry's time of the previous page. */
export const fetchAuditLog = (filter: {
  action?: string;
  actor?: string;
  target?: string;
  from?: string;
  before?: string;
  limit?: number;
}) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined && value !== "") params.set(key, String(value));
  return call(AuditLogPage, "GET", `/api/admin/audit-log?${params.toString()}`);
};
export const fetchUsers = () => call(AdminUserList, "GET", "/api/admin/users");
export const createUser = (username: string) =>
  call(CreatedAdminUser, "POST", "/api/admin/users", { username });
export const setUserDisabled = (id: string, disabled: boolean) =>
  call(AdminUser, "PATCH", `/api/admin/users/${encodeURIComponent(id)}`, { disabled });
export const setUserTakesNewLeads = (id: string, takesNewLeads: boolean) =>
  call(AdminUser, "PATCH", `/api/admin/users/${encodeURIComponent(id)}`, { takesNewLeads });
export const updateAccount = (body: UpdateAccountBody) =>
  call(AdminAccount, "PUT", "/api/admin/account", body);
export const resetUserTotp = (id: string) =>
  call(AdminUser, "POST", `/api/admin/users/${encodeURIComponent(id)}/totp/reset`, {});
export const removeUser = (id: string) =>
  apiRequest<unknown>("DELETE", `/api/admin/users/${encodeURIComponent(id)}`);
export const fetchMe = () => call(AdminSession, "GET", "/api/admin/me");
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
export const logout = () => apiRequest<unknown>("POST", "/api/admin/logout");

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
  call(LeaseRequestListResponse, "GET", `/api/admin/lease-requests${leaseRequestQuery(filter)}`);

/** One request by id; null when it does not exist (deleted meanwhile, or a mistyped link). */
export async function findLeaseRequest(id: string): Promise<LeaseRequest | null> {
  try {
    return await call(LeaseRequest, "GET", `/api/admin/lease-requests/${encodeURIComponent(id)}`);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

export const updateLeaseStatus = (id: string, body: UpdateLeaseStatusInput) =>
  call(LeaseRequest, "PATCH", `/api/admin/lease-requests/${encodeURIComponent(id)}/status`, body);

export const deleteLeaseRequest = (id: string) =>
  apiRequest<unknown>("DELETE", `/api/admin/lease-requests/${encodeURIComponent(id)}`);

/** Sets or clears "Opvolgen op" (YYYY-MM-DD). */
/** Sends the request's failed conversions to one ad platform (or every one) again. */
export const retryConversions = (id: string, platform?: ConversionPlatform) =>
  call(LeaseRequest, "POST", `/api/admin/lease-requests/${encodeURIComponent(id)}/conversions/retry`, {
    ...(platform ? { platform } : {}),
  });

export const setFollowUp = (id: string, followUpOn: string | null) =>
  call(LeaseRequest, "PUT", `/api/admin/lease-requests/${encodeURIComponent(id)}/follow-up`, { followUpOn });

/** A request's timeline rows (receipt, status changes, notes), newest first. */
export const fetchLeadHistory = (id: string) =>
  call(LeadHistory, "GET", `/api/admin/lease-requests/${encodeURIComponent(id)}/history`);
/** The e-mails sent for a request (its newest 100), for its timeline. */
export const fetchLeadEmails = (id: string) =>
  call(
    EmailMessageList,
    "GET",
    `/api/admin/emails?${new URLSearchParams({ folder: "sent", leaseRequestId: id, limit: "100" }).toString()}`,
  );
export const addLeadNote = (id: string, body: string) =>
  call(LeadNote, "POST", `/api/admin/lease-requests/${encodeURIComponent(id)}/notes`, { body });
export const updateLeadNote = (id: string, noteId: string, body: string) =>
  call(
    LeadNote,
    "PUT",
    `/api/admin/lease-requests/${encodeURIComponent(id)}/notes/${encodeURIComponent(noteId)}`,
    { body },
  );
export const deleteLeadNote = (id: string, noteId: string) =>
  apiRequest<unknown>(
    "DELETE",
    `/api/admin/lease-requests/${encodeURIComponent(id)}/notes/${encodeURIComponent(noteId)}`,
  );

export const exportCsvUrl = (
  filter: Pick<LeaseRequestFilter, "q" | "status" | "followUp" | "channel" | "campaign" | "owner">,
) => `/api/admin/lease-requests/export.csv${leaseRequestQuery(filter)}`;

export const setLeadOwner = (id: string, ownerId: string) =>
  call(LeaseRequest, "PATCH", `/api/admin/lease-requests/${encodeURIComponent(id)}/owner`, { ownerId });
export const logCall = (id: string, body: LogCallBody) =>
  call(LeadCall, "POST", `/api/admin/lease-requests/${encodeURIComponent(id)}/calls`, body);
export const fetchResponseSettings = () =>
  call(ResponseSettingsResponse, "GET", "/api/admin/response-settings");
export const updateResponseSettings = (body: UpdateResponseSettingsBody) =>
  call(ResponseSettingsResponse, "PUT", "/api/admin/response-settings", body);

export const fetchCompanySettings = () => call(AdminCompanySettings, "GET", "/api/admin/company-settings");
/** Partial update: absent keeps a value, "" clears it (the contract's input shape). */
export type CompanySettingsUpdate = z.input<typeof UpdateCompanySettingsBody>;
export const fetchConversionSettings = () =>
  call(ConversionSettings, "GET", "/api/admin/conversion-settings");
export const updateConversionSettings = (body: UpdateConversionSettingsInput) =>
  call(ConversionSettings, "PUT", "/api/admin/conversion-settings", body);
/** One test event to the platform's test tool; answers the platform's status and own message. */
export const sendConversionTest = (platform: ConversionPlatform, body: ConversionTestBody) =>
  call(
    ConversionTestResult,
    "POST",
    `/api/admin/conversion-settings/${encodeURIComponent(platform)}/test`,
    body,
  );

export const fetchGoogleAdsSettings = () => call(GoogleAdsSettings, "GET", "/api/admin/google-ads-settings");
export const updateGoogleAdsSettings = (body: UpdateGoogleAdsSettingsBody) =>
  call(GoogleAdsSettings, "PUT", "/api/admin/google-ads-settings", body);
/** A new secret URL for Google Ads' scheduled upload (answered once); the previous one stops working. */
export const rotateGoogleAdsFeed = () =>
  call(GoogleAdsFeedUrl, "POST", "/api/admin/google-ads-settings/feed-url", {});
/** The Google Ads offline conversion file, as the browser downloads it (the session cookie goes along). */
export const GOOGLE_ADS_FILE_URL = "/api/admin/google-ads/conversions.csv";

export const updateCompanySettings = (body: CompanySettingsUpdate) =>
  call(AdminCompanySettings, "PUT", "/api/admin/company-settings", body);

export const fetchTheme = () => call(ThemeSettings, "GET", "/api/theme-settings");
export const updateTheme = (body: ThemeValues) =>
  call(ThemeSettings, "PUT", "/api/admin/theme-settings", body);

export const sendTestEmail = () => call(EmailSettingsTestResponse, "POST", "/api/admin/email-settings/test");

/** One page of a folder (inbox or sent mail), newest first; `before` is the previous page's `next`. */
export async function fetchEmails(folder: EmailFolder, before?: string) {
  const query = `folder=${folder}&limit=${INBOX_PAGE}${before ? `&before=${encodeURIComponent(before)}` : ""}`;
  const { data, headers } = await apiExchange<unknown>("GET", `/api/admin/emails?${query}`);
  const items = EmailMessageList.parse(data);
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
export const fetchEmail = (id: string) =>
  call(EmailMessage, "GET", `/api/admin/emails/${encodeURIComponent(id)}`);
export const retryEmail = (id: string) =>
  call(RetryEmailResponse, "POST", `/api/admin/emails/${encodeURIComponent(id)}/retry`);
export const cancelEmail = (id: string) =>
  call(CancelEmailResponse, "POST", `/api/admin/emails/${encodeURIComponent(id)}/cancel`);
export const markEmailRead = (id: string) =>
  call(EmailMessage, "PUT", `/api/admin/emails/${encodeURIComponent(id)}/read`);
export const deleteEmail = (id: string) =>
  apiRequest<unknown>("DELETE", `/api/admin/emails/${encodeURIComponent(id)}`);
export const sendEmail = (body: SendEmailBody) =>
  call(SendEmailResponse, "POST", "/api/admin/send-email", body);

export const fetchVisitorStats = () => call(VisitorStats, "GET", "/api/admin/visitor-stats");
/** One page of the active visitors, and how many are active in all. */
export interface ActiveVisitorsPage {
  visitors: ActiveVisitorList;
  total: number;
}
export async function fetchActiveVisitors(offset: number, limit: number): Promise<ActiveVisitorsPage> {
  const { data, headers } = await apiExchange<unknown>(
    "GET",
    `/api/admin/active-visitors?offset=${offset}&limit=${limit}`,
  );
  const visitors = ActiveVisitorList.parse(data);
  const total = Number(headers.get(ACTIVE_VISITORS_TOTAL_HEADER));
  return { visitors, total: Number.isInteger(total) ? total : offset + visitors.length };
}
/** A period's analytics, narrowed to the visits that match `filter` (channel, campaign, page) when given. */
export const fetchAnalytics = (from: string, to: string, filter: Record<string, string> = {}) =>
  call(Analytics, "GET", `/api/admin/analytics?${new URLSearchParams({ from, to, ...filter }).toString()}`);

// People's data (AVG): the address goes in the body (POST), never in a URL.
export const searchPersonalData = (email: string) =>
  call(PrivacySummary, "POST", "/api/admin/privacy/search", { email });
export const erasePersonalData = (email: string) =>
  call(PrivacyErasure, "POST", "/api/admin/privacy/erase", { email, confirm: PRIVACY_ERASE_CONFIRMATION });

/** The export as the file the gateway names (a JSON attachment), downloaded in the browser. */
export async function downloadPersonalData(email: string): Promise<void> {
  const response = await fetch("/api/admin/privacy/export", {
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
  call(AdSpendImportResult, "POST", "/api/admin/ad-spend/import", { csv });
export const addAdSpend = (body: AdSpendEntryBody) =>
  call(AdSpendImportResult, "POST", "/api/admin/ad-spend", body);
export const fetchAdSpend = (from: string, to: string) =>
  call(AdSpendList, "GET", `/api/admin/ad-spend?${new URLSearchParams({ from, to })}`);
export const linkSpendCampaign = (body: SpendLinkBody) =>
  apiRequest<unknown>("PUT", "/api/admin/ad-spend/links", body);
/** How the promised response times were kept (its CSV: responseReportCsvUrl). */
export const fetchResponseReport = (from: string, to: string) =>
  call(ResponseReport, "GET", `/api/admin/response-report?${new URLSearchParams({ from, to })}`);
export const responseReportCsvUrl = (from: string, to: string) =>
  `/api/admin/response-report.csv?${new URLSearchParams({ from, to })}`;

export const fetchCampaignReport = (from: string, to: string) =>
  call(CampaignReport, "GET", `/api/admin/campaign-report?${new URLSearchParams({ from, to })}`);

// The conversation on the lead: a received e-mail's HTML, and the SendGrid webhooks' settings.
export const fetchEmailDetail = (id: string) =>
  call(EmailDetail, "GET", `/api/admin/emails/${encodeURIComponent(id)}`);
export const fetchEmailSettings = () => call(EmailSettings, "GET", "/api/admin/email-settings");
export const rotateInboundUrl = () => call(InboundUrl, "POST", "/api/admin/email-settings/inbound-url", {});
export const saveReplyAddress = (replyAddress: string | null) =>
  call(EmailSettings, "PUT", "/api/admin/email-settings/inbound", { replyAddress });
export const saveEventWebhookKey = (verificationKey: string) =>
  call(EmailSettings, "PUT", "/api/admin/email-settings/event-webhook", { verificationKey });

// Staff's e-mail templates (E-mail Instellingen; the compose window offers them).
export const fetchEmailTemplates = () => call(EmailTemplateList, "GET", "/api/admin/email-templates");
export const saveEmailTemplate = (template: EmailTemplateBody & { id?: string }) => {
  const { id, ...body } = template;
  return id
    ? call(EmailTemplate, "PUT", `/api/admin/email-templates/${encodeURIComponent(id)}`, body)
    : call(EmailTemplate, "POST", "/api/admin/email-templates", body);
};
export const deleteEmailTemplate = (id: string) =>
  apiRequest<unknown>("DELETE", `/api/admin/email-templates/${encodeURIComponent(id)}`);
