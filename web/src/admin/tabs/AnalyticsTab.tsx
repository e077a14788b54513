import { Badge, Counter, LoadingText, Panel } from "../components/ui";
import { formatAmsterdamDateTime } from "../lib/format";
import { browserName, pageLabel } from "../lib/live";
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
            <div className="overflow-x-auto">
              <table className="w-full min-w-[40rem] text-left text-sm" data-testid="active-visitors">
                <thead className="text-gray-600">
                  <tr>
                    {["Pagina", "User agent", "Stad", "Land", "IP-bereik", "Laatst gezien"].map((head) => (
                      <th key={head} scope="col" className="py-2 pr-3 font-medium">
                        {head}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-gray-100">
                  {visitors.map((visitor) => (
                    <tr key={visitor.id}>
                      <td className="py-2 pr-3 text-gray-900">{pageLabel(visitor.page)}</td>
                      {visitor.anonymous ? (
                        <td className="py-2 pr-3 text-gray-600">Anoniem (geen toestemming)</td>
                      ) : (
                        <td className="py-2 pr-3" title={visitor.userAgent}>
                          <span className="block font-medium">{browserName(visitor.userAgent)}</span>
                          <span className="block max-w-[16rem] truncate text-xs text-gray-500">
                            {visitor.userAgent}
                          </span>
                        </td>
                      )}
                      <td className="py-2 pr-3">{visitor.city || "-"}</td>
                      <td className="py-2 pr-3">{visitor.country || "-"}</td>
                      <td className="py-2 pr-3 font-mono text-xs">{visitor.ipAddress || "-"}</td>
                      <td className="py-2 pr-3 whitespace-nowrap">
                        {formatAmsterdamDateTime(visitor.lastSeen)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
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
