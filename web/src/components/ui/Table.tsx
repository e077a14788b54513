import type { ComponentProps, ReactNode } from "react";

// The one responsive pattern of the app's tables: from the sm breakpoint a table (scrolling
// sideways in its region if it must), on a phone each row a block whose cells carry their
// column's name (data-label), readable at 375 px without scrolling sideways. The ARIA roles keep
// it a table for screen readers in both layouts. A table with a phone layout of its own (the
// team's and the response report's cards) shows that below md and this table from md up.
// Not on it: the two figure grids whose phone layout the browser tests hold, the campaign report
// (CampaignReportViews: name columns that stick while the figures scroll, sort buttons, a totals
// foot, its own cards on a phone) and the Analytics breakdowns (Breakdowns: six figure columns
// that scroll beside a sticky first column, also on a phone).

/** On a phone each row becomes a block whose cells carry their column's name (STACKED_CELL). */
export const STACKED_TABLE = "max-sm:block";
export const STACKED_ROW = "max-sm:block max-sm:py-2";
export const STACKED_CELL =
  "max-sm:block max-sm:py-1 max-sm:before:block max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:font-sans max-sm:before:text-ink max-sm:before:content-[attr(data-label)]";
/**
 * The same, one line per cell with its column's name in front: a long list (e.g. the active
 * visitors) stays a few screens long on a phone, not one screen per row.
 */
export const STACKED_LINE_CELL =
  "max-sm:flex max-sm:gap-2 max-sm:py-0.5 max-sm:before:w-24 max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:leading-5 max-sm:before:font-sans max-sm:before:font-semibold max-sm:before:text-ink max-sm:before:content-[attr(data-label)]";

/** The panel's plain lists (Logboek, Privacy): a grey header row over a line per entry. */
export const LIST_HEAD = {
  headClassName: "border-b border-gray-200 text-gray-600",
  headCellClassName: "py-2 pr-4 font-semibold",
} as const;

const join = (...classes: (string | undefined)[]) => classes.filter(Boolean).join(" ");

/**
 * A stacked table in a region that scrolls sideways from sm when the table is wider: its column
 * names (`head`, a header row from sm up), an optional `caption` element, and its rows (TableRow).
 * Named by `label`, the region is focusable so keyboard users can scroll it.
 */
export function Table({
  label,
  regionClassName = "overflow-x-auto",
  className,
  caption,
  head,
  headClassName = "",
  headRowClassName,
  headCellClassName,
  bodyClassName,
  children,
  ...rest
}: {
  label?: string;
  regionClassName?: string;
  caption?: ReactNode;
  head: readonly string[];
  headClassName?: string;
  headRowClassName?: string;
  headCellClassName: string | ((index: number) => string);
  bodyClassName?: string;
} & ComponentProps<"table">) {
  return (
    <div className={regionClassName} {...(label ? { role: "region", "aria-label": label, tabIndex: 0 } : {})}>
      <table role="table" className={join(className, STACKED_TABLE)} {...rest}>
        {caption}
        <StackedHead
          head={head}
          className={headClassName}
          rowClassName={headRowClassName}
          cellClassName={headCellClassName}
        />
        <TableBody className={bodyClassName}>{children}</TableBody>
      </table>
    </div>
  );
}

/** A stacked table's body. */
export function TableBody({ className, ...rest }: ComponentProps<"tbody">) {
  return <tbody role="rowgroup" className={join(className, STACKED_TABLE)} {...rest} />;
}

/** A stacked table's row. */
export function TableRow({ className, ...rest }: ComponentProps<"tr">) {
  return <tr role="row" className={join(className, STACKED_ROW)} {...rest} />;
}

/** A cell with its column's name (`label`), shown in front of it on a phone. */
export function TableCell({
  label,
  line = false,
  className,
  ...rest
}: { label: string; line?: boolean } & ComponentProps<"td">) {
  return (
    <td
      role="cell"
      data-label={label}
      className={join(className, line ? STACKED_LINE_CELL : STACKED_CELL)}
      {...rest}
    />
  );
}

/**
 * The column names of a stacked table: a header row from sm up, read by screen readers only below.
 * `cellClassName` may differ per column (e.g. a right-aligned amount).
 */
export function StackedHead(props: {
  head: readonly string[];
  className: string;
  rowClassName?: string;
  cellClassName: string | ((index: number) => string);
}) {
  const cellClass = (index: number) =>
    typeof props.cellClassName === "string" ? props.cellClassName : props.cellClassName(index);
  return (
    <thead role="rowgroup" className={join(props.className, "max-sm:sr-only")}>
      <tr role="row" className={props.rowClassName}>
        {props.head.map((cell, index) => (
          <th key={cell} role="columnheader" scope="col" className={cellClass(index)}>
            {cell}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A table with a caption for screen readers. From the sm breakpoint it is a table (scrolling
 * sideways if it must); on a phone each row is a block of labelled cells, readable at 375 px
 * without scrolling sideways. The ARIA roles keep it a table for screen readers in both layouts.
 */
export function DataTable({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <Table
      label={caption}
      regionClassName="overflow-x-auto rounded-card border border-gray-200"
      className="w-full border-collapse text-left text-sm sm:min-w-[32rem]"
      caption={<caption className="sr-only">{caption}</caption>}
      head={head}
      headClassName="bg-gray-50 text-ink"
      headCellClassName="px-4 py-3 font-semibold"
      bodyClassName="divide-y divide-gray-200"
    >
      {rows.map((row, rowIndex) => (
        <TableRow key={rowIndex} className="align-top">
          {row.map((cell, cellIndex) =>
            cellIndex === 0 ? (
              <th
                key={cellIndex}
                role="rowheader"
                scope="row"
                className="px-4 py-3 font-medium text-ink max-sm:block max-sm:pb-1 max-sm:text-base"
              >
                {cell}
              </th>
            ) : (
              <TableCell key={cellIndex} label={head[cellIndex] ?? ""} className="px-4 py-3 text-muted">
                {cell}
              </TableCell>
            ),
          )}
        </TableRow>
      ))}
    </Table>
  );
}
