import { Badge, Counter, LoadingText, Panel } from "../../components/ui";
import { ActiveVisitorsTable } from "./ActiveVisitorsTable";
import { useLiveVisitors } from "./useLiveVisitors";
import { AnalyticsPeriod } from "./AnalyticsPeriod";

export function AnalyticsTab() {
  const { connected, stats, activeVisitors } = useLiveVisitors();
  const data = stats.data;
  const visitors = activeVisitors.data ?? [];
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
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Counter label="Nu actief" value={data?.currentActive ?? "-"} tone="text-green-600" />
        <Counter label="Vandaag" value={data?.todayTotal ?? "-"} />
        <Counter label="Deze week" value={data?.thisWeekTotal ?? "-"} />
        <Counter label="Actieve bezoekers" value={activeVisitors.data ? visitors.length : "-"} />
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <AnalyticsPeriod liveTick={stats.dataUpdatedAt} />
        <Panel title="Actieve bezoekers" className="lg:col-span-2">
          {activeVisitors.isPending ? (
            <LoadingText />
          ) : visitors.length === 0 ? (
            <p className="text-gray-600">Geen actieve bezoekers</p>
          ) : (
            <ActiveVisitorsTable visitors={visitors} />
          )}
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
