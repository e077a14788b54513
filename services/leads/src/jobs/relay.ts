import type { BulkJob, Logger, QueueClient } from "@lease/platform";
import { JOBS, JobSource, type JobName, type LeadCreatedEvent } from "@lease/contracts";
import type { OutboxRepository, OutboxRow } from "../repositories/outbox";

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
   * Told of the new leads among the rows just queued (one per lead: its `lead.received` row), so open
   * admin panels hear of them. Called before the rows are marked published: a failed mark announces
   * them again, which the panel takes as the same lead.
   */
  announce?: (events: LeadCreatedEvent[]) => Promise<void>;
}

/** The new leads a batch of outbox rows stands for: each lead writes exactly one `lead.received` row. */
export function leadEvents(rows: OutboxRow[]): LeadCreatedEvent[] {
  const events: LeadCreatedEvent[] = [];
  for (const row of rows) {
    if (row.jobName !== "lead.received") continue;
    const payload = row.payload as { source?: unknown; sourceId?: unknown };
    const source = JobSource.safeParse(payload.source);
    if (!source.success || typeof payload.sourceId !== "string") continue;
    events.push({ source: source.data, id: payload.sourceId, at: new Date(row.createdAt).toISOString() });
  }
  return events;
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
    const jobs: BulkJob[] = rows
      .filter((r) => r.jobName in JOBS)
      .map((r) => ({
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
    const events = opts.announce ? leadEvents(rows) : [];
    if (events.length > 0) await opts.announce!(events);
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
