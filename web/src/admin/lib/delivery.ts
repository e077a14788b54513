import type { EmailMessage, MailOutcomeEvent } from "@lease/contracts";

/** Where an e-mail the admin sent stands: waiting, retried after a hiccup, or decided. */
export interface DeliveryState {
  id: string;
  status: "queued" | "retrying" | "sent" | "failed";
  reason: string | null;
}

/** What the admin reads for each state (compose window, sent mail). */
export const DELIVERY_LABELS: Record<DeliveryState["status"], string> = {
  queued: "In de wachtrij",
  retrying: "Nog niet verzonden",
  sent: "Verzonden",
  failed: "Verzenden mislukt",
};

const isFinal = (status: DeliveryState["status"]) => status === "sent" || status === "failed";

/** The state a stored e-mail reports (GET /api/admin/emails/:id); null for received mail. */
export function deliveryOf(email: EmailMessage): DeliveryState | null {
  const { id, deliveryStatus, failureReason } = email;
  if (deliveryStatus === "received") return null;
  if (deliveryStatus === "queued" && failureReason) return { id, status: "retrying", reason: failureReason };
  return { id, status: deliveryStatus, reason: deliveryStatus === "sent" ? null : failureReason };
}

export const deliveryFromOutcome = (outcome: MailOutcomeEvent): DeliveryState => ({
  id: outcome.emailId,
  status: outcome.status,
  reason: outcome.reason,
});

/**
 * Combines what arrived last with what is known: the socket and a read of the e-mail can cross,
 * and an older "queued" must not undo a decided send. Another e-mail's news is ignored.
 */
export function mergeDelivery(
  current: DeliveryState | null,
  next: DeliveryState | null,
): DeliveryState | null {
  if (!current || !next || next.id !== current.id) return current;
  if (isFinal(current.status) && !isFinal(next.status)) return current;
  return next;
}
