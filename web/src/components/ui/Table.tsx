import type { ReactNode } from "react";

/** On a phone each row becomes a block whose cells carry their column's name (STACKED_CELL). */
export const STACKED_TABLE = "max-sm:block";
export const STACKED_ROW = "max-sm:block max-sm:py-2";
export const STACKED_CELL =
  "max-sm:block max-sm:py-1 max-sm:before:block max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:font-sans max-sm:before:text-ink max-sm:before:content-[attr(data-label)]";

/** The column names of a stacked table: a header row from sm up, read by screen readers only below. */
export function StackedHead(props: { head: readonly string[]; className: string; cellClassName: string }) {
  return (
    <thead role="rowgroup" className={`${props.className} max-sm:sr-only`}>
      <tr role="row">
        {props.head.map((cell) => (
          <th key={cell} role="columnheader" scope="col" className={props.cellClassName}>
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
    // Focusable so keyboard users can scroll a table that is wider than its column.
    <div
      className="overflow-x-auto rounded-card border border-gray-200"
      tabIndex={0}
      role="region"
      aria-label={caption}
    >
      <table
        role="table"
        className={`w-full border-collapse text-left text-sm sm:min-w-[32rem] ${STACKED_TABLE}`}
      >
        <caption className="sr-only">{caption}</caption>
        <StackedHead head={head} className="bg-gray-50 text-ink" cellClassName="px-4 py-3 font-semibold" />
        <tbody role="rowgroup" className={`divide-y divide-gray-200 ${STACKED_TABLE}`}>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex} role="row" className={`align-top ${STACKED_ROW}`}>
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
                  <td
                    key={cellIndex}
                    role="cell"
                    data-label={head[cellIndex]}
                    className={`px-4 py-3 text-muted ${STACKED_CELL}`}
                  >
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
