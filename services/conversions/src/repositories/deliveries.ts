import { and, eq, lt, sql } from "drizzle-orm";
import type { ConversionEvent, ConversionPlatform, ConversionStatus } from "@lease/contracts";
import type { Database } from "@lease/platform";
import { deliveries } from "../db/schema";

export type DeliveryRow = typeof deliveries.$inferSelect;

/** The only code touching conversions.deliveries. */
export function deliveriesRepository(db: Database) {
  return {
    async find(eventId: string, platform: ConversionPlatform): Promise<DeliveryRow | undefined> {
      const [row] = await db
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.eventId, eventId), eq(deliveries.platform, platform)));
      return row;
    },

    /** Records an attempt's outcome (one more attempt when `attempted`). */
    async record(row: {
      eventId: string;
      platform: ConversionPlatform;
      leadId: string;
      event: ConversionEvent;
      status: ConversionStatus;
      error: string | null;
      attempted: boolean;
    }): Promise<void> {
      const add = row.attempted ? 1 : 0;
      await db
        .insert(deliveries)
        .values({
          eventId: row.eventId,
          platform: row.platform,
          leadId: row.leadId,
          event: row.event,
          status: row.status,
          error: row.error,
          attempts: add,
        })
        .onConflictDoUpdate({
          target: [deliveries.eventId, deliveries.platform],
          set: {
            status: row.status,
            error: row.error,
            attempts: sql`${deliveries.attempts} + ${add}`,
            updatedAt: sql`now()`,
          },
        });
    },

    /** The event's deliveries still waiting (after the job's last attempt: they failed for good). */
    async waiting(eventId: string): Promise<DeliveryRow[]> {
      return db
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.eventId, eventId), eq(deliveries.status, "waiting")));
    },

    /** Removes records older than `days` (the privacy policy's retention of leads). */
    async prune(days: number): Promise<number> {
      const rows = await db
        .delete(deliveries)
        .where(lt(deliveries.updatedAt, sql`now() - make_interval(days => ${days})`))
        .returning({ id: deliveries.eventId });
      return rows.length;
    },
  };
}
export type DeliveriesRepository = ReturnType<typeof deliveriesRepository>;
