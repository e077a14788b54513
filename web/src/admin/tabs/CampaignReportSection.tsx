import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { channelLabel } from "@lease/contracts";
import { useState } from "react";
import { userErrorMessage } from "../../api/client";
import { ADMIN_KEYS, fetchCampaignReport } from "../api";
import { Button, LoadingText, Panel, Select } from "../../components/ui";
import {
  SCREEN_COLUMNS,
  campaignReportCsv,
  othersLabel,
  sortRows,
  type FigureKey,
} from "../lib/campaign-report";
import { DateRange } from "../components/DateRange";
import { OtherValueLegend, mentionsOther } from "../components/OtherValue";
import { periodInWords } from "../lib/periods";
import { CampaignCards, CampaignTable, type ReportLine, type ReportLines } from "./CampaignReportViews";

export interface ReportPeriod {
  from: string;
  to: string;
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

/**
 * The campaign report: what each campaign (or channel) cost and brought, sortable, with the
 * previous period. A table from the sm breakpoint, a card per campaign on a phone.
 */
const VIEWS: { value: "campagne" | "kanaal"; label: string }[] = [
  { value: "campagne", label: "campagne" },
  { value: "kanaal", label: "kanaal" },
];

export function CampaignReportSection({
  period,
  onPeriod,
  today,
}: {
  period: ReportPeriod;
  onPeriod: (period: ReportPeriod) => void;
  today: string;
}) {
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
  const rows: ReportLine[] = data
    ? view === "campagne"
      ? data.rows.map((r) => ({ ...r, label: [r.source, r.medium, r.campaign] }))
      : data.channels.map((r) => ({ ...r, label: [channelLabel(r.channel)] }))
    : [];
  const sorted = sortRows(rows, sort.key, sort.descending);
  const labels = view === "campagne" ? ["Bron", "Medium", "Campagne"] : ["Kanaal"];
  const extra: ReportLine[] = [];
  if (data && view === "campagne" && data.others)
    extra.push({ ...data.others, label: [othersLabel(data.others.campaigns)], kind: "others" });
  if (data) extra.push({ ...data.totals, previous: data.previousTotals, label: ["Totaal"], kind: "totals" });
  const lines: ReportLines = { rows: sorted, extra, labels, compare };

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
          onPeriod(draft);
        }}
      >
        <DateRange value={draft} max={today} onChange={(range) => setDraft((d) => ({ ...d, ...range }))} />
        <Button type="submit" variant="secondary">
          Toon
        </Button>
        <label className="text-sm font-medium text-gray-700">
          Per
          <Select value={view} onChange={setView} options={VIEWS} />
        </label>
        {/* The table sorts by its column headings; a phone's cards by this list. */}
        <label className="text-sm font-medium text-gray-700 sm:hidden">
          Sorteer op
          <Select
            value={sort.key}
            onChange={(key) => setSort({ key, descending: true })}
            options={SCREEN_COLUMNS.map((column) => ({
              value: column.key,
              label: `${column.label} (hoogste eerst)`,
            }))}
          />
        </label>
        <label className="flex items-center gap-2 text-sm text-gray-700">
          <input type="checkbox" checked={compare} onChange={(event) => setCompare(event.target.checked)} />
          Vergelijk met de vorige periode
        </label>
      </form>
      <p className="mb-3 text-sm text-gray-600" data-testid="cohort-note">
        {data && `Periode: ${periodInWords(data.from, data.to)}. `}
        Offertes, contracten en commissie tellen in de periode waarin de aanvraag binnenkwam, ook als het
        contract later is getekend.
        {data && compare && ` Vorige periode: ${periodInWords(data.previousFrom, data.previousTo)}.`}
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
        <div className={`transition-opacity ${refreshing ? "opacity-50" : ""}`}>
          <CampaignTable
            lines={lines}
            busy={refreshing}
            sort={sort}
            onSort={(key) =>
              setSort((now) => ({ key, descending: now.key === key ? !now.descending : true }))
            }
          />
          <CampaignCards lines={lines} busy={refreshing} />
        </div>
      )}
      {rows.some((row) => row.label.some(mentionsOther)) && <OtherValueLegend />}
    </Panel>
  );
}
