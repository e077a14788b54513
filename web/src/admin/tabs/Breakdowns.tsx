import {
  csvCell,
  type Analytics,
  type AnalyticsBreakdownRow,
  type AnalyticsCampaignRow,
  type AnalyticsFilter,
} from "@lease/contracts";
import { channelLabel } from "@lease/contracts";
import { Button, Panel } from "../../components/ui";
import { pageLabel } from "../lib/live";
import { OTHER_VALUE_HELP, OtherValueLegend, mentionsOther } from "../components/OtherValue";

const number = new Intl.NumberFormat("nl-NL");
/** The API answers a breakdown's ten largest values (every channel and device fits). */
const TOP_ROWS = 10;

const DEVICE_LABELS: Readonly<Record<string, string>> = {
  desktop: "Desktop",
  mobile: "Mobiel",
  tablet: "Tablet",
};

interface Table {
  key: keyof Pick<
    Analytics,
    "channels" | "sources" | "campaigns" | "landingPages" | "countries" | "devices" | "browsers"
  >;
  title: string;
  /** Column heading of the value, and the file name of its CSV. */
  column: string;
  file: string;
  label?: (value: string) => string;
  /** The filter a click on a row adds (channels, campaigns and landing pages only). */
  filter?: (row: AnalyticsBreakdownRow) => AnalyticsFilter;
  /** "kanaal", ...: what a row's filter button says it filters on. */
  noun?: string;
  /**
   * Every visit has exactly one value here, so with the conversions of unknown origin the table's
   * requests add up to the period's (campaigns: not every visit has one).
   */
  everyVisit?: boolean;
}

const TABLES: Table[] = [
  {
    key: "channels",
    title: "Kanalen",
    column: "Kanaal",
    file: "kanalen",
    label: channelLabel,
    filter: (row) => ({ channel: row.value as AnalyticsFilter["channel"] }),
    noun: "kanaal",
    everyVisit: true,
  },
  { key: "sources", title: "Bronnen", column: "Bron", file: "bronnen", everyVisit: true },
  {
    key: "campaigns",
    title: "Campagnes",
    column: "Bron / medium / campagne",
    file: "campagnes",
    filter: (row) => {
      const { source, medium, campaign } = row as AnalyticsCampaignRow;
      return { campaign, campaignSource: source, campaignMedium: medium };
    },
    noun: "campagne",
  },
  {
    key: "landingPages",
    title: "Landingspagina's",
    column: "Pagina",
    file: "landingspaginas",
    label: pageLabel,
    filter: (row) => ({ page: row.value }),
    noun: "landingspagina",
    everyVisit: true,
  },
  { key: "countries", title: "Landen", column: "Land", file: "landen", everyVisit: true },
  {
    key: "devices",
    title: "Apparaten",
    column: "Apparaat",
    file: "apparaten",
    label: (v) => DEVICE_LABELS[v] ?? v,
    everyVisit: true,
  },
  { key: "browsers", title: "Browsers", column: "Browser", file: "browsers", everyVisit: true },
];

/** The row of a breakdown for the requests and messages without a known visit. */
export const UNATTRIBUTED_LABEL = "Herkomst onbekend";
export const UNATTRIBUTED_HELP =
  "Herkomst onbekend: aanvragen en berichten zonder bekend bezoek (verstuurd zonder toestemming voor " +
  "analytische cookies, of het bezoek is niet vastgelegd). Ze tellen mee in de conversies van de periode, " +
  "bij geen kanaal, bron, pagina, land, apparaat of browser.";

/** "2,5%", or "–" without visitors. */
export function formatRate(rate: number | null): string {
  return rate === null
    ? "–"
    : `${new Intl.NumberFormat("nl-NL", { maximumFractionDigits: 1 }).format(rate)}%`;
}

/**
 * A CSV for Dutch spreadsheets: semicolons, quoted text, a header row. Values are what visitors
 * sent (UTM values, referrers): csvCell makes a formula start text (`=HYPERLINK(…)` stays text).
 */
export function breakdownCsv(
  column: string,
  rows: readonly AnalyticsBreakdownRow[],
  label = (v: string) => v,
  unattributed?: Analytics["unattributed"],
) {
  const rate = (r: number | null) => (r === null ? "" : String(r).replace(".", ","));
  return [
    [column, "Bezoekers", "Paginaweergaven", "Offerteaanvragen", "Contactberichten", "Conversie (%)"]
      .map(csvCell)
      .join(";"),
    ...rows.map((row) =>
      [
        csvCell(label(row.value)),
        row.visitors,
        row.pageViews,
        row.quotes,
        row.contacts,
        rate(row.conversionRate),
      ].join(";"),
    ),
    ...(unattributed && unattributed.quotes + unattributed.contacts > 0
      ? [[csvCell(UNATTRIBUTED_LABEL), "", "", unattributed.quotes, unattributed.contacts, ""].join(";")]
      : []),
  ].join("\r\n");
}

function download(name: string, csv: string) {
  const url = URL.createObjectURL(new Blob([`\ufeff${csv}`], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A name as a row shows it, never broken inside a word ("goog / le" was hard to read): it wraps
 * only at spaces and hyphens ("google / cpc / najaar"), and a word too long for the column ends in
 * "…" (the cell's title and the CSV have it whole).
 */
function WholeName({ text }: { text: string }) {
  return (
    <span className="block max-w-[12rem] overflow-hidden text-ellipsis break-normal [overflow-wrap:normal]">
      {text}
    </span>
  );
}

/**
 * Where the period's visitors came from and on what, one table per breakdown. A channel, campaign
 * or landing page is a button that narrows the whole tab to its visits (`onFilter`).
 */
export function Breakdowns({
  data,
  onFilter,
}: {
  data: Analytics;
  onFilter?: (filter: AnalyticsFilter) => void;
}) {
  // Two tables a row on a wide screen (six columns fit half the width, not a third), one a row
  // below; on a phone the numbers scroll beside the fixed first column.
  return (
    <div className="grid grid-cols-1 gap-6 lg:col-span-3 lg:grid-cols-2" data-testid="breakdowns">
      {TABLES.map((table) => {
        const rows = data[table.key] as AnalyticsBreakdownRow[];
        const label = table.label ?? ((v: string) => v);
        const { unattributed } = data;
        // Where every visit has a value, the requests without a known visit complete the table.
        const unknown = table.everyVisit && unattributed.quotes + unattributed.contacts > 0;
        return (
          <Panel
            key={table.key}
            title={table.title}
            actions={
              rows.length > 0 || unknown ? (
                <Button
                  variant="secondary"
                  aria-label={`${table.title} downloaden als CSV`}
                  onClick={() =>
                    download(
                      `${table.file}-${data.from}-${data.to}.csv`,
                      breakdownCsv(table.column, rows, label, unknown ? unattributed : undefined),
                    )
                  }
                >
                  CSV
                </Button>
              ) : undefined
            }
          >
            {rows.length === 0 && !unknown ? (
              <p className="text-sm text-gray-600">Geen bezoeken in deze periode</p>
            ) : (
              <>
                {/* Six columns do not fit a phone: there the numbers scroll within the panel (also
                    by keyboard) while the first column stays in view. At 1280 px they fit a card
                    beside a 22-character name (small headings, narrow gaps). */}
                <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={table.title}>
                  <table className="w-full text-left text-sm" data-testid={`breakdown-${table.key}`}>
                    <thead className="text-xs text-gray-600">
                      <tr>
                        <th scope="col" className="sticky left-0 bg-white py-1 pr-3 font-medium">
                          {table.column}
                        </th>
                        <th scope="col" className="py-1 pr-2 text-right font-medium">
                          Bezoekers
                        </th>
                        <th scope="col" className="py-1 pr-2 text-right font-medium">
                          Weergaven
                        </th>
                        <th scope="col" className="py-1 pr-2 text-right font-medium">
                          <abbr title="Offerteaanvragen" className="no-underline">
                            Aanvragen
                          </abbr>
                        </th>
                        <th scope="col" className="py-1 pr-2 text-right font-medium">
                          <abbr title="Contactberichten" className="no-underline">
                            Berichten
                          </abbr>
                        </th>
                        <th scope="col" className="py-1 text-right font-medium">
                          Conversie
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-gray-100">
                      {rows.map((row) => (
                        <tr key={row.value}>
                          <td
                            className="sticky left-0 bg-white py-1 pr-3 text-gray-900"
                            title={mentionsOther(row.value) ? OTHER_VALUE_HELP : row.value}
                          >
                            {table.filter && onFilter ? (
                              <button
                                type="button"
                                className="text-left text-blue-700 underline-offset-2 hover:underline focus-visible:underline"
                                title={`Filter op ${table.noun} ${label(row.value)}`}
                                onClick={() => onFilter(table.filter!(row))}
                              >
                                <WholeName text={label(row.value)} />
                              </button>
                            ) : (
                              <WholeName text={label(row.value)} />
                            )}
                          </td>
                          <td className="py-1 pr-2 text-right font-semibold text-gray-700">
                            {number.format(row.visitors)}
                          </td>
                          <td className="py-1 pr-2 text-right text-gray-700">
                            {number.format(row.pageViews)}
                          </td>
                          <td className="py-1 pr-2 text-right text-gray-700">{number.format(row.quotes)}</td>
                          <td className="py-1 pr-2 text-right text-gray-700">
                            {number.format(row.contacts)}
                          </td>
                          <td className="py-1 text-right text-gray-700">{formatRate(row.conversionRate)}</td>
                        </tr>
                      ))}
                      {unknown && (
                        <tr data-testid="breakdown-unattributed" className="text-gray-600">
                          <td
                            className="sticky left-0 min-w-[7rem] bg-white py-1 pr-3 italic"
                            title={UNATTRIBUTED_HELP}
                          >
                            {UNATTRIBUTED_LABEL}
                          </td>
                          <td className="py-1 pr-2 text-right">–</td>
                          <td className="py-1 pr-2 text-right">–</td>
                          <td className="py-1 pr-2 text-right">{number.format(unattributed.quotes)}</td>
                          <td className="py-1 pr-2 text-right">{number.format(unattributed.contacts)}</td>
                          <td className="py-1 text-right">–</td>
                        </tr>
                      )}
                    </tbody>
                  </table>
                </div>
                {/* Said once, under the first table; each row says it in its title too. */}
                {unknown && table.key === "channels" && (
                  <p className="mt-2 text-xs text-gray-600" data-testid="unattributed-legend">
                    {UNATTRIBUTED_HELP}
                  </p>
                )}
                {rows.some((row) => mentionsOther(label(row.value))) && <OtherValueLegend />}
                {rows.length >= TOP_ROWS && table.key !== "channels" && (
                  <p className="mt-2 text-xs text-gray-600">
                    De {TOP_ROWS} grootste getoond; de rest telt mee in het totaal.
                  </p>
                )}
              </>
            )}
          </Panel>
        );
      })}
    </div>
  );
}
