import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { channelLabel, type CampaignFigures } from "@lease/contracts";
import { useState } from "react";
import { userErrorMessage } from "../../api/client";
import { ADMIN_KEYS, fetchCampaignReport } from "../api";
import { Button, LoadingText, Panel, TEXT_INPUT } from "../../components/ui";
import {
  FIGURE_COLUMNS,
  campaignReportCsv,
  othersLabel,
  sortRows,
  type FigureKey,
} from "../lib/campaign-report";
import { OTHER_VALUE_HELP, OtherValueLegend, mentionsOther } from "../components/OtherValue";
import { amsterdamToday } from "../lib/follow-up";

function daysBefore(day: string, n: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - n);
  return date.toISOString().slice(0, 10);
}

/** Downloads text as a file, as the browser saves any download. */
function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The campaign report: what each campaign (or channel) cost and brought, sortable, with the previous period. */
export function CampaignReportSection() {
  const today = amsterdamToday();
  const [period, setPeriod] = useState({ from: daysBefore(today, 29), to: today });
  const [draft, setDraft] = useState(period);
  const [view, setView] = useState<"campagne" | "kanaal">("campagne");
  const [sort, setSort] = useState<{ key: FigureKey; descending: boolean }>({
    key: "spend",
    descending: true,
  });
  const [compare, setCompare] = useState(false);
  const report = useQuery({
    queryKey: [...ADMIN_KEYS.campaignReport, period],
    queryFn: () => fetchCampaignReport(period.from, period.to),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const data = report.data;
  // Figures on screen while newer ones load (the tab reopened, or another period asked for): dimmed
  // and said so; the previous period's figures are never downloaded as the new one's.
  const refreshing = report.isFetching && !report.isPending;
  type Row = CampaignFigures & { label: string[]; previous: CampaignFigures | null };
  const rows: Row[] = data
    ? view === "campagne"
      ? data.rows.map((r) => ({ ...r, label: [r.source, r.medium, r.campaign] }))
      : data.channels.map((r) => ({ ...r, label: [channelLabel(r.channel)] }))
    : [];
  const sorted = sortRows(rows, sort.key, sort.descending);
  const labels = view === "campagne" ? ["Bron", "Medium", "Campagne"] : ["Kanaal"];

  return (
    <Panel
      title="Campagnerapport"
      actions={
        <Button
          variant="secondary"
          disabled={!data || report.isPlaceholderData}
          onClick={() => data && download(`campagnes-${data.from}-${data.to}.csv`, campaignReportCsv(data))}
        >
          Download CSV
        </Button>
      }
    >
      <form
        className="mb-3 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setPeriod(draft);
        }}
      >
        <label className="text-sm font-medium text-gray-700">
          Van
          <input
            type="date"
            className={TEXT_INPUT}
            value={draft.from}
            max={today}
            onChange={(event) => setDraft((d) => ({ ...d, from: event.target.value }))}
          />
        </label>
        <label className="text-sm font-medium text-gray-700">
          Tot en met
          <input
            type="date"
            className={TEXT_INPUT}
            value={draft.to}
            max={today}
            onChange={(event) => setDraft((d) => ({ ...d, to: event.target.value }))}
          />
        </label>
        <Button type="submit" variant="secondary">
          Toon
        </Button>
        <label className="text-sm font-medium text-gray-700">
          Per
          <select
            className={TEXT_INPUT}
            value={view}
            onChange={(event) => setView(event.target.value as "campagne" | "kanaal")}
          >
            <option value="campagne">campagne</option>
            <option value="kanaal">kanaal</option>
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm text-gray-700">
          <input type="checkbox" checked={compare} onChange={(event) => setCompare(event.target.checked)} />
          Vergelijk met de vorige periode
        </label>
      </form>
      <p className="mb-3 text-sm text-gray-600" data-testid="cohort-note">
        Offertes, contracten en commissie tellen in de periode waarin de aanvraag binnenkwam, ook als het
        contract later is getekend.
        {data && compare && ` Vorige periode: ${data.previousFrom} t/m ${data.previousTo}.`}
      </p>
      {refreshing && (
        <p className="mb-2 text-sm text-gray-600" role="status" data-testid="report-refreshing">
          Cijfers worden bijgewerkt...
        </p>
      )}
      {report.isPending ? (
        <LoadingText />
      ) : report.isError ? (
        <p className="text-red-700">{userErrorMessage(report.error, "Kon het campagnerapport niet laden")}</p>
      ) : sorted.length === 0 ? (
        <p className="text-gray-600">Geen campagnes met bezoek of kosten in deze periode.</p>
      ) : (
        <div
          className={`overflow-x-auto transition-opacity ${refreshing ? "opacity-50" : ""}`}
          aria-busy={refreshing || undefined}
        >
          <table className="w-full text-right text-sm" data-testid="campaign-report">
            <thead>
              <tr className="border-b border-gray-200 text-gray-600">
                {labels.map((label) => (
                  <th key={label} scope="col" className="py-2 pr-3 text-left">
                    {label}
                  </th>
                ))}
                {FIGURE_COLUMNS.map((column) => (
                  <th
                    key={column.key}
                    scope="col"
                    className="py-2 pr-3"
                    aria-sort={
                      sort.key === column.key ? (sort.descending ? "descending" : "ascending") : undefined
                    }
                  >
                    <button
                      type="button"
                      className="underline decoration-dotted"
                      onClick={() =>
                        setSort((now) => ({
                          key: column.key,
                          descending: now.key === column.key ? !now.descending : true,
                        }))
                      }
                    >
                      {column.label}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {sorted.map((row) => (
                <tr key={row.label.join("/")} className="border-b border-gray-100" data-testid="report-row">
                  {row.label.map((part, i) => (
                    <td
                      key={i}
                      className="py-2 pr-3 text-left wrap-anywhere"
                      title={mentionsOther(part) ? OTHER_VALUE_HELP : undefined}
                    >
                      {part}
                    </td>
                  ))}
                  <FigureCells figures={row} previous={compare ? row.previous : undefined} />
                </tr>
              ))}
              {view === "campagne" && data?.others && (
                <tr className="border-b border-gray-100 text-gray-700" data-testid="report-others">
                  <td className="py-2 pr-3 text-left" colSpan={labels.length}>
                    {othersLabel(data.others.campaigns)}
                  </td>
                  <FigureCells figures={data.others} previous={compare ? data.others.previous : undefined} />
                </tr>
              )}
            </tbody>
            {data && (
              <tfoot>
                <tr className="font-semibold" data-testid="report-totals">
                  <td className="py-2 pr-3 text-left" colSpan={labels.length}>
                    Totaal
                  </td>
                  <FigureCells figures={data.totals} previous={compare ? data.previousTotals : undefined} />
                </tr>
              </tfoot>
            )}
          </table>
        </div>
      )}
      {rows.some((row) => row.label.some(mentionsOther)) && <OtherValueLegend />}
    </Panel>
  );
}

function FigureCells({
  figures,
  previous,
}: {
  figures: CampaignFigures;
  /** undefined: no comparison shown; null: the row was not there before. */
  previous?: CampaignFigures | null;
}) {
  return (
    <>
      {FIGURE_COLUMNS.map((column) => (
        <td key={column.key} className="py-2 pr-3 whitespace-nowrap" data-column={column.key}>
          {column.format(figures[column.key])}
          {previous !== undefined && (
            <span className="block text-xs text-gray-500">
              {previous ? column.format(previous[column.key]) : "-"}
            </span>
          )}
        </td>
      ))}
    </>
  );
}
