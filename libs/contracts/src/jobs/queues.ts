/**
 * BullMQ queue names. Renaming one strands every job already waiting in Redis under the old name:
 * add a new queue and drain the old one instead.
 */
export const QUEUES = {
  mail: "mail",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
