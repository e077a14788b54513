import { csvCell, type CampaignFigures, type CampaignReport } from "@lease/contracts";
import { formatEuro } from "./format";

const COUNT = new Intl.NumberFormat("nl-NL");
const RATE = new Intl.NumberFormat("nl-NL", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const ROAS = new Intl.NumberFormat("nl-NL", { minimumFractionDigits: 1, maximumFractionDigits: 2 });

export type FigureKey = keyof CampaignFigures;

/** The report's columns of figures, in the panel's Dutch, with how each is written. */
export const FIGURE_COLUMNS: { key: FigureKey; label: string; format: (v: number | null) => string }[] = [
  { key: "spend", label: "Kosten", format: (v) => formatEuro(v) },
  { key: "visitors", label: "Bezoeken", format: (v) => (v === null ? "-" : COUNT.format(v)) },
  { key: "leads", label: "Aanvragen", format: (v) => (v === null ? "-" : COUNT.format(v)) },
  { key: "contacts", label: "Contactberichten", format: (v) => (v === null ? "-" : COUNT.format(v)) },
  { key: "offers", label: "Offertes", format: (v) => (v === null ? "-" : COUNT.format(v)) },
  { key: "contracts", label: "Contracten", format: (v) => (v === null ? "-" : COUNT.format(v)) },
  { key: "commission", label: "Commissie", format: (v) => formatEuro(v) },
  { key: "leadRate", label: "Bezoek → aanvraag", format: (v) => (v === null ? "-" : `${RATE.format(v)}%`) },
  { key: "offerRate", label: "Aanvraag → offerte", format: (v) => (v === null ? "-" : `${RATE.format(v)}%`) },
  {
    key: "contractRate",
    label: "Offerte → contract",
    format: (v) => (v === null ? "-" : `${RATE.format(v)}%`),
  },
  { key: "costPerLead", label: "Kosten per aanvraag", format: (v) => formatEuro(v) },
  { key: "costPerContract", label: "Kosten per contract", format: (v) => formatEuro(v) },
  { key: "roas", label: "ROAS", format: (v) => (v === null ? "-" : ROAS.format(v)) },
];

/** The figures a marketer comes for: first on screen (in view at 1280 px) and on every phone card. */
export const KEY_FIGURES: readonly FigureKey[] = [
  "spend",
  "leads",
  "contracts",
  "costPerLead",
  "costPerContract",
  "roas",
];

/** The panel's order of the columns: the key figures, then what they come from (the CSV keeps its own). */
export const SCREEN_COLUMNS = (
  [
    ...KEY_FIGURES,
    "commission",
    "visitors",
    "contacts",
    "offers",
    "leadRate",
    "offerRate",
    "contractRate",
  ] as const
).map((key) => FIGURE_COLUMNS.find((column) => column.key === key)!);

/** Sorts rows on a figure, nulls last; ties keep the report's order. */
export function sortRows<T extends CampaignFigures>(rows: T[], key: FigureKey, descending: boolean): T[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const x = a.row[key];
      const y = b.row[key];
      if (x === null && y === null) return a.index - b.index;
      if (x === null) return 1;
      if (y === null) return -1;
      return (descending ? y - x : x - y) || a.index - b.index;
    })
    .map(({ row }) => row);
}

/** The row of the campaigns the report does not name one by one. */
export const othersLabel = (campaigns: number) => `Overige campagnes (${COUNT.format(campaigns)})`;

/** "1200,50": a number as Dutch Excel reads it. */
const excelNumber = (v: number | null) => (v === null ? "" : String(v).replace(".", ","));

/** The report per campaign as CSV: UTF-8 with BOM, semicolons, CRLF (as the lead export). */
export function campaignReportCsv(report: CampaignReport): string {
  const header = ["Bron", "Medium", "Campagne", ...FIGURE_COLUMNS.map((c) => c.label)];
  const line = (cells: (string | number | null)[]) =>
    cells.map((cell) => csvCell(typeof cell === "number" ? excelNumber(cell) : cell)).join(";");
  const lines = [line(header)];
  for (const row of report.rows)
    lines.push(line([row.source, row.medium, row.campaign, ...FIGURE_COLUMNS.map((c) => row[c.key])]));
  const others = report.others;
  if (others)
    lines.push(line([othersLabel(others.campaigns), "", "", ...FIGURE_COLUMNS.map((c) => others[c.key])]));
  lines.push(line(["Totaal", "", "", ...FIGURE_COLUMNS.map((c) => report.totals[c.key])]));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
