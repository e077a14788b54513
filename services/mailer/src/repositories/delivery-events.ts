import { sql } from "drizzle-orm";
import type { DeliveryState } from "@lease/contracts";
import type { Database } from "@lease/platform";
import { deliveryEvents, eventBatches, webhookSettings } from "../db/schema";
import { queueLeadActivity } from "./conversation";

/** One event of a verified batch, as the mailer uses it. */
export interface KnownEvent {
  sgEventId: string;
  event: string;
  /** The delivery state the event means (processed, deferred, delivered, bounced, dropped), or null (open, click, ...). */
  state: DeliveryState | null;
  at: Date;
  reason: string | null;
  outgoingEmailId: string | null;
  providerMessageId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A later state never gives way to an earlier one (events of a batch, and batches, may come out of
 * order): deferred, then delivered; a bounce or drop is final.
 */
const RANK: Record<DeliveryState, number> = {
  processed: 1,
  deferred: 2,
  delivered: 3,
  bounced: 4,
  dropped: 4,
};
const STORED_RANK = sql.raw(`CASE delivery_state WHEN 'processed' THEN 1 WHEN 'deferred' THEN 2
  WHEN 'delivered' THEN 3 WHEN 'bounced' THEN 4 WHEN 'dropped' THEN 4 ELSE 0 END`);

export function deliveryEventsRepository(db: Database) {
  return {
    /**
     * Stores a verified batch in one transaction: its signature (a replay is refused, nothing
     * changed), each event of a panel's e-mail once, the e-mails' delivery state, and for a lead's
     * e-mail the job that tells leads.
     */
    async store(
      signatureHash: string,
      events: KnownEvent[],
    ): Promise<"replayed" | { matched: number; leadEmails: number }> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`DELETE FROM ${eventBatches} WHERE received_at < now() - interval '1 day'`);
        const fresh = await tx
          .insert(eventBatches)
          .values({ signatureHash })
          .onConflictDoNothing()
          .returning({ hash: eventBatches.signatureHash });
        if (fresh.length === 0) return "replayed";
        await tx
          .insert(webhookSettings)
          .values({ id: 1, eventsLastReceivedAt: sql`now()` })
          .onConflictDoUpdate({ target: webhookSettings.id, set: { eventsLastReceivedAt: sql`now()` } });
        if (events.length === 0) return { matched: 0, leadEmails: 0 };
        // Each event's e-mail: by our custom arg, else by the message id SendGrid's send answered.
        const { rows } = await tx.execute<{ idx: number; outgoing_id: string }>(sql`
          SELECT e.idx, o.id AS outgoing_id
            FROM jsonb_to_recordset(${JSON.stringify(
              events.map((e, idx) => ({
                idx,
                oid: e.outgoingEmailId && UUID.test(e.outgoingEmailId) ? e.outgoingEmailId : null,
                pid: e.providerMessageId,
              })),
            )}::jsonb) AS e(idx int, oid uuid, pid text)
            JOIN mailer.outgoing_emails o ON o.id = e.oid OR (e.oid IS NULL AND o.provider_message_id = e.pid)`);
        const known = rows.map((r) => ({ ...events[r.idx]!, outgoingId: r.outgoing_id }));
        if (known.length === 0) return { matched: 0, leadEmails: 0 };
        const inserted = await tx
          .insert(deliveryEvents)
          .values(
            known.map((e) => ({
              sgEventId: e.sgEventId,
              outgoingEmailId: e.outgoingId,
              event: e.event,
              reason: e.reason,
              at: e.at,
            })),
          )
          .onConflictDoNothing({ target: deliveryEvents.sgEventId })
          .returning({ sgEventId: deliveryEvents.sgEventId });
        const isNew = new Set(inserted.map((r) => r.sgEventId));
        const changed = new Set<string>();
        for (const e of known.filter((k) => isNew.has(k.sgEventId)).sort((a, b) => +a.at - +b.at)) {
          const { rows: updated } = await tx.execute<{ id: string }>(
            e.event === "open"
              ? sql`UPDATE mailer.outgoing_emails SET opened_at = COALESCE(opened_at, ${e.at}), updated_at = now()
                     WHERE id = ${e.outgoingId} RETURNING id`
              : e.state
                ? sql`UPDATE mailer.outgoing_emails
                         SET delivery_state = ${e.state}, delivery_reason = ${e.reason}, delivery_at = ${e.at}, updated_at = now()
                       WHERE id = ${e.outgoingId}
                         AND ${STORED_RANK} <= ${RANK[e.state]}
                     RETURNING id`
                : sql`SELECT NULL::uuid AS id WHERE false`,
          );
          if (updated.length > 0) changed.add(e.outgoingId);
        }
        // A lead's e-mail whose state changed: leads is told (its timeline, a bounce marks the address).
        const { rows: leadRows } = changed.size
          ? await tx.execute<{ lease_request_id: string; inbox_id: string }>(sql`
              SELECT o.lease_request_id, m.id AS inbox_id FROM mailer.outgoing_emails o
                JOIN mailer.email_messages m ON m.source = 'outgoing' AND m.source_id = o.id
               WHERE o.id IN (${sql.join(
                 [...changed].map((id) => sql`${id}::uuid`),
                 sql`, `,
               )}) AND o.lease_request_id IS NOT NULL`)
          : { rows: [] };
        for (const r of leadRows)
          await queueLeadActivity(tx, {
            leaseRequestId: r.lease_request_id,
            emailId: r.inbox_id,
            kind: "delivery",
          });
        return { matched: known.length, leadEmails: leadRows.length };
      });
    },
  };
}
export type DeliveryEventsRepository = ReturnType<typeof deliveryEventsRepository>;
