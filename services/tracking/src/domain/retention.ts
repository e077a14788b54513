import type { Logger, Pool } from "@lease/platform";
import { applyRetention, type RetentionReport } from "../repositories/retention";
import type { Partitions } from "../repositories/partitions";
import { addMonths, amsterdamDate, DAY_MS } from "./calendar";
import type { Clock } from "./clock";
import { retentionStart } from "./periods";

/** Months of partitions created ahead of need, beyond the current one. */
const MONTHS_AHEAD = 2;

export async function runRetention(
  pool: Pool,
  partitions: Partitions,
  clock: Clock,
  months: number,
): Promise<RetentionReport> {
  const today = amsterdamDate(clock.now());
  await partitions.ensure(Array.from({ length: MONTHS_AHEAD + 1 }, (_, i) => addMonths(today, i)));
  return applyRetention(pool, partitions, retentionStart(today, months));
}

/**
 * Runs the retention pass (and creates next months' partitions) shortly after start and then once
 * a day; replicas may overlap harmlessly.
 */
export function scheduleRetention(
  pool: Pool,
  partitions: Partitions,
  clock: Clock,
  months: number,
  logger: Logger,
) {
  const run = () =>
    runRetention(pool, partitions, clock, months).then(
      (report) => logger.info(report, "tracking retention done"),
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
