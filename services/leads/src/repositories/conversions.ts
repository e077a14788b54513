import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type {
  ConversionDelivery,
  ConversionEvent,
  ConversionOutcomeJobData,
  ConversionPlatform,
  ConversionSendJobData,
  MatchKey,
} from "@lease/contracts";
import type { Database } from "@lease/platform";
import { conversionClientIps, conversionDeliveries, conversionEvents, leaseRequests } from "../db/schema";
import { queueConversion } from "./lease-requests";

/** A lead's conversions as the conversions service reported them, and the retry of failed ones. */
export function conversionsRepository(db: Database) {
  return {
    async forLead(id: string): Promise<ConversionDelivery[]> {
      const rows = await db
        .select()
        .from(conversionDeliveries)
        .where(eq(conversionDeliveries.leaseRequestId, id))
        .orderBy(asc(conversionDeliveries.event), asc(conversionDeliveries.platform));
      return rows.map((r) => ({
        platform: r.platform as ConversionPlatform,
        event: r.event as ConversionEvent,
        status: r.status as ConversionDelivery["status"],
        at: r.at.toISOString(),
        ...(r.error ? { error: r.error } : {}),
        matchKeys: r.matchKeys as MatchKey[],
      }));
    },

    /**
     * Stores an outcome unless a newer one is known (jobs may arrive out of order). A lead deleted
     * since is no error: its outcome is dropped. Once the arrival is settled (every platform
     * switched on took it) the visitor's address it was sent with is removed.
     */
    async record(outcome: ConversionOutcomeJobData): Promise<void> {
      if (outcome.settled && outcome.event === "lead")
        await db.delete(conversionClientIps).where(eq(conversionClientIps.leaseRequestId, outcome.leadId));
      await db
        .insert(conversionDeliveries)
        .select(
          db
            .select({
              leaseRequestId: leaseRequests.id,
              platform: sql<string>`${outcome.platform}::text`.as("platform"),
              event: sql<string>`${outcome.event}::text`.as("event"),
              status: sql<string>`${outcome.status}::text`.as("status"),
              error: sql<string | null>`${outcome.error}::text`.as("error"),
              at: sql<Date>`${outcome.at}::timestamptz`.as("at"),
              // As an array literal: the keys are MATCH_KEYS names (letters and "_" only).
              matchKeys: sql<string[]>`${`{${outcome.matchKeys.join(",")}}`}::text[]`.as("match_keys"),
            })
            .from(leaseRequests)
            .where(eq(leaseRequests.id, outcome.leadId)),
        )
        .onConflictDoUpdate({
          target: [
            conversionDeliveries.leaseRequestId,
            conversionDeliveries.platform,
            conversionDeliveries.event,
          ],
          set: {
            status: sql`excluded.status`,
            error: sql`excluded.error`,
            at: sql`excluded.at`,
            // A platform not reached (not configured) has no keys to say: the last built ones stay.
            matchKeys: sql`CASE WHEN cardinality(excluded.match_keys) > 0 THEN excluded.match_keys ELSE ${conversionDeliveries.matchKeys} END`,
          },
          setWhere: sql`${conversionDeliveries.at} <= excluded.at`,
        });
    },

    /** Removes the visitors' addresses kept longer than `days` (their arrival was never settled). */
    async pruneClientIps(days: number): Promise<number> {
      const rows = await db
        .delete(conversionClientIps)
        .where(sql`${conversionClientIps.createdAt} <= now() - make_interval(days => ${days})`)
        .returning({ id: conversionClientIps.leaseRequestId });
      return rows.length;
    },

    /**
     * Queues the lead's failed events again (only to the platforms that failed; one platform when
     * named) and marks them waiting, in one transaction. Answers how many deliveries go again.
     */
    async retryFailed(id: string, platform?: ConversionPlatform): Promise<number> {
      return db.transaction(async (tx) => {
        const [lead] = await tx.select().from(leaseRequests).where(eq(leaseRequests.id, id)).for("update");
        if (!lead || !lead.marketingConsent) return 0;
        const failed = await tx
          .select()
          .from(conversionDeliveries)
          .where(
            and(
              eq(conversionDeliveries.leaseRequestId, id),
              eq(conversionDeliveries.status, "failed"),
              platform ? eq(conversionDeliveries.platform, platform) : undefined,
            ),
          );
        if (failed.length === 0) return 0;
        const events = await tx
          .select()
          .from(conversionEvents)
          .where(eq(conversionEvents.leaseRequestId, id));
        const byEvent = new Map<ConversionEvent, ConversionPlatform[]>();
        for (const f of failed) {
          const event = f.event as ConversionEvent;
          byEvent.set(event, [...(byEvent.get(event) ?? []), f.platform as ConversionPlatform]);
        }
        let queued = 0;
        for (const [event, platforms] of byEvent) {
          const stored = events.find((e) => e.event === event);
          const job: ConversionSendJobData | undefined =
            event === "lead"
              ? lead.eventId
                ? {
                    leadId: id,
                    event,
                    eventId: lead.eventId,
                    at: lead.createdAt.toISOString(),
                    valueCents: null,
                  }
                : undefined
              : stored && {
                  leadId: id,
                  event,
                  eventId: stored.eventId,
                  at: stored.at.toISOString(),
                  valueCents: stored.valueCents,
                };
          if (!job) continue;
          await queueConversion(tx, { ...job, platforms });
          await tx
            .update(conversionDeliveries)
            .set({ status: "waiting", at: new Date() })
            .where(
              and(
                eq(conversionDeliveries.leaseRequestId, id),
                eq(conversionDeliveries.event, event),
                inArray(conversionDeliveries.platform, platforms),
              ),
            );
          queued += platforms.length;
        }
        return queued;
      });
    },
  };
}
export type ConversionsRepository = ReturnType<typeof conversionsRepository>;
