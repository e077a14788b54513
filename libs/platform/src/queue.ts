import { Queue, Worker, UnrecoverableError, type Job, type JobsOptions } from "bullmq";
import { JOBS, type JobName, type JobData } from "@lease/contracts";
import type { Redis } from "./redis";
import type { Logger } from "./logger";

// The only module that imports bullmq: services speak in job names from the contracts catalog.

export interface QueueClient {
  enqueue<N extends JobName>(
    name: N,
    data: JobData<N>,
    opts: { jobId: string; requestId?: string },
  ): Promise<void>;
  /** Adds many jobs in one round trip per queue; a job id that already exists is left as it is. */
  enqueueMany(jobs: readonly BulkJob[]): Promise<void>;
  close(): Promise<void>;
  raw(queue: string): Queue;
}

export interface BulkJob {
  name: JobName;
  data: unknown;
  jobId: string;
  requestId?: string;
}

const bullPrefix = (redisPrefix: string) => `${redisPrefix}:bull`;

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
  const prepare = (name: JobName, data: unknown, jobId: string, requestId?: string) => {
    const spec = JOBS[name];
    const parsed = spec.schema.parse(data) as Record<string, unknown>;
    const jobOpts: JobsOptions = {
      jobId,
      attempts: spec.attempts,
      backoff: spec.backoff,
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    };
    return {
      queue: spec.queue,
      name,
      data: { ...parsed, ...(requestId ? { requestId } : {}) },
      opts: jobOpts,
    };
  };
  return {
    async enqueue(name, data, opts) {
      const job = prepare(name, data, opts.jobId, opts.requestId);
      await get(job.queue).add(job.name, job.data, job.opts);
    },
    async enqueueMany(jobs) {
      const byQueue = new Map<string, ReturnType<typeof prepare>[]>();
      for (const j of jobs) {
        const job = prepare(j.name, j.data, j.jobId, j.requestId);
        byQueue.set(job.queue, [...(byQueue.get(job.queue) ?? []), job]);
      }
      await Promise.all(
        [...byQueue].map(([queue, list]) =>
          get(queue).addBulk(list.map(({ name, data, opts }) => ({ name, data, opts }))),
        ),
      );
    },
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
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
}

export function createWorker(opts: WorkerOptions): Worker {
  const worker = new Worker(
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
      if (!spec || !handler) throw new UnrecoverableError(`no handler for job ${job.name}`);
      const parsed = spec.schema.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`invalid data for job ${job.name}`);
      log.debug({ attempt: job.attemptsMade + 1 }, "job started");
      await handler(parsed.data, { log, attempt: job.attemptsMade + 1, job });
      log.debug("job done");
    },
    {
      connection: opts.connection,
      prefix: bullPrefix(opts.redisPrefix),
      concurrency: opts.concurrency ?? 10,
      lockDuration: opts.lockDurationMs ?? 5000,
      stalledInterval: opts.stalledIntervalMs ?? 5000,
      maxStalledCount: 5,
      autorun: true,
    },
  );
  worker.on("failed", (job, err) => {
    if (!job) return;
    const final = job.attemptsMade >= (job.opts.attempts ?? 1) || err instanceof UnrecoverableError;
    opts.logger.warn(
      { job: job.name, jobId: job.id, attempt: job.attemptsMade, final, err: err.message },
      "job failed",
    );
    if (final && opts.onFinalFailure) {
      opts
        .onFinalFailure(job.name as JobName, job.data, err)
        .catch((e: Error) => opts.logger.error({ err: e.message }, "final failure handler failed"));
    }
  });
  worker.on("error", (err) => opts.logger.warn({ err: err.message }, "worker error"));
  return worker;
}

export type { Worker };
