/**
 * BullMQ queue names. Renaming one strands every job already waiting in Redis under the old name:
 * add a new queue and drain the old one instead.
 */
export const QUEUES = {
  mail: "mail",
  /** Conversions (quote requests, contact messages) for the tracking service to count. */
  tracking: "tracking",
  /** The attribution tracking computed for a lead, back to the leads service. */
  leads: "leads",
  /** What an admin did in another service, for the gateway's audit log. */
  audit: "audit",
  /** A lead's events for the ad platforms, sent by the conversions service. */
  conversions: "conversions",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
