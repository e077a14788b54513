import type { ActiveVisitor } from "@lease/contracts";
import { Table, TableCell, TableRow } from "../../components/ui";
import { formatAmsterdamDateTime } from "../lib/format";
import { browserName, pageLabel } from "../lib/live";

const HEAD = ["Pagina", "User agent", "Stad", "Land", "IP-bereik", "Laatst gezien"] as const;

/**
 * The Analytics tab's active visitors: a table from the sm breakpoint, and on a phone one block
 * of labelled fields per visitor (the browser's name without the full user agent, which stays in
 * the title), readable at 375 px without scrolling sideways.
 */
export function ActiveVisitorsTable({ visitors }: { visitors: readonly ActiveVisitor[] }) {
  // On a phone each field is one line, its column's name in front (a page of visitors stays a few
  // screens long, not one screen per visitor).
  return (
    <Table
      regionClassName="sm:overflow-x-auto"
      className="w-full text-left text-sm sm:min-w-[40rem]"
      data-testid="active-visitors"
      head={HEAD}
      headClassName="text-gray-600"
      headCellClassName="py-2 pr-3 font-medium"
      bodyClassName="divide-y divide-gray-100"
    >
      {visitors.map((visitor) => (
        <TableRow key={visitor.id}>
          <TableCell line label={HEAD[0]} className="py-2 pr-3 text-gray-900">
            {pageLabel(visitor.page)}
          </TableCell>
          {visitor.anonymous ? (
            <TableCell line label={HEAD[1]} className="py-2 pr-3 text-gray-600">
              Anoniem (geen toestemming)
            </TableCell>
          ) : (
            <TableCell line label={HEAD[1]} className="py-2 pr-3" title={visitor.userAgent}>
              <span className="block font-medium">{browserName(visitor.userAgent)}</span>
              <span className="block max-w-[16rem] truncate text-xs text-gray-600 max-sm:hidden">
                {visitor.userAgent}
              </span>
            </TableCell>
          )}
          <TableCell line label={HEAD[2]} className="py-2 pr-3">
            {visitor.city || "-"}
          </TableCell>
          <TableCell line label={HEAD[3]} className="py-2 pr-3">
            {visitor.country || "-"}
          </TableCell>
          <TableCell line label={HEAD[4]} className="py-2 pr-3 font-mono text-xs">
            {visitor.ipAddress || "-"}
          </TableCell>
          <TableCell line label={HEAD[5]} className="py-2 pr-3 whitespace-nowrap">
            {formatAmsterdamDateTime(visitor.lastSeen)}
          </TableCell>
        </TableRow>
      ))}
    </Table>
  );
}
