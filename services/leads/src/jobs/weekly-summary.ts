import type { JobData } from "@lease/contracts";
import type { Logger, QueueClient } from "@lease/platform";
import { WEEKLY_SUMMARY_SCHEDULE, previousWeek } from "../domain/weekly-summary";
import type { WeeklySummaryRepository } from "../repositories/weekly-summary";

/** A scheduler not written at start (Redis away) is tried again this often until it is. */
const SCHEDULE_RETRY_MS = 60_000;

/**
 * Every replica upserts the one job scheduler at start (the same id: Redis keeps one, and one job
 * per Monday 08:00 Amsterdam time, whichever replica's worker takes it). Answers a function that
 * stops the retries.
 */
export function startWeeklySummarySchedule(queue: QueueClient, logger: Logger): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const upsert = () => {
    queue.schedule("leads.weekly-summary", {}, WEEKLY_SUMMARY_SCHEDULE).then(
      (next) => logger.info({ next: next?.toISOString() }, "weekly summary scheduled"),
      (err: Error) => {
        if (stopped) return;
        logger.warn({ err: err.message }, "weekly summary not scheduled; tried again in a minute");
        timer = setTimeout(upsert, SCHEDULE_RETRY_MS);
        timer.unref();
      },
    );
  };
  upsert();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * The scheduled job: the week before now (or the job's own week) for every admin who chose the
 * summary, each queued once (the repository's (admin, week) key), then the relay woken.
 */
export function weeklySummaryPlanHandler(deps: {
  repo: WeeklySummaryRepository;
  now: () => Date;
  nudge: () => void;
}) {
  return async (data: JobData<"leads.weekly-summary">, { log }: { log: Logger }) => {
    const week = data.week ?? previousWeek(deps.now());
    const queued = await deps.repo.plan(week);
    if (queued.length > 0) deps.nudge();
    log.info({ week, queued: queued.length }, "weekly summaries queued");
  };
}
