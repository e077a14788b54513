import type { ActiveVisitor } from "@lease/contracts";
import { STACKED_ROW, STACKED_TABLE, StackedHead } from "../../components/ui";
import { formatAmsterdamDateTime } from "../lib/format";
import { browserName, pageLabel } from "../lib/live";

const HEAD = ["Pagina", "User agent", "Stad", "Land", "IP-bereik", "Laatst gezien"];
/**
 * On a phone each field is one line, its column's name in front (a page of visitors stays a few
 * screens long, not one screen per visitor).
 */
const STACKED_CELL =
  "max-sm:flex max-sm:gap-2 max-sm:py-0.5 max-sm:before:w-24 max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:leading-5 max-sm:before:font-sans max-sm:before:font-semibold max-sm:before:text-ink max-sm:before:content-[attr(data-label)]";

/**
 * The Analytics tab's active visitors: a table from the sm breakpoint, and on a phone one block
 * of labelled fields per visitor (the browser's name without the full user agent, which stays in
 * the title), readable at 375 px without scrolling sideways.
 */
export function ActiveVisitorsTable({ visitors }: { visitors: readonly ActiveVisitor[] }) {
  return (
    <div className="sm:overflow-x-auto">
      <table
        role="table"
        className={`w-full text-left text-sm sm:min-w-[40rem] ${STACKED_TABLE}`}
        data-testid="active-visitors"
      >
        <StackedHead head={HEAD} className="text-gray-600" cellClassName="py-2 pr-3 font-medium" />
        <tbody role="rowgroup" className={`divide-y divide-gray-100 ${STACKED_TABLE}`}>
          {visitors.map((visitor) => (
            <tr key={visitor.id} role="row" className={STACKED_ROW}>
              <td role="cell" data-label={HEAD[0]} className={`py-2 pr-3 text-gray-900 ${STACKED_CELL}`}>
                {pageLabel(visitor.page)}
              </td>
              {visitor.anonymous ? (
                <td role="cell" data-label={HEAD[1]} className={`py-2 pr-3 text-gray-600 ${STACKED_CELL}`}>
                  Anoniem (geen toestemming)
                </td>
              ) : (
                <td
                  role="cell"
                  data-label={HEAD[1]}
                  className={`py-2 pr-3 ${STACKED_CELL}`}
                  title={visitor.userAgent}
                >
                  <span className="block font-medium">{browserName(visitor.userAgent)}</span>
                  <span className="block max-w-[16rem] truncate text-xs text-gray-600 max-sm:hidden">
                    {visitor.userAgent}
                  </span>
                </td>
              )}
              <td role="cell" data-label={HEAD[2]} className={`py-2 pr-3 ${STACKED_CELL}`}>
                {visitor.city || "-"}
              </td>
              <td role="cell" data-label={HEAD[3]} className={`py-2 pr-3 ${STACKED_CELL}`}>
                {visitor.country || "-"}
              </td>
              <td role="cell" data-label={HEAD[4]} className={`py-2 pr-3 font-mono text-xs ${STACKED_CELL}`}>
                {visitor.ipAddress || "-"}
              </td>
              <td role="cell" data-label={HEAD[5]} className={`py-2 pr-3 whitespace-nowrap ${STACKED_CELL}`}>
                {formatAmsterdamDateTime(visitor.lastSeen)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
