// The campaign report's two layouts: a table from the sm breakpoint (the names fixed at the left
// while the figures scroll, the figures a marketer comes for first) and a card per campaign on a
// phone. A name stays on one line, never broken (the audit read "face / book" and "paid_soc /
// ial"); one longer than its column may grow ends in "…" with the whole name as its title (the
// cards and the CSV show it whole).
import type { CampaignFigures } from "@lease/contracts";
import { useLayoutEffect, useRef } from "react";
import { KEY_FIGURES, SCREEN_COLUMNS, type FigureKey } from "../lib/campaign-report";
import { OTHER_VALUE_HELP, mentionsOther } from "../components/OtherValue";

export type ReportLine = CampaignFigures & {
  label: string[];
  previous: CampaignFigures | null;
  /** A campaign or channel; or the row of the campaigns not named one by one, or the totals. */
  kind?: "others" | "totals";
};

export interface ReportLines {
  rows: ReportLine[];
  /** "Overige campagnes" and "Totaal", below the sorted rows. */
  extra: ReportLine[];
  labels: string[];
  compare: boolean;
}

const PREVIOUS = "vorige periode";

/** How wide a name column may grow before its name ends in "…" (Bron, Medium, Campagne; Kanaal). */
const LABEL_WIDTH = ["max-w-[12rem]", "max-w-[10rem]", "max-w-[18rem]"];
const NAME = "block truncate";
const STICKY = "sticky z-10 bg-white";

/**
 * Places the name columns side by side at the left edge: each sticks where the ones before it end,
 * measured from the header (names make them as wide as they need, up to LABEL_WIDTH).
 */
function useStickyColumns(columns: number) {
  const table = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const element = table.current;
    if (!element) return;
    const heads = [...element.querySelectorAll<HTMLElement>("thead th[data-sticky]")];
    const place = () => {
      let left = 0;
      heads.forEach((head, i) => {
        element.style.setProperty(`--sticky-${i}`, `${left}px`);
        left += head.getBoundingClientRect().width;
      });
    };
    place();
    const observer = new ResizeObserver(place);
    heads.forEach((head) => observer.observe(head));
    return () => observer.disconnect();
  }, [columns]);
  return table;
}

const stickyAt = (i: number) => ({ left: `var(--sticky-${i}, 0px)` });
/** The last name column draws the edge the figures scroll under. */
const edge = (i: number, count: number) => (i === count - 1 ? "shadow-[inset_-1px_0_0_#e5e7eb]" : "");

export function CampaignTable({
  lines,
  busy,
  sort,
  onSort,
}: {
  lines: ReportLines;
  /** Older figures shown while newer ones load. */
  busy: boolean;
  sort: { key: FigureKey; descending: boolean };
  onSort: (key: FigureKey) => void;
}) {
  const { rows, extra, labels, compare } = lines;
  const table = useStickyColumns(labels.length);
  const others = extra.filter((line) => line.kind === "others");
  const totals = extra.filter((line) => line.kind === "totals");
  return (
    // Focusable so keyboard users can scroll the figures too.
    <div
      className="overflow-x-auto max-sm:hidden"
      tabIndex={0}
      role="region"
      aria-label={`Campagnerapport per ${labels.length > 1 ? "campagne" : "kanaal"}`}
      data-testid="campaign-report-scroll"
      aria-busy={busy || undefined}
    >
      <table ref={table} className="w-full text-right text-sm" data-testid="campaign-report">
        <thead>
          <tr className="border-b border-gray-200 text-gray-600">
            {labels.map((label, i) => (
              <th
                key={label}
                scope="col"
                data-sticky
                className={`${STICKY} ${edge(i, labels.length)} py-2 pr-3 text-left align-bottom`}
                style={stickyAt(i)}
              >
                {label}
              </th>
            ))}
            {SCREEN_COLUMNS.map((column) => (
              <th
                key={column.key}
                scope="col"
                className="py-2 pr-3 pl-2 align-bottom"
                aria-sort={
                  sort.key === column.key ? (sort.descending ? "descending" : "ascending") : undefined
                }
              >
                <button
                  type="button"
                  className="text-right underline decoration-dotted"
                  onClick={() => onSort(column.key)}
                >
                  {column.label}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <TableLine key={row.label.join("/")} line={row} labels={labels.length} compare={compare} />
          ))}
          {others.map((line) => (
            <TableLine key="others" line={line} labels={labels.length} compare={compare} />
          ))}
        </tbody>
        <tfoot>
          {totals.map((line) => (
            <TableLine key="totals" line={line} labels={labels.length} compare={compare} />
          ))}
        </tfoot>
      </table>
    </div>
  );
}

const TEST_IDS = { others: "report-others", totals: "report-totals" } as const;

function TableLine({ line, labels, compare }: { line: ReportLine; labels: number; compare: boolean }) {
  const tone = line.kind === "totals" ? "font-semibold" : line.kind === "others" ? "text-gray-700" : "";
  const border = compare ? "" : "border-b border-gray-100";
  return (
    <>
      <tr className={`${border} ${tone}`} data-testid={line.kind ? TEST_IDS[line.kind] : "report-row"}>
        {line.kind ? (
          <th
            scope="row"
            colSpan={labels}
            className={`${STICKY} ${edge(0, 1)} left-0 py-2 pr-3 text-left ${line.kind === "totals" ? "" : "font-normal"}`}
          >
            {line.label[0]}
          </th>
        ) : (
          line.label.map((part, i) => {
            const Cell = i === line.label.length - 1 ? "th" : "td";
            return (
              <Cell
                key={i}
                scope={Cell === "th" ? "row" : undefined}
                className={`${STICKY} ${edge(i, labels)} py-2 pr-3 text-left font-normal`}
                style={stickyAt(i)}
              >
                <span
                  className={`${NAME} ${labels === 1 ? "max-w-[12rem]" : LABEL_WIDTH[i]}`}
                  data-testid="report-name"
                  title={mentionsOther(part) ? OTHER_VALUE_HELP : part}
                >
                  {part}
                </span>
              </Cell>
            );
          })
        )}
        <FigureCells figures={line} />
      </tr>
      {compare && (
        <tr className="border-b border-gray-100 text-xs text-gray-500" data-testid="report-previous">
          <th
            scope="row"
            colSpan={labels}
            className={`${STICKY} ${edge(0, 1)} left-0 pr-3 pb-2 text-left font-normal`}
          >
            {PREVIOUS}
          </th>
          <FigureCells figures={line.previous} />
        </tr>
      )}
    </>
  );
}

/** A line's figures; null: the line was not there in the previous period. */
function FigureCells({ figures }: { figures: CampaignFigures | null }) {
  return (
    <>
      {SCREEN_COLUMNS.map((column) => (
        <td key={column.key} className="py-2 pr-3 pl-2 whitespace-nowrap" data-column={column.key}>
          {figures ? column.format(figures[column.key]) : "-"}
        </td>
      ))}
    </>
  );
}

const KEY_COLUMNS = SCREEN_COLUMNS.filter((column) => KEY_FIGURES.includes(column.key));
const MORE_COLUMNS = SCREEN_COLUMNS.filter((column) => !KEY_FIGURES.includes(column.key));

/** On a phone: a card per campaign (or channel), its key figures first, the rest a tap away. */
export function CampaignCards({ lines, busy }: { lines: ReportLines; busy: boolean }) {
  const { rows, extra, compare } = lines;
  return (
    <ul className="space-y-3 sm:hidden" data-testid="campaign-cards" aria-busy={busy || undefined}>
      {[...rows, ...extra].map((line) => {
        const campaign = !line.kind && line.label.length > 1;
        const title = campaign ? line.label[2]! : line.label[0]!;
        return (
          <li
            key={line.kind ?? line.label.join("/")}
            className={`rounded-card border border-gray-200 p-3 ${line.kind === "totals" ? "bg-gray-50" : ""}`}
            data-testid="campaign-card"
          >
            <h3
              className="font-semibold break-words text-gray-900"
              title={mentionsOther(title) ? OTHER_VALUE_HELP : undefined}
            >
              {title}
            </h3>
            {campaign && (
              <p className="text-sm break-words text-gray-600">
                {line.label[0]} / {line.label[1]}
              </p>
            )}
            <CardFigures line={line} columns={KEY_COLUMNS} compare={compare} />
            <details className="mt-2 text-sm">
              <summary className="cursor-pointer text-gray-700">Meer cijfers</summary>
              <CardFigures line={line} columns={MORE_COLUMNS} compare={compare} />
            </details>
          </li>
        );
      })}
    </ul>
  );
}

function CardFigures({
  line,
  columns,
  compare,
}: {
  line: ReportLine;
  columns: typeof SCREEN_COLUMNS;
  compare: boolean;
}) {
  return (
    <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
      {columns.map((column) => (
        <div key={column.key} data-column={column.key}>
          <dt className="text-xs text-gray-600">{column.label}</dt>
          <dd className="font-medium text-gray-900">
            {column.format(line[column.key])}
            {compare && (
              <span className="block text-xs font-normal text-gray-600">
                {PREVIOUS}: {line.previous ? column.format(line.previous[column.key]) : "-"}
              </span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
