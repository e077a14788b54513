import { randomUUID } from "node:crypto";
import type { AuditAction, AuditRecordJobData } from "@lease/contracts";
import { withTimeout } from "./app";
import type { Logger } from "./logger";
import type { QueueClient } from "./queue";

/**
 * One entry for the gateway's audit log (the audit.record job): ids and field names only, never a
 * lead's personal data or a settings value. A fresh event id; the gateway records each id once.
 */
export function auditEvent(
  actor: string,
  action: AuditAction,
  target: string | null = null,
  detail: string | null = null,
): AuditRecordJobData {
  return { eventId: randomUUID(), at: new Date().toISOString(), actor, action, target, detail };
}

/**
 * Queues audit entries for a change that has already been made (services without an outbox). The
 * job id is the event id. Waits at most `timeoutMs`: a Redis outage must not fail the admin's
 * change, so the entry is then logged as lost (without its detail) instead.
 */
export async function sendAuditEvents(
  queue: QueueClient,
  events: readonly AuditRecordJobData[],
  log: Logger,
  timeoutMs = 2000,
): Promise<void> {
  if (events.length === 0) return;
  try {
    await withTimeout(
      queue.enqueueMany(events.map((data) => ({ name: "audit.record", data, jobId: data.eventId }))),
      timeoutMs,
    );
  } catch (err) {
    log.warn(
      {
        err: (err as Error).message,
        events: events.map((e) => ({ id: e.eventId, action: e.action, actor: e.actor })),
      },
      "audit entry not queued",
    );
  }
}
