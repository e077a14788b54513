import { useQuery } from "@tanstack/react-query";
import { ADMIN_KEYS, findLeaseRequest } from "../api";

/** The lead's name (company, else e-mail); null while loading, undefined when it is gone. */
function useLeadName(leaseRequestId: string): string | null | undefined {
  const lead = useQuery({
    queryKey: [...ADMIN_KEYS.leaseRequests, "one", leaseRequestId],
    queryFn: () => findLeaseRequest(leaseRequestId),
    staleTime: 60_000,
  });
  if (lead.data === null) return undefined;
  return lead.data ? lead.data.companyName?.trim() || lead.data.email : null;
}

/** "Aanvraag van Bedrijf BV": the lead a received e-mail belongs to, linked to it in Lease Aanvragen. */
export function LeadLink({ leaseRequestId }: { leaseRequestId: string }) {
  const name = useLeadName(leaseRequestId);
  const href = `/admin?${new URLSearchParams({ tab: "aanvragen", lead: leaseRequestId }).toString()}`;
  return (
    <a className="text-primary-strong underline wrap-anywhere" href={href} data-testid="lead-link">
      {name === undefined ? "Aanvraag (verwijderd)" : name ? `Aanvraag van ${name}` : "Bekijk de aanvraag"}
    </a>
  );
}

/** The lead's name in a list row (the row itself is a button: no link inside it). */
export function LeadName({ leaseRequestId }: { leaseRequestId: string }) {
  const name = useLeadName(leaseRequestId);
  return (
    <p className="mt-1 text-xs font-medium wrap-anywhere text-gray-700" data-testid="lead-name">
      {name ? `Bij aanvraag van ${name}` : "Bij een aanvraag"}
    </p>
  );
}
