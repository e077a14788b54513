import { useQuery } from "@tanstack/react-query";
import type { LeaseRequest } from "@lease/contracts";
import { Link } from "react-router-dom";
import { ADMIN_KEYS, findLeaseRequest } from "../api";
import { formatAmsterdamDateTime } from "../lib/format";
import { DUPLICATE_DAYS, daysEarlier, duplicateReason } from "../lib/duplicate";
import { leaseListTitle } from "../lib/lease-status";
import { leadHref, OPENS_TAB } from "../lib/lead-link";

/**
 * "Mogelijk dubbel", said in full: of which earlier request (a link that opens it) and why (the same
 * e-mail address or phone number within 90 days).
 */
export function DuplicateNote({ request }: { request: LeaseRequest }) {
  const earlierId = request.duplicateOf;
  const earlier = useQuery({
    queryKey: [...ADMIN_KEYS.leaseRequests, "dubbel", earlierId],
    queryFn: () => findLeaseRequest(earlierId!),
    enabled: earlierId !== null,
    staleTime: 60_000,
  });
  if (!earlierId) return null;
  const other = earlier.data;
  return (
    <p
      className="rounded-card border border-blue-200 bg-white p-3 text-sm text-gray-800"
      data-testid="duplicate-note"
    >
      <span className="font-semibold">Mogelijk dubbel: </span>
      {other ? (
        <>
          {duplicateReason(request, other).same} als{" "}
          <Link className="text-primary-strong underline" to={leadHref(other.id)} state={OPENS_TAB}>
            de aanvraag van {leaseListTitle(other)} ({formatAmsterdamDateTime(other.createdAt)})
          </Link>
          , {daysEarlier(duplicateReason(request, other).days)}.
        </>
      ) : earlier.isPending ? (
        "de eerdere aanvraag wordt geladen…"
      ) : (
        "de eerdere aanvraag bestaat niet meer."
      )}{" "}
      Zo gemarkeerd bij hetzelfde e-mailadres of telefoonnummer binnen {DUPLICATE_DAYS} dagen.
    </p>
  );
}
