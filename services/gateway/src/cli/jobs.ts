import { QUEUES } from "@lease/contracts";
import {
  closeRedis,
  connectRedisOnce,
  createQueueClient,
  failedJobsReport,
  retryFailedJobs,
  type Logger,
  type Redis,
} from "@lease/platform";

// `npm run admin -- jobs failed`: what waits in each queue's failed set (jobs that retried for the
// catalog's whole period, a day, or could not be read), counted by job and reason.
// `npm run admin -- jobs retry [QUEUE]`: moves them back to waiting, attempts reset (every queue
// when none is named). infra/RUNBOOK.md (LeaseJobsFailed) says when to use which.

export const JOBS_USAGE = "jobs failed | jobs retry [QUEUE]";
const QUEUE_NAMES: readonly string[] = Object.values(QUEUES);

export async function jobsCommand(args: string[], logger: Logger): Promise<number> {
  const [sub, queueArg, ...rest] = args;
  const known = sub === "failed" ? queueArg === undefined : sub === "retry" && rest.length === 0;
  if (!known) {
    console.error(`usage: npm run admin -- ${JOBS_USAGE}`);
    return 2;
  }
  if (queueArg !== undefined && !QUEUE_NAMES.includes(queueArg)) {
    console.error(`no queue "${queueArg}"; the queues are: ${QUEUE_NAMES.join(", ")}`);
    return 2;
  }
  const url = process.env.REDIS_URL;
  if (!url) {
    console.error(
      "REDIS_URL is not set: run this as npm run admin -- jobs ..., which finds Redis as npm start does",
    );
    return 1;
  }
  let redis: Redis;
  try {
    redis = await connectRedisOnce(url, "bullmq", logger);
  } catch (err) {
    console.error((err as Error).message);
    return 1;
  }
  try {
    const client = createQueueClient(redis, process.env.REDIS_PREFIX || "lease");
    try {
      if (sub === "failed") {
        for (const report of await failedJobsReport(client, QUEUE_NAMES)) {
          console.log(`${report.queue}: ${report.failed} failed`);
          for (const g of report.groups)
            console.log(
              `  ${g.count} × ${g.job}: ${g.reason}${g.lastFailedAt ? ` (last ${g.lastFailedAt.toISOString()})` : ""}`,
            );
        }
        return 0;
      }
      for (const queue of queueArg ? [queueArg] : QUEUE_NAMES) {
        const moved = await retryFailedJobs(client, queue);
        console.log(`${queue}: ${moved} failed job${moved === 1 ? "" : "s"} moved back to waiting`);
      }
      return 0;
    } finally {
      await client.close();
    }
  } finally {
    await closeRedis(redis);
  }
}
