import { Queue, Worker, UnrecoverableError, type Job, type JobsOptions } from "bullmq";
import { Counter, Gauge, type Registry } from "prom-client";
import { JOBS, JOB_NAMES, cappedBackoffMs, type JobName, type JobData } from "@lease/contracts";
import { StartupError } from "./errors";
import type { Redis } from "./redis";
import type { Logger } from "./logger";
import { addressRegExp } from "./privacy";
import {
  SpanKind,
  contextFrom,
  currentTraceparent,
  inSpan,
  spanTraceparent,
  startSpan,
  tracingEnabled,
  type Span,
} from "./tracing";

// The only module that imports bullmq: services speak in job names from the contracts catalog.

export interface QueueClient {
  enqueue<N extends JobName>(
    name: N,
    data: JobData<N>,
    opts: { jobId: string; requestId?: string },
  ): Promise<void>;
  /** Adds many jobs in one round trip per queue; a job id that already exists is left as it is. */
  enqueueMany(jobs: readonly BulkJob[]): Promise<void>;
  /**
   * A job queued by a job scheduler kept in Redis, at each time of a cron `pattern` in the time zone
   * `tz`: one job per time, however many replicas call this (the scheduler `id` is the key; calling
   * it again only updates it), and it survives restarts. Answers when the next job is due.
   */
  schedule<N extends JobName>(
    name: N,
    data: JobData<N>,
    repeat: { id: string; pattern: string; tz: string },
  ): Promise<Date | undefined>;
  close(): Promise<void>;
  raw(queue: string): Queue;
}

export interface BulkJob {
  name: JobName;
  data: unknown;
  jobId: string;
  requestId?: string;
  /** The trace the job belongs to (stored with an outbox row); its producer span joins it. */
  traceparent?: string;
}

const bullPrefix = (redisPrefix: string) => `${redisPrefix}:bull`;
const FAILED_KEEP_SECONDS = 30 * 24 * 3600;
const FAILED_KEEP_COUNT = 10_000;

/**
 * The catalog's backoff (CAPPED_BACKOFF, libs/contracts), with each job's base delay from its
 * options. BullMQ asks this only for types that are not its own: jobs queued before with its
 * "exponential" keep that.
 */
function backoffStrategy(attemptsMade: number, _type?: string, _err?: Error, job?: { opts: JobsOptions }) {
  const backoff = job?.opts.backoff;
  const base = typeof backoff === "object" ? (backoff.delay ?? 1000) : (backoff ?? 1000);
  return cappedBackoffMs(attemptsMade, base);
}

/**
 * BullMQ (5.x) cannot be closed safely while one of its connections is still starting: its close()
 * drops the connection's listeners, but the start-up goes on. A worker's own blocking connection,
 * disconnected during its ready check, still turns ready and sends INFO (for the Redis version);
 * on a shared connection, the kit quits it right after. That INFO then fails with "Connection is
 * closed", and BullMQ re-emits the failure as an 'error' nobody listens to any more: an unhandled
 * rejection (taskforcesh/bullmq#3546, #2437). So a close first lets the start-up finish, which
 * takes one round trip; bounded, as a Redis that is away never lets it finish.
 */
const STARTUP_SETTLE_MS = 3_000;

async function settleStartup(ready: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    ready.then(
      () => undefined,
      () => undefined, // a failed start-up was reported while the listeners were still there
    ),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, STARTUP_SETTLE_MS))),
  ]);
  clearTimeout(timer);
}

/** A BullMQ worker whose close() waits for its connections' start-up first (see settleStartup). */
class SettlingWorker extends Worker {
  override async close(force = false): Promise<void> {
    await settleStartup(this.waitUntilReady());
    return super.close(force);
  }
}

export function createQueueClient(connection: Redis, redisPrefix: string): QueueClient {
  const queues = new Map<string, Queue>();
  const get = (name: string) => {
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection, prefix: bullPrefix(redisPrefix) });
      queues.set(name, queue);
    }
    return queue;
  };
  const prepare = (name: JobName, data: unknown, jobId: string, requestId?: string, traceparent?: string) => {
    const spec = JOBS[name];
    const parsed = spec.schema.parse(data) as Record<string, unknown>;
    const jobOpts: JobsOptions = {
      jobId,
      ...("delay" in spec ? { delay: spec.delay } : {}),
      attempts: spec.attempts,
      backoff: spec.backoff,
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      // A job in the failed set has retried for a day (the catalog) and waits for a person
      // (`npm run admin -- jobs retry`; alert LeaseJobsFailed): kept 30 days, at most 10,000 a queue.
      removeOnFail: { age: FAILED_KEEP_SECONDS, count: FAILED_KEEP_COUNT },
    };
    return {
      queue: spec.queue,
      name,
      data: { ...parsed, ...(requestId ? { requestId } : {}), ...(traceparent ? { traceparent } : {}) },
      opts: jobOpts,
    };
  };
  return {
    async enqueue(name, data, opts) {
      await inSpan(`publish ${name}`, { kind: SpanKind.PRODUCER }, async () => {
        const job = prepare(name, data, opts.jobId, opts.requestId, currentTraceparent());
        await get(job.queue).add(job.name, job.data, job.opts);
      });
    },
    async enqueueMany(jobs) {
      // With tracing on, each job that names a trace gets a producer span in it, ended once sent.
      const spans: (Span | undefined)[] = tracingEnabled()
        ? jobs.map((j) =>
            j.traceparent
              ? startSpan(`publish ${j.name}`, {
                  kind: SpanKind.PRODUCER,
                  parent: contextFrom({ traceparent: j.traceparent }),
                })
              : undefined,
          )
        : [];
      const byQueue = new Map<string, ReturnType<typeof prepare>[]>();
      jobs.forEach((j, i) => {
        const span = spans[i];
        const job = prepare(j.name, j.data, j.jobId, j.requestId, span && spanTraceparent(span));
        byQueue.set(job.queue, [...(byQueue.get(job.queue) ?? []), job]);
      });
      try {
        await Promise.all(
          [...byQueue].map(([queue, list]) =>
            get(queue).addBulk(list.map(({ name, data, opts }) => ({ name, data, opts }))),
          ),
        );
      } finally {
        for (const span of spans) span?.end();
      }
    },
    async schedule(name, data, repeat) {
      const { queue, opts } = prepare(name, data, repeat.id);
      const { jobId: _jobId, delay: _delay, ...template } = opts;
      await get(queue).upsertJobScheduler(
        repeat.id,
        { pattern: repeat.pattern, tz: repeat.tz },
        { name, data: JOBS[name].schema.parse(data), opts: template },
      );
      const next = (await get(queue).getJobScheduler(repeat.id))?.next;
      return next === undefined ? undefined : new Date(next);
    },
    async close() {
      await Promise.all(
        [...queues.values()].map(async (q) => {
          await settleStartup(q.waitUntilReady());
          await q.close();
        }),
      );
    },
    raw: get,
  };
}

export type JobHandlers = {
  [N in JobName]?: (data: JobData<N>, ctx: { log: Logger; attempt: number; job: Job }) => Promise<void>;
};

export interface WorkerOptions {
  connection: Redis;
  redisPrefix: string;
  queue: string;
  handlers: JobHandlers;
  logger: Logger;
  concurrency?: number;
  /** Short locks so a killed worker's jobs are picked up again within seconds. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Called when a job has failed its last attempt. */
  onFinalFailure?: (name: JobName, data: unknown, err: Error) => Promise<void>;
  /** Counts finished attempts by outcome (see queueMetrics). */
  metrics?: QueueMetrics;
}

export interface QueueMetrics {
  attempts: Counter<"queue" | "job" | "outcome">;
  /** Adds the counters and the per-queue job counts (read at each scrape) to a service's registry. */
  register(registry: Registry): void;
}

/**
 * Queue figures for the dashboards and alerts: job attempts by outcome (completed, retried, failed
 * for good) and, per queue, the jobs waiting, active, delayed and failed. Labels are queue and job
 * names from the contracts' catalog, so they stay bounded.
 */
export function queueMetrics(client: QueueClient, queues: readonly string[]): QueueMetrics {
  const attempts = new Counter({
    name: "bullmq_job_attempts_total",
    help: "Finished job attempts by outcome: completed, retry (will run again) or failed (for good)",
    labelNames: ["queue", "job", "outcome"] as const,
    registers: [],
  });
  const STATES = ["waiting", "active", "delayed", "failed"] as const;
  const jobs = new Gauge({
    name: "bullmq_jobs",
    help: "Jobs in each queue by state (the queue's own counts, the same from every replica)",
    labelNames: ["queue", "state"] as const,
    registers: [],
    async collect() {
      await Promise.all(
        queues.map(async (queue) => {
          try {
            const counts = await client.raw(queue).getJobCounts(...STATES);
            for (const state of STATES) this.set({ queue, state }, counts[state] ?? 0);
          } catch {
            // Redis away: keep the last values; /metrics itself must still answer.
          }
        }),
      );
    },
  });
  // Every label set from the start at 0, so an alert's increase() sees the first failure too.
  for (const [job, spec] of Object.entries(JOBS))
    if (queues.includes(spec.queue))
      for (const outcome of ["completed", "retry", "failed"])
        attempts.inc({ queue: spec.queue, job, outcome }, 0);
  return {
    attempts,
    register(registry) {
      registry.registerMetric(attempts);
      registry.registerMetric(jobs);
    },
  };
}

/**
 * A worker must handle every job of its queue's catalog and nothing else: a job without a handler
 * would fail for good only when the first one arrives, so it is refused at startup instead.
 */
export function checkJobHandlers(queue: string, handlers: JobHandlers): void {
  const wanted = JOB_NAMES.filter((name) => JOBS[name].queue === queue);
  if (wanted.length === 0)
    throw new StartupError(
      `queue "${queue}" has no jobs in the catalog (JOBS in libs/contracts/src/jobs/catalog.ts)`,
    );
  const given = Object.keys(handlers).filter((name) => handlers[name as JobName] !== undefined);
  const missing = wanted.filter((name) => !given.includes(name));
  const foreign = given.filter((name) => !(wanted as string[]).includes(name));
  if (missing.length > 0)
    throw new StartupError(`queue "${queue}": jobs without a handler: ${missing.join(", ")}`);
  if (foreign.length > 0)
    throw new StartupError(
      `queue "${queue}": handlers for jobs that are not on this queue in the catalog: ${foreign.join(", ")}`,
    );
}

export function createWorker(opts: WorkerOptions): Worker {
  checkJobHandlers(opts.queue, opts.handlers);
  const worker = new SettlingWorker(
    opts.queue,
    async (job) => {
      const name = job.name as JobName;
      const spec = JOBS[name];
      const handler = opts.handlers[name] as
        ((data: unknown, ctx: { log: Logger; attempt: number; job: Job }) => Promise<void>) | undefined;
      const log = opts.logger.child({
        job: name,
        jobId: job.id,
        reqId: (job.data as { requestId?: string }).requestId,
      });
      // A job this version does not know comes from a newer one (a rolling deploy: the new
      // replicas queue it while old ones still take work): it waits its backoff and is tried
      // again, by then most likely by a replica that knows it, instead of failing for good here.
      if (!spec || !handler)
        throw new Error(`job ${job.name} is unknown to this version; left for a newer replica`);
      const parsed = spec.schema.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`invalid data for job ${job.name}`);
      const run = async () => {
        log.debug({ attempt: job.attemptsMade + 1 }, "job started");
        await handler(parsed.data, { log, attempt: job.attemptsMade + 1, job });
        log.debug("job done");
      };
      if (!tracingEnabled()) return run();
      // The job continues the trace of whoever queued it (traceparent in its data).
      const traceparent = (job.data as { traceparent?: unknown }).traceparent;
      const parent = contextFrom(typeof traceparent === "string" ? { traceparent } : undefined);
      await inSpan(
        `process ${name}`,
        { kind: SpanKind.CONSUMER, parent, attributes: { "messaging.destination.name": opts.queue } },
        run,
      );
    },
    {
      connection: opts.connection,
      prefix: bullPrefix(opts.redisPrefix),
      concurrency: opts.concurrency ?? 10,
      lockDuration: opts.lockDurationMs ?? 5000,
      stalledInterval: opts.stalledIntervalMs ?? 5000,
      maxStalledCount: 5,
      autorun: true,
      settings: { backoffStrategy },
    },
  );
  worker.on("completed", (job) =>
    opts.metrics?.attempts.inc({ queue: opts.queue, job: jobLabel(job.name), outcome: "completed" }),
  );
  worker.on("failed", (job, err) => {
    if (!job) return;
    const final = job.attemptsMade >= (job.opts.attempts ?? 1) || err instanceof UnrecoverableError;
    opts.metrics?.attempts.inc({
      queue: opts.queue,
      job: jobLabel(job.name),
      outcome: final ? "failed" : "retry",
    });
    const fields = { job: job.name, jobId: job.id, attempt: job.attemptsMade, final, err: err.message };
    // Never silently: a job that gives up says why, at error level, and stays in the failed set.
    if (final)
      opts.logger.error(fields, "job failed for good; kept in the failed set (npm run admin -- jobs)");
    else opts.logger.warn(fields, "job failed; retried");
    if (final && opts.onFinalFailure) {
      opts
        .onFinalFailure(job.name as JobName, job.data, err)
        .catch((e: Error) => opts.logger.error({ err: e.message }, "final failure handler failed"));
    }
  });
  worker.on("error", (err) => opts.logger.warn({ err: err.message }, "worker error"));
  return worker;
}

/** One kind of failure in a queue's failed set: the job, its reason, how many, the latest. */
export interface FailedJobGroup {
  job: string;
  reason: string;
  count: number;
  lastFailedAt: Date | undefined;
}

export interface FailedJobsReport {
  queue: string;
  failed: number;
  groups: FailedJobGroup[];
}

const FAILED_PAGE = 500;

/** The jobs of a queue's failed set, page by page (ids, names, reasons). */
async function* failedJobsOf(q: Queue): AsyncGenerator<Job> {
  for (let start = 0; ; start += FAILED_PAGE) {
    const jobs = await q.getFailed(start, start + FAILED_PAGE - 1);
    for (const job of jobs) if (job?.id) yield job;
    if (jobs.length < FAILED_PAGE) return;
  }
}

/** What waits in each queue's failed set, grouped by job and reason (for `npm run admin -- jobs failed`). */
export async function failedJobsReport(
  client: QueueClient,
  queues: readonly string[],
): Promise<FailedJobsReport[]> {
  return Promise.all(
    queues.map(async (queue) => {
      const groups = new Map<string, FailedJobGroup>();
      let failed = 0;
      for await (const job of failedJobsOf(client.raw(queue))) {
        failed++;
        const reason = (job.failedReason || "(no reason)").slice(0, 200);
        const key = `${job.name}\n${reason}`;
        const group = groups.get(key) ?? { job: job.name, reason, count: 0, lastFailedAt: undefined };
        group.count++;
        const at = job.finishedOn ? new Date(job.finishedOn) : undefined;
        if (at && (!group.lastFailedAt || at > group.lastFailedAt)) group.lastFailedAt = at;
        groups.set(key, group);
      }
      return { queue, failed, groups: [...groups.values()].sort((a, b) => b.count - a.count) };
    }),
  );
}

/**
 * Moves every job of the queue's failed set back to waiting, with its attempts reset, so it retries
 * for the catalog's whole period again. A job taken out of the set meanwhile (retried elsewhere,
 * removed) is skipped. Answers how many were moved.
 */
export async function retryFailedJobs(client: QueueClient, queue: string): Promise<number> {
  // The ids first: a job failing again at once must not be met twice in one pass.
  const jobs: Job[] = [];
  for await (const job of failedJobsOf(client.raw(queue))) jobs.push(job);
  let moved = 0;
  for (const job of jobs) {
    try {
      await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
      moved++;
    } catch {
      // no longer failed: someone else retried or removed it
    }
  }
  return moved;
}

/** A job name from the catalog, or "unknown": whatever lands in Redis cannot add label values. */
const jobLabel = (name: string) => (name in JOBS ? name : "unknown");

export type { Worker };

/** The job states an erasure looks through; active jobs are locked by a worker and finish first. */
const SCRUB_STATES = ["completed", "failed", "waiting", "delayed", "prioritized", "paused"] as const;
const SCRUB_PAGE = 500;

/**
 * Removes every job of a queue whose data, result or failure text holds one of `needles` (matched
 * lower-cased; an e-mail address only as a whole address, not inside a longer one): BullMQ keeps
 * finished jobs for a day (failed ones a week), and an erasure must leave nothing of a person
 * behind there either. Answers how many jobs were removed.
 */
export async function removeJobsHolding(
  client: QueueClient,
  queue: string,
  needles: readonly string[],
): Promise<number> {
  const wanted = needles.map((n) => n.toLowerCase()).filter((n) => n.length > 0);
  if (wanted.length === 0) return 0;
  const patterns = wanted.map((n) => (n.includes("@") ? addressRegExp(n) : null));
  const holds = (text: string) =>
    wanted.some((n, i) => (patterns[i] ? patterns[i].test(text) : text.includes(n)));
  const q = client.raw(queue);
  let removed = 0;
  for (const state of SCRUB_STATES) {
    for (let start = 0; ;) {
      const jobs = await q.getJobs([state], start, start + SCRUB_PAGE - 1, true);
      let gone = 0;
      for (const job of jobs) {
        if (!job?.id) continue;
        if (!holds(textOf([job.data, job.returnvalue, job.failedReason, job.stacktrace]))) continue;
        await job.remove();
        gone++;
      }
      removed += gone;
      if (jobs.length < SCRUB_PAGE) break;
      start += SCRUB_PAGE - gone;
    }
  }
  await dropEventsHolding(q, holds);
  return removed;
}

/**
 * Every string in a job's parts (keys too, and the strings inside a JSON text such as an event's
 * return value), unescaped and lower-cased, one a line: in JSON "Hoi\nbob@x.nl" would put an "n"
 * before the address and hide it from the whole-address match.
 */
function textOf(parts: unknown[]): string {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      out.push(value);
      if (/^\s*[[{]/.test(value)) {
        try {
          walk(JSON.parse(value));
        } catch {
          // not JSON: the text itself is enough
        }
      }
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object")
      for (const [key, inner] of Object.entries(value)) {
        out.push(key);
        walk(inner);
      }
    else if (value !== undefined && value !== null) out.push(String(value));
  };
  parts.forEach(walk);
  return out.join("\n").toLowerCase();
}

/** The queue's event stream names job ids (e.g. `attribution-<lead id>`): those entries go too. */
async function dropEventsHolding(q: Queue, holds: (text: string) => boolean): Promise<void> {
  const client = (await q.client) as unknown as Redis;
  const key = q.keys.events!;
  for (let from = "-"; ;) {
    const entries = await client.xrange(key, from, "+", "COUNT", SCRUB_PAGE);
    const drop = entries.filter(([, fields]) => holds(textOf(fields))).map(([id]) => id);
    if (drop.length > 0) await client.xdel(key, ...drop);
    if (entries.length < SCRUB_PAGE) break;
    from = `(${entries.at(-1)![0]}`;
  }
}
