import { scheduleDaily, type Logger, type Pool } from "@lease/platform";
import { applyRetention, type RetentionReport } from "../repositories/retention";
import { compactMonths, type Compaction, type Partitions } from "../repositories/partitions";
import { addMonths, amsterdamDate, monthOf } from "./calendar";
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
 * The page views' key of each kept month that is over and not yet packed, rebuilt packed
 * (repositories/partitions.ts compactMonths): once, at the first daily pass after a month closed
 * (and at the first pass for every month stored before); an index already packed is left alone,
 * so on the other days this is a catalog read.
 */
export async function compactClosedMonths(
  pool: Pool,
  partitions: Partitions,
  clock: Clock,
): Promise<Compaction> {
  const thisMonth = monthOf(amsterdamDate(clock.now()));
  return compactMonths(pool, await partitions.months(), thisMonth);
}

/**
 * Runs the retention pass (and creates next months' partitions) shortly after start and then once
 * a day; replicas may overlap harmlessly. Each pass then compacts the closed months
 * (compactClosedMonths, one replica at a time); `npm run tracking:retention`, the pass alone that
 * the history benchmark times, does not.
 */
export function scheduleRetention(
  pool: Pool,
  partitions: Partitions,
  clock: Clock,
  months: number,
  logger: Logger,
) {
  const pass = async () => {
    const report = await runRetention(pool, partitions, clock, months);
    const compaction = await compactClosedMonths(pool, partitions, clock);
    return { ...report, compactedMonths: compaction.months, compactionMs: compaction.ms };
  };
  return scheduleDaily("tracking retention", pass, logger, { describe: (report) => ({ ...report }) });
}
