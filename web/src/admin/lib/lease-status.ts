import type { LeaseRequest, LeaseStatus } from "@lease/contracts";

export type BadgeTone = "red" | "yellow" | "green" | "plain";

export interface StatusBadge {
  label: string;
  tone: BadgeTone;
}

/**
 * SPEC §4 badge logic: nieuw and unread = red "Nieuw"; bekeken, or nieuw but already read = yellow
 * "Bekeken"; gereageerd = green "Gereageerd"; any other value as plain text.
 */
export function leaseStatusBadge(request: Pick<LeaseRequest, "status" | "isRead">): StatusBadge {
  const status: string = request.status;
  if (status === "nieuw")
    return request.isRead ? { label: "Bekeken", tone: "yellow" } : { label: "Nieuw", tone: "red" };
  if (status === "bekeken") return { label: "Bekeken", tone: "yellow" };
  if (status === "gereageerd") return { label: "Gereageerd", tone: "green" };
  return { label: status, tone: "plain" };
}

/** The PATCH body that marks an opened request read: its own status, or bekeken when it has none. */
export function markReadBody(request: Pick<LeaseRequest, "status">): { status: LeaseStatus; isRead: true } {
  return { status: request.status || "bekeken", isRead: true };
}

/** Which status buttons the detail panel shows: each is hidden when the request already has it. */
export function statusActions(request: Pick<LeaseRequest, "status">): LeaseStatus[] {
  return (["bekeken", "gereageerd"] as const).filter((status) => request.status !== status);
}

export const NO_COMPANY_LIST_LABEL = "Geen bedrijfsnaam";
export const NO_COMPANY_TITLE = "Privé aanvraag";

export function leaseListTitle(request: Pick<LeaseRequest, "companyName">): string {
  return request.companyName?.trim() || NO_COMPANY_LIST_LABEL;
}

export function leaseDetailTitle(request: Pick<LeaseRequest, "companyName">): string {
  return request.companyName?.trim() || NO_COMPANY_TITLE;
}
