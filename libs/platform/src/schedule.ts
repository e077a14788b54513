import type { Logger } from "./logger";

const DAY_MS = 24 * 60 * 60_000;

/**
 * Periodic upkeep of a service (retention passes, pruning): `task` runs `firstRunMs` after start
 * and then once a day (or every `everyMs`), in every replica, so it must be idempotent (replicas
 * overlapping only find less to do). A failure is logged and the task tried again at the next run; what the task answers is
 * logged when `describe` makes something of it. Answers a function that stops the schedule.
 */
export function scheduleDaily<T>(
  name: string,
  task: () => Promise<T>,
  logger: Logger,
  opts: {
    firstRunMs?: number;
    /** Runs this often instead of daily (a limit kept to the hour, such as an address's 7 days). */
    everyMs?: number;
    describe?: (result: T) => Record<string, unknown> | undefined;
  } = {},
): () => void {
  const run = () =>
    task().then(
      (result) => {
        const fields = opts.describe?.(result);
        if (fields) logger.info(fields, `${name} done`);
      },
      (err: Error) => logger.warn({ err: err.message }, `${name} failed; retried at the next run`),
    );
  const first = setTimeout(run, opts.firstRunMs ?? 60_000);
  const daily = setInterval(run, opts.everyMs ?? DAY_MS);
  first.unref();
  daily.unref();
  return () => {
    clearTimeout(first);
    clearInterval(daily);
  };
}

/**
 * Runs `round` every `intervalMs` in this replica, never two at once (a round still running when
 * the next is due is left to finish); a failure goes to `onError` and the next round tries again.
 * `stop()` ends the schedule and waits for a running round.
 */
export function scheduleEvery(
  intervalMs: number,
  round: () => Promise<void>,
  onError: (err: Error) => void,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= round()
      .catch(onError)
      .finally(() => (running = undefined));
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
