import type { ConversionDelivery, ConversionEvent, LeaseStatus } from "@lease/contracts";

/** How often a lead's conversions are asked for again while one of them waits. */
export const WAITING_POLL_MS = 5_000;
/** How often while the event of a stage just reached has no outcome yet (it comes within seconds). */
export const AWAITING_POLL_MS = 2_000;
/**
 * How long after the stage was shown the panel looks for its event's first outcome: with no
 * platform switched on none ever comes.
 */
export const AWAIT_OUTCOME_MS = 60_000;

/** The event a lead's stage told the platforms of: its offer or contract, else its arrival. */
export function stageEvent(status: LeaseStatus): ConversionEvent {
  return status === "offerte" || status === "getekend" ? status : "lead";
}

/**
 * When to ask for a lead's conversions again (false: not): while a platform still waits, and for a
 * short while after its stage was shown (`shownMs` ago) until a platform reported on the stage's
 * event, so that the contract signed a moment ago shows as waiting, sent or failed by itself.
 */
export function conversionsPollMs(
  deliveries: ConversionDelivery[],
  status: LeaseStatus,
  shownMs: number,
): number | false {
  if (deliveries.some((d) => d.status === "waiting")) return WAITING_POLL_MS;
  const event = stageEvent(status);
  if (deliveries.some((d) => d.event === event)) return false;
  return shownMs < AWAIT_OUTCOME_MS ? AWAITING_POLL_MS : false;
}
