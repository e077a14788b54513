import { Gauge, type Registry } from "prom-client";
import { JOB_NAMES, type AuditRecordJobData, type JobName } from "@lease/contracts";
import { inTransaction, withTransaction, type Database, type Pool } from "./pg";
import type { Logger } from "./logger";
import type { BulkJob, QueueClient } from "./queue";
import { currentTraceparent } from "./tracing";
import type { OutboxTable } from "./outbox-table";
import type { Kit } from "./kit";
import { withTimeout } from "./app";

// The transactional outbox every service that changes data for a job uses (leads: its new leads'
// jobs and audit entries; settings and the mailer: their audit entries): rows in `<schema>.outbox`
// (outboxTable) written in the transaction of the change, moved to BullMQ by the relay below. So a
// Redis that is away never loses a job, and never fails the change.

export interface OutboxRow {
  id: string;
  jobName: string;
  payload: Record<string, unknown>;
  requestId: string | null;
  traceContext: string | null;
  createdAt: Date;
}

/**
 * The relay's reads and writes of one service's outbox table (`leads.outbox`). publishBatch claims
 * up to `limit` pending rows with FOR UPDATE SKIP LOCKED (so several relays never take the same
 * row), hands them to `publish`, and marks them published in the same transaction; if publish
 * throws, the transaction rolls back and the rows stay pending for the next attempt. Rows of a job
 * this version's catalog does not have (written by a newer one) are left for a relay that knows it.
 */
export function outboxRepository(pool: Pool, table: `${string}.outbox`) {
  return {
    async publishBatch(limit: number, publish: (rows: OutboxRow[]) => Promise<void>): Promise<number> {
      return withTransaction(pool, async (client) => {
        const { rows } = await client.query<OutboxRow>(
          `SELECT id, job_name AS "jobName", payload, request_id AS "requestId", trace_context AS "traceContext",
                  created_at AS "createdAt"
             FROM ${table}
            WHERE published_at IS NULL AND job_name = ANY($2::text[])
            ORDER BY created_at
            LIMIT $1
            FOR UPDATE SKIP LOCKED`,
          [limit, JOB_NAMES],
        );
        if (rows.length === 0) return 0;
        await publish(rows);
        await client.query(`UPDATE ${table} SET published_at = now() WHERE id = ANY($1::uuid[])`, [
          rows.map((r) => r.id),
        ]);
        return rows.length;
      });
    },

    /** Rows waiting for the relay and the age of the oldest (0 when none wait): for alerting. */
    async pendingStats(): Promise<{ pending: number; oldestSeconds: number }> {
      const { rows } = await pool.query<{ pending: number; oldest: number }>(
        `SELECT count(*)::int AS pending,
                COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest
           FROM ${table}
          WHERE published_at IS NULL`,
      );
      return { pending: rows[0]?.pending ?? 0, oldestSeconds: rows[0]?.oldest ?? 0 };
    },

    /** Published rows are only an audit trail; keep a week of them. */
    async prunePublished(olderThanDays: number): Promise<number> {
      const { rowCount } = await pool.query(
        `DELETE FROM ${table} WHERE published_at < now() - make_interval(days => $1)`,
        [olderThanDays],
      );
      return rowCount ?? 0;
    },
  };
}
export type OutboxRepository = ReturnType<typeof outboxRepository>;

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Audit entries for the gateway's log (audit.record jobs), queued through the outbox in the caller's
 * transaction: they are stored with the change or not at all. The row id (the job id) is the
 * event id, which the gateway records once.
 */
export async function queueAuditEvents(
  tx: Tx | Database,
  table: OutboxTable,
  events: readonly AuditRecordJobData[],
): Promise<void> {
  if (events.length === 0) return;
  const traceContext = currentTraceparent() ?? null;
  await tx
    .insert(table)
    .values(
      events.map((event) => ({ id: event.eventId, jobName: "audit.record", payload: event, traceContext })),
    );
}

export interface OutboxRelay {
  /** Publish soon (called after each insert, so latency is not bound to the poll interval). */
  nudge(): void;
  stop(): Promise<void>;
}

export interface RelayOptions {
  outbox: OutboxRepository;
  queue: QueueClient;
  /** True while the BullMQ Redis connection is up; while false the relay does not try. */
  queueReady: () => boolean;
  logger: Logger;
  pollMs?: number;
  batchSize?: number;
  publishTimeoutMs?: number;
  maxBackoffMs?: number;
  keepPublishedDays?: number;
  /** How long a nudge waits so that inserts arriving together are published in one batch. */
  coalesceMs?: number;
  /**
   * Called with the rows just queued, before they are marked published (a failed mark calls it
   * again for the same rows), e.g. to announce new leads to open admin panels.
   */
  published?: (rows: OutboxRow[]) => Promise<void>;
}

/**
 * Moves pending outbox rows to BullMQ. Runs in every replica; rows are claimed with SKIP LOCKED.
 * While Redis or Postgres is down it backs off exponentially (up to maxBackoffMs) and keeps the rows.
 */
export function startOutboxRelay(opts: RelayOptions): OutboxRelay {
  const pollMs = opts.pollMs ?? 200;
  const batchSize = opts.batchSize ?? 200;
  const publishTimeoutMs = opts.publishTimeoutMs ?? 3000;
  const maxBackoffMs = opts.maxBackoffMs ?? 5000;
  // 50 ms: under a burst of quotes one claim-publish-mark cycle carries a few dozen rows instead of
  // a handful, which saves Postgres and Redis round trips that would compete with taking quotes.
  const coalesceMs = opts.coalesceMs ?? 50;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let failures = 0;
  let again = false;

  const publish = async (rows: OutboxRow[]) => {
    const jobs: BulkJob[] = rows.map((r) => ({
      name: r.jobName as JobName,
      data: r.payload,
      jobId: r.id,
      requestId: r.requestId ?? undefined,
      traceparent: r.traceContext ?? undefined,
    }));
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      opts.queue.enqueueMany(jobs),
      new Promise((_, reject) => {
        timeout = setTimeout(() => reject(new Error("queue did not answer in time")), publishTimeoutMs);
      }),
    ]).finally(() => clearTimeout(timeout));
    await opts.published?.(rows);
  };

  const cycle = async () => {
    if (!opts.queueReady()) throw new Error("queue connection not ready");
    // Drain: keep going while full batches come back.
    while (!stopped && (await opts.outbox.publishBatch(batchSize, publish)) === batchSize);
  };

  let dueAt = Infinity;
  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    dueAt = Date.now() + ms;
    timer = setTimeout(() => {
      dueAt = Infinity;
      tick();
    }, ms);
  };

  function tick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = cycle()
      .then(() => {
        if (failures > 0) opts.logger.info("outbox relay publishing again");
        failures = 0;
      })
      .catch((err: Error) => {
        if (failures === 0)
          opts.logger.warn({ err: err.message }, "outbox relay paused; retrying with backoff");
        failures++;
      })
      .finally(() => {
        running = undefined;
        const wait =
          failures > 0 ? Math.min(pollMs * 2 ** failures, maxBackoffMs) : again ? coalesceMs : pollMs;
        again = false;
        schedule(wait);
      });
  }

  // Published rows are only an audit trail: prune them hourly (every replica may; it is idempotent).
  const pruner = setInterval(() => {
    opts.outbox
      .prunePublished(opts.keepPublishedDays ?? 7)
      .catch((err: Error) => opts.logger.warn({ err: err.message }, "outbox prune failed"));
  }, 3600_000);
  pruner.unref();

  schedule(0);
  return {
    nudge() {
      // Under load many inserts share one cycle: a nudge never pulls a pending run closer than coalesceMs.
      if (failures === 0 && dueAt > Date.now() + coalesceMs) schedule(coalesceMs);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(pruner);
      await running;
    },
  };
}

/**
 * The outbox's backlog as `<prefix>_outbox_pending` and `<prefix>_outbox_oldest_pending_seconds`,
 * read at each scrape (one query for both; Postgres away: the last values).
 */
export function outboxMetrics(
  registry: Registry,
  prefix: string,
  read: () => Promise<{ pending: number; oldestSeconds: number }>,
): void {
  let last = { pending: 0, oldestSeconds: 0 };
  let reading: Promise<void> | undefined;
  const refresh = () =>
    (reading ??= read()
      .then((stats) => void (last = stats))
      .catch(() => undefined)
      .finally(() => setTimeout(() => (reading = undefined), 500).unref()));
  new Gauge({
    name: `${prefix}_outbox_pending`,
    help: "Outbox rows not yet moved to the queue",
    registers: [registry],
    async collect() {
      await refresh();
      this.set(last.pending);
    },
  });
  new Gauge({
    name: `${prefix}_outbox_oldest_pending_seconds`,
    help: "Age of the oldest outbox row not yet moved to the queue (0 when none wait)",
    registers: [registry],
    async collect() {
      await refresh();
      this.set(last.oldestSeconds);
    },
  });
}

/** A service's outbox as it runs: the table's relay to BullMQ and its backlog metrics. */
export interface ServiceOutbox {
  repository: OutboxRepository;
  relay: OutboxRelay;
  /** Adds `<service>_outbox_pending` and `<service>_outbox_oldest_pending_seconds`. */
  registerMetrics(registry: Registry): void;
}

/**
 * Starts the relay of the service's `<service>.outbox` over its BullMQ connection, once that is
 * ready (at most 5 s after the start; after that the relay waits for it and says so). Stop
 * `relay` before closing the queue.
 */
export async function startServiceOutbox(
  kit: Pick<Kit, "name" | "pool" | "logger" | "bullConnection">,
  queue: QueueClient,
  opts: Partial<Omit<RelayOptions, "outbox" | "queue">> = {},
): Promise<ServiceOutbox> {
  const bull = kit.bullConnection();
  await withTimeout(
    new Promise((ready) => (bull.status === "ready" ? ready(null) : bull.once("ready", ready))),
    5000,
  ).catch(() => undefined);
  const repository = outboxRepository(kit.pool, `${kit.name}.outbox`);
  const relay = startOutboxRelay({
    outbox: repository,
    queue,
    queueReady: () => bull.status === "ready",
    logger: kit.logger.child({ component: "outbox-relay" }),
    ...opts,
  });
  return {
    repository,
    relay,
    registerMetrics: (registry) => outboxMetrics(registry, kit.name, () => repository.pendingStats()),
  };
}

/** A service's repositories as one transaction sees them, plus the audit entries to store with its change. */
export type AuditedTransaction<R> = R & {
  /** Queues audit entries in the transaction's outbox (relayed to the gateway's audit log). */
  audit(events: readonly AuditRecordJobData[]): Promise<void>;
};

/**
 * Runs a change in one transaction with the repositories `build` makes on it; the audit entries
 * it queues are stored with the change, and the relay is nudged once it is committed.
 */
export function auditedTransactions<R>(
  db: Database,
  table: OutboxTable,
  outbox: Pick<ServiceOutbox, "relay">,
  build: (tx: Database) => R,
) {
  return async <T>(work: (tx: AuditedTransaction<R>) => Promise<T>): Promise<T> => {
    const result = await inTransaction(db, (tx) =>
      work({ ...build(tx), audit: (events) => queueAuditEvents(tx, table, events) }),
    );
    outbox.relay.nudge();
    return result;
  };
}
