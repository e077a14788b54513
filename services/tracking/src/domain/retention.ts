import { scheduleDaily, type Logger, type Pool } from "@lease/platform";
import { applyRetention, type RetentionReport } from "../repositories/retention";
import type { Partitions } from "../repositories/partitions";
import { addMonths, amsterdamDate } from "./calendar";
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
  return scheduleDaily("tracking retention", () => runRetention(pool, partitions, clock, months), logger, {
    describe: (report) => ({ ...report }),
  });
}
