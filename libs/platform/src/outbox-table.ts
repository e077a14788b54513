import { sql } from "drizzle-orm";
import { index, jsonb, text, timestamp, uuid, type PgSchema } from "drizzle-orm/pg-core";

// Its own module (drizzle only): the services' db/schema.ts import it, and drizzle-kit loads those.

/**
 * A service's transactional outbox, `<schema>.outbox`: jobs written in the same transaction as the
 * change they are about, moved to BullMQ by the relay (startOutboxRelay). The row id is the BullMQ
 * job id, so publishing twice never makes two jobs.
 */
export function outboxTable<S extends string>(schema: PgSchema<S>) {
  return schema.table(
    "outbox",
    {
      id: uuid("id")
        .primaryKey()
        .default(sql`gen_random_uuid()`),
      jobName: text("job_name").notNull(),
      payload: jsonb("payload").notNull(),
      requestId: text("request_id"),
      /** W3C traceparent of the request that wrote the row (tracing on only): the job continues its trace. */
      traceContext: text("trace_context"),
      createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
      publishedAt: timestamp("published_at", { withTimezone: true }),
    },
    (t) => [
      index("outbox_pending_idx")
        .on(t.createdAt)
        .where(sql`${t.publishedAt} IS NULL`),
    ],
  );
}
export type OutboxTable = ReturnType<typeof outboxTable>;
