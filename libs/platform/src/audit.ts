import { randomUUID } from "node:crypto";
import type { AuditAction, AuditRecordJobData } from "@lease/contracts";

/**
 * One entry for the gateway's audit log (the audit.record job): ids and field names only, never a
 * lead's personal data or a settings value. A fresh event id; the gateway records each id once.
 * Services store it in their outbox with the change (queueAuditEvents), never straight to the queue.
 */
export function auditEvent(
  actor: string,
  action: AuditAction,
  target: string | null = null,
  detail: string | null = null,
): AuditRecordJobData {
  return { eventId: randomUUID(), at: new Date().toISOString(), actor, action, target, detail };
}
