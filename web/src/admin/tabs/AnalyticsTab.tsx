import { ACTIVE_VISITORS_PAGE } from "@lease/contracts";
import { useEffect, useState } from "react";
import { Badge, Counter, LoadingText, Pager, Panel } from "../../components/ui";
import { ActiveVisitorsTable } from "./ActiveVisitorsTable";
import { useLiveVisitors } from "./useLiveVisitors";
import { AnalyticsPeriod } from "./AnalyticsPeriod";

const number = new Intl.NumberFormat("nl-NL");

export function AnalyticsTab() {
  // The active visitors a page at a time (from 0), so the tab stays a page long with hundreds.
  const [page, setPage] = useState(0);
  const { connected, stats, activeVisitors } = useLiveVisitors(page);
  const data = stats.data;
  const visitors = activeVisitors.data?.visitors ?? [];
  const total = activeVisitors.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ACTIVE_VISITORS_PAGE));
  // Fewer visitors than the page shown (they left): the last page there is.
  useEffect(() => {
    if (activeVisitors.data && page >= pages) setPage(pages - 1);
  }, [activeVisitors.data, page, pages]);
  const first = page * ACTIVE_VISITORS_PAGE + 1;
  const range =
    total > ACTIVE_VISITORS_PAGE
      ? `${number.format(first)}–${number.format(Math.min(first + visitors.length - 1, total))} van ${number.format(total)} getoond`
      : `${number.format(total)} ${total === 1 ? "actieve bezoeker" : "actieve bezoekers"}`;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-gray-900">Live bezoekers</h2>
        <span
          className="flex items-center gap-2 text-sm"
          data-testid="live-status"
          data-connected={connected}
        >
          <span
            className={`h-2.5 w-2.5 rounded-full ${connected ? "bg-green-500" : "bg-red-500"}`}
            aria-hidden="true"
          />
          {connected ? "Live verbonden" : "Verbinding verbroken"}
        </span>
      </div>
      <div className="grid grid-cols-3 gap-4">
        <Counter label="Nu actief" value={data?.currentActive ?? "-"} tone="text-green-600" />
        <Counter label="Vandaag" value={data?.todayTotal ?? "-"} />
        <Counter label="Deze week" value={data?.thisWeekTotal ?? "-"} />
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <AnalyticsPeriod liveTick={stats.dataUpdatedAt} />
        <Panel
          title="Actieve bezoekers"
          className="lg:col-span-2"
          actions={
            activeVisitors.data && (
              <span className="text-sm text-gray-600" data-testid="active-visitors-range">
                {range}
              </span>
            )
          }
        >
          {activeVisitors.isPending ? (
            <LoadingText />
          ) : total === 0 && visitors.length === 0 ? (
            <p className="text-gray-600">Geen actieve bezoekers</p>
          ) : (
            <ActiveVisitorsTable visitors={visitors} />
          )}
          {pages > 1 && <Pager page={page + 1} lastPage={pages} onPage={(next) => setPage(next - 1)} />}
          <p className="mt-4 text-xs text-gray-500">
            <a href="https://db-ip.com" target="_blank" rel="noopener noreferrer" className="underline">
              IP Geolocation by DB-IP
            </a>
          </p>
        </Panel>
      </div>
      {!connected && (
        <p className="text-xs text-gray-500">
          <Badge tone="yellow">Polling</Badge> De gegevens worden elke 10 seconden ververst tot de live
          verbinding terug is.
        </p>
      )}
    </div>
  );
}
