import { index, integer, pgSchema, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const conversions = pgSchema("conversions");

/**
 * Each event of a lead per platform: one row per (event id, platform), so a job delivered twice,
 * or retried after one platform took it, never sends it to that platform again. Lead ids only, no
 * personal data (that is read from leads when sending).
 */
export const deliveries = conversions.table(
  "deliveries",
  {
    eventId: uuid("event_id").notNull(),
    platform: text("platform").notNull(),
    leadId: uuid("lead_id").notNull(),
    event: text("event").notNull(),
    /** sent, waiting (queued or retrying) or failed. */
    status: text("status").notNull(),
    /** Why not sent (yet), with the platform's own message; never a token. */
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.platform] }),
    index("deliveries_updated_at_idx").on(t.updatedAt),
  ],
);
