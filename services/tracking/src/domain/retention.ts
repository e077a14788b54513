import type { Logger, Pool } from "@lease/platform";
import { deleteOlderThan } from "../repositories/page-views";
import type { Clock } from "./clock";

const DAY_MS = 24 * 3600 * 1000;

/** The cutoff: the same moment `months` calendar months ago (analytics are kept 26 months). */
export function retentionCutoff(now: number, months: number): Date {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
}

export async function runRetention(pool: Pool, clock: Clock, months: number): Promise<number> {
  return deleteOlderThan(pool, retentionCutoff(clock.now(), months));
}

/** Runs the retention job shortly after start and then once a day; replicas may overlap harmlessly. */
export function scheduleRetention(pool: Pool, clock: Clock, months: number, logger: Logger) {
  const run = () =>
    runRetention(pool, clock, months).then(
      (deleted) => logger.info({ deleted }, "tracking retention done"),
      (err: Error) => logger.warn({ err: err.message }, "tracking retention failed; retried tomorrow"),
    );
  const first = setTimeout(run, 60_000);
  const daily = setInterval(run, DAY_MS);
  first.unref();
  daily.unref();
  return () => {
    clearTimeout(first);
    clearInterval(daily);
  };
}
