import type { OutboxRow } from "@lease/platform";
import {
  IsoDateTime,
  JobSource,
  LeadOwner,
  type LeadCreatedEvent,
  type LeadOverdueEvent,
} from "@lease/contracts";

// The outbox relay itself is the platform's (startOutboxRelay); the leads service adds the
// announcement of new leads to open admin panels, from the rows it publishes.

/** The new leads a batch of outbox rows stands for: each lead writes exactly one `lead.received` row. */
export function leadEvents(rows: OutboxRow[]): LeadCreatedEvent[] {
  const events: LeadCreatedEvent[] = [];
  for (const row of rows) {
    if (row.jobName !== "lead.received") continue;
    const payload = row.payload as { source?: unknown; sourceId?: unknown; owner?: unknown };
    const source = JobSource.safeParse(payload.source);
    if (!source.success || typeof payload.sourceId !== "string") continue;
    const owner = LeadOwner.safeParse(payload.owner);
    events.push({
      source: source.data,
      id: payload.sourceId,
      at: new Date(row.createdAt).toISOString(),
      owner: owner.success ? owner.data : null,
    });
  }
  return events;
}

/** The late leads a batch stands for: each is claimed once, with one `mail.lead-overdue` row. */
export function overdueEvents(rows: OutboxRow[]): LeadOverdueEvent[] {
  const events: LeadOverdueEvent[] = [];
  for (const row of rows) {
    if (row.jobName !== "mail.lead-overdue") continue;
    const payload = row.payload as { source?: unknown; sourceId?: unknown; owner?: unknown; dueAt?: unknown };
    const source = JobSource.safeParse(payload.source);
    const dueAt = IsoDateTime.safeParse(payload.dueAt);
    if (!source.success || !dueAt.success || typeof payload.sourceId !== "string") continue;
    const owner = LeadOwner.safeParse(payload.owner);
    events.push({
      source: source.data,
      id: payload.sourceId,
      owner: owner.success ? owner.data : null,
      dueAt: dueAt.data,
      at: new Date(row.createdAt).toISOString(),
    });
  }
  return events;
}
