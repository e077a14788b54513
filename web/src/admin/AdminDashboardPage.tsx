import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type KeyboardEvent } from "react";
import { Link, useLocation, useNavigate, useNavigationType, useSearchParams } from "react-router-dom";
import { useNotice } from "../components/notice";
import { errorStatus } from "../api/client";
import { ADMIN_KEYS, fetchMe, logout } from "./api";
import { Button, Select } from "../components/ui";
import { AnalyticsTab } from "./tabs/AnalyticsTab";
import { CompanySettingsTab } from "./tabs/CompanySettingsTab";
import { EmailSettingsTab } from "./tabs/EmailSettingsTab";
import { InboxTab } from "./tabs/InboxTab";
import { LeaseRequestsTab } from "./tabs/LeaseRequestsTab";
import { PixelsTab } from "./tabs/PixelsTab";
import { ThemeSettingsTab } from "./tabs/ThemeSettingsTab";
import { UsersTab } from "./tabs/UsersTab";
import { OneTimePasswordsProvider } from "./lib/one-time-passwords";
import { AuditLogTab } from "./tabs/AuditLogTab";
import { PrivacyTab } from "./tabs/PrivacyTab";
import { CampaignsTab } from "./tabs/CampaignsTab";
import { ResponseReportTab } from "./tabs/ResponseReportTab";
import { endedFromError, type LoginState } from "./lib/session";
import { dashboardTitle, useLeadAlerts } from "./lib/use-lead-alerts";
import { followUpsDueText } from "./lib/follow-up";
import { FOLLOW_UP_PARAM, OPENS_TAB, opensTab } from "./lib/lead-link";

const TABS = [
  { id: "analytics", label: "Analytics", Panel: AnalyticsTab },
  { id: "aanvragen", label: "Lease Aanvragen", Panel: LeaseRequestsTab },
  { id: "reactietijden", label: "Reactietijden", Panel: ResponseReportTab },
  { id: "campagnes", label: "Campagnes", Panel: CampaignsTab },
  { id: "bedrijf", label: "Bedrijfsgegevens", Panel: CompanySettingsTab },
  { id: "theme", label: "Theme Instellingen", Panel: ThemeSettingsTab },
  { id: "email", label: "E-mail Instellingen", Panel: EmailSettingsTab },
  { id: "inbox", label: "E-mail Inbox", Panel: InboxTab },
  { id: "pixels", label: "Social Media Pixels", Panel: PixelsTab },
  { id: "gebruikers", label: "Gebruikers", Panel: UsersTab },
  { id: "privacy", label: "Privacy", Panel: PrivacyTab },
  { id: "logboek", label: "Logboek", Panel: AuditLogTab },
] as const;
type TabId = (typeof TABS)[number]["id"];

/**
 * The open tab lives in the URL as ?tab=<id> (Analytics, the default, has none), so a reload keeps
 * it and Back returns to the previous tab; other query parameters (the Analytics period) stay.
 */
export const TAB_PARAM = "tab";
const DEFAULT_TAB: TabId = "analytics";
const isAdminQuery = (key: unknown) => String(key).startsWith("/api/admin");

export default function AdminDashboardPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { notify, clear: clearNotices } = useNotice();
  const [params, setParams] = useSearchParams();
  const urlTab = TABS.find((entry) => entry.id === params.get(TAB_PARAM))?.id ?? DEFAULT_TAB;
  // Shown at once on a click or key; the URL (a router navigation, rendered in a transition)
  // follows. Back and Forward (a POP) bring the shown tab in line with the URL.
  const [tab, setTab] = useState<TabId>(urlTab);
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType === "POP" || opensTab(location.state)) setTab(urlTab);
  }, [urlTab, navigationType, location.key, location.state]);
  const active = TABS.find((entry) => entry.id === tab)!;
  // The session check is never retried; a failure sends the admin to the login page.
  const me = useQuery({ queryKey: ADMIN_KEYS.me, queryFn: fetchMe, retry: false, staleTime: 0 });

  const selectTab = (id: TabId, how: "push" | "replace" = "push") => {
    setTab(id);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id === DEFAULT_TAB) next.delete(TAB_PARAM);
        else next.set(TAB_PARAM, id);
        return next;
      },
      { replace: how === "replace" },
    );
  };

  // New leads arrive live (notice, lists reloaded); the unread count leads the page title.
  const { unread, followUpDue, live } = useLeadAlerts(Boolean(me.data), me.data?.admin.id);
  useEffect(() => {
    if (me.data) document.title = dashboardTitle(active.label, unread);
  }, [active.label, me.data, unread]);

  // To the login page, which brings the admin back to this very tab. A session that ended while the
  // dashboard was open (it had answered before) is named: "Sessie verlopen".
  const hadSession = Boolean(me.data);
  useEffect(() => {
    if (!me.isError) return;
    const state: LoginState = {
      from: `${location.pathname}${location.search}`,
      expired: hadSession,
      ended: endedFromError(me.error),
    };
    // Nothing of the ended session may linger (nor make the login page think it is still valid):
    // not its answers, nor a notice about a lead shown to whoever signs in next at this screen.
    queryClient.removeQueries({ predicate: (query) => isAdminQuery(query.queryKey[0]) });
    clearNotices();
    navigate("/admin-login", { replace: true, state });
  }, [
    me.isError,
    me.error,
    hadSession,
    location.pathname,
    location.search,
    navigate,
    queryClient,
    clearNotices,
  ]);

  // A session that ends while the dashboard is open (expired, logged out elsewhere): any admin
  // call or save answered 401 re-checks the session.
  useEffect(() => {
    const recheck = (key: unknown, error: unknown) => {
      if (key === ADMIN_KEYS.me[0] || errorStatus(error) !== 401) return;
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.me });
    };
    const queries = queryClient.getQueryCache().subscribe((event) => {
      const { query } = event;
      if (event.type === "updated" && query.state.status === "error")
        recheck(query.queryKey[0], query.state.error);
    });
    const mutations = queryClient.getMutationCache().subscribe((event) => {
      const mutation = event.mutation;
      if (event.type === "updated" && mutation?.state.status === "error") recheck(null, mutation.state.error);
    });
    return () => {
      queries();
      mutations();
    };
  }, [queryClient]);

  // WAI-ARIA tabs: arrow keys, Home and End move between the tabs (one tab stop for the list).
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((entry) => entry.id === tab);
    const next = nextTabIndex(event.key, index, TABS.length);
    if (next === null) return;
    event.preventDefault();
    const id = TABS[next]!.id;
    selectTab(id, "replace");
    document.getElementById(`tab-${id}`)?.focus();
  };

  const signOut = useMutation({
    mutationFn: logout,
    onSettled: () => {
      // Forget every admin answer, so nothing of this session shows after the next login.
      queryClient.removeQueries({ predicate: (query) => isAdminQuery(query.queryKey[0]) });
      // A lead's live notice waiting behind this one would show on the login page.
      clearNotices();
      notify({ title: "Uitgelogd", description: "Je bent succesvol uitgelogd." });
      navigate("/admin-login", { replace: true });
    },
  });

  if (!me.data) {
    return (
      <main className="flex min-h-screen items-center justify-center bg-gray-50" role="status">
        <p className="text-lg text-gray-700">Admin dashboard laden...</p>
      </main>
    );
  }

  const Active = active.Panel;
  return (
    <div className="min-h-screen bg-gray-50" data-live={live}>
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-6">
          <div>
            <h1 className="text-xl font-bold text-gray-900 sm:text-2xl">Admin Dashboard</h1>
            <p className="text-sm text-gray-600" data-testid="welkom">
              Welkom, {me.data.admin.username}
            </p>
            {/* A line in the header, never a notice over the tabs: it stays while they are due. */}
            {followUpDue ? (
              <p className="mt-1 text-sm text-gray-800" data-testid="opvolgen-vandaag">
                {followUpsDueText(followUpDue)}{" "}
                <Link
                  className="font-semibold text-primary-strong underline"
                  to={`?${TAB_PARAM}=aanvragen&${FOLLOW_UP_PARAM}=vandaag`}
                  state={OPENS_TAB}
                >
                  Bekijk ze
                </Link>
              </p>
            ) : null}
          </div>
          <Button variant="secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Uitloggen
          </Button>
        </div>
        <nav className="mx-auto max-w-7xl px-4 sm:px-6" aria-label="Dashboard tabbladen">
          {/* A phone gets one compact menu instead of the tabs' five rows. */}
          <div className="flex items-center gap-3 pb-3 sm:hidden">
            <label htmlFor="tab-menu" className="text-sm font-semibold text-gray-700">
              Tabblad
            </label>
            <Select
              id="tab-menu"
              className="flex-1"
              value={tab}
              onChange={selectTab}
              options={TABS.map((entry) => ({ value: entry.id, label: entry.label }))}
            />
          </div>
          <div role="tablist" className="hidden flex-wrap gap-x-1 sm:flex" onKeyDown={onTabKey}>
            {TABS.map((entry) => (
              <button
                key={entry.id}
                type="button"
                role="tab"
                id={`tab-${entry.id}`}
                aria-selected={tab === entry.id}
                aria-controls="tab-inhoud"
                tabIndex={tab === entry.id ? 0 : -1}
                onClick={() => {
                  if (entry.id !== tab) selectTab(entry.id);
                }}
                className={`border-b-2 px-3 py-3 text-sm font-semibold whitespace-nowrap ${
                  tab === entry.id
                    ? "border-primary text-primary-strong"
                    : "border-transparent text-gray-600 hover:text-gray-900"
                }`}
              >
                {entry.label}
              </button>
            ))}
          </div>
        </nav>
      </header>
      <main
        id="tab-inhoud"
        role="tabpanel"
        aria-labelledby={`tab-${tab}`}
        className="mx-auto max-w-7xl px-4 py-6 sm:px-6"
      >
        <OneTimePasswordsProvider key={me.data.admin.id}>
          <Active />
        </OneTimePasswordsProvider>
      </main>
    </div>
  );
}

/** The tab a key moves to, wrapping around; null for other keys. */
function nextTabIndex(key: string, index: number, count: number): number | null {
  if (key === "ArrowRight") return (index + 1) % count;
  if (key === "ArrowLeft") return (index - 1 + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}
