import { DELIVERY_STATE_LABELS, OPENED_LABEL, type EmailDelivery } from "@lease/contracts";

/**
 * What SendGrid's Event Webhook told of a sent e-mail, as the panel says it: "Afgeleverd",
 * "Uitgesteld" or "Onbestelbaar" with the receiving server's reason, and "Geopend" (indicative).
 */
export function deliveryStateLines(
  delivery: EmailDelivery | null,
): { label: string; tone: "green" | "yellow" | "red" | "gray"; reason: string | null }[] {
  if (!delivery) return [];
  const lines: { label: string; tone: "green" | "yellow" | "red" | "gray"; reason: string | null }[] = [];
  const state = delivery.state;
  if (state && state !== "processed")
    lines.push({
      label: DELIVERY_STATE_LABELS[state],
      tone: state === "delivered" ? "green" : state === "deferred" ? "yellow" : "red",
      reason: state === "delivered" ? null : delivery.reason,
    });
  if (delivery.openedAt) lines.push({ label: OPENED_LABEL, tone: "gray", reason: null });
  return lines;
}
