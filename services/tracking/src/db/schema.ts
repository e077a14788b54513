import { index, pgSchema, text, timestamp } from "drizzle-orm/pg-core";

export const tracking = pgSchema("tracking");

/**
 * One row per page view. The key is the Redis Stream entry id, so a redelivered batch adds
 * nothing; it grows with time, so inserts land on the right edge of the index (a random uuid key
 * cost as much again per insert, measured).
 */
export const pageViews = tracking.table(
  "page_views",
  {
    eventId: text("event_id").primaryKey(),
    sessionId: text("session_id").notNull(),
    page: text("page").notNull(),
    referrer: text("referrer"),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("page_views_occurred_at_idx").on(t.occurredAt)],
);

/** One row per browser session. ip_prefix is truncated (IPv4 /24, IPv6 /48): never a full address. */
export const visitors = tracking.table(
  "visitors",
  {
    sessionId: text("session_id").primaryKey(),
    ipPrefix: text("ip_prefix"),
    userAgent: text("user_agent"),
    page: text("page").notNull(),
    referrer: text("referrer"),
    country: text("country"),
    city: text("city"),
    firstSeen: timestamp("first_seen", { withTimezone: true }).notNull(),
    lastSeen: timestamp("last_seen", { withTimezone: true }).notNull(),
  },
  (t) => [index("visitors_last_seen_idx").on(t.lastSeen)],
);
