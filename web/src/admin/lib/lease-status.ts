import type { LeaseRequest } from "@lease/contracts";
import type { BadgeTone } from "../../components/ui";

export type { BadgeTone };

export interface StatusBadge {
  label: string;
  tone: BadgeTone;
}

/**
 * Badge logic: nieuw and unread = red "Nieuw"; bekeken, or nieuw but already read = yellow
 * "Bekeken"; gereageerd = green "Gereageerd"; any other value as plain text.
 */
export function leaseStatusBadge(request: Pick<LeaseRequest, "status" | "isRead">): StatusBadge {
  const status: string = request.status;
  if (status === "nieuw")
    return request.isRead ? { label: "Bekeken", tone: "yellow" } : { label: "Nieuw", tone: "red" };
  if (status === "bekeken") return { label: "Bekeken", tone: "yellow" };
  if (status === "gereageerd") return { label: "Gereageerd", tone: "green" };
  // The road to a contract, after the seed's statuses.
  if (status === "offerte") return { label: "Offerte", tone: "blue" };
  if (status === "getekend") return { label: "Getekend", tone: "green" };
  if (status === "verloren") return { label: "Verloren", tone: "gray" };
  return { label: status, tone: "plain" };
}

/**
 * The PATCH body that marks an opened request read: its own status, or bekeken when it has none.
 * Null for a request in a stage (offerte, getekend, verloren): resending it would need its amounts,
 * and a stage is only ever set by staff, who read it.
 */
export function markReadBody(
  request: Pick<LeaseRequest, "status">,
): { status: "nieuw" | "bekeken" | "gereageerd"; isRead: true } | null {
  const status: string = request.status;
  if (status === "offerte" || status === "getekend" || status === "verloren") return null;
  return { status: status === "nieuw" || status === "gereageerd" ? status : "bekeken", isRead: true };
}

/**
 * Which status buttons the detail panel shows: those of the first three statuses, each hidden when
 * the request's badge already says it (an opened new request is "Bekeken"), and none once the request
 * is in a stage: going back from there is "Fase terugzetten", which names what is lost.
 */
export function statusActions(
  request: Pick<LeaseRequest, "status" | "isRead">,
): ("bekeken" | "gereageerd")[] {
  const status: string = request.status;
  if (status === "offerte" || status === "getekend" || status === "verloren") return [];
  const shown = leaseStatusBadge(request).label;
  return (["bekeken", "gereageerd"] as const).filter((action) => shown !== ACTION_BADGES[action]);
}

const ACTION_BADGES: Record<"bekeken" | "gereageerd", string> = {
  bekeken: "Bekeken",
  gereageerd: "Gereageerd",
};

export const NO_COMPANY_LIST_LABEL = "Geen bedrijfsnaam";
export const NO_COMPANY_TITLE = "Privé aanvraag";

export function leaseListTitle(request: Pick<LeaseRequest, "companyName">): string {
  return request.companyName?.trim() || NO_COMPANY_LIST_LABEL;
}

export function leaseDetailTitle(request: Pick<LeaseRequest, "companyName">): string {
  return request.companyName?.trim() || NO_COMPANY_TITLE;
}
