import { scheduleDaily, type Logger, type Pool } from "@lease/platform";
import { applyRetention, waitForImports, type RetentionReport } from "../repositories/retention";
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
 * The page views of each kept month that is over, packed into page_view_days
 * (repositories/partitions.ts compactMonths): at the first daily pass after a month closed, after
 * an import into months that are over, and for a late view that came in since; a month with no
 * row left in page_views is one quick read.
 */
export async function compactClosedMonths(
  pool: Pool,
  partitions: Partitions,
  clock: Clock,
  opts: { wait?: boolean } = {},
): Promise<Compaction> {
  const thisMonth = monthOf(amsterdamDate(clock.now()));
  return compactMonths(pool, await partitions.months(), thisMonth, opts);
}

/**
 * Runs the retention pass (and creates next months' partitions) shortly after start and then once
 * a day; replicas may overlap harmlessly. A pass waits for a history import running meanwhile
 * (waitForImports), and then packs the closed months (compactClosedMonths, one replica at a time);
 * `npm run tracking:retention`, the pass alone that the history benchmark times, does not.
 */
export function scheduleRetention(
  pool: Pool,
  partitions: Partitions,
  clock: Clock,
  months: number,
  logger: Logger,
) {
  const pass = async () => {
    await waitForImports(pool);
    const report = await runRetention(pool, partitions, clock, months);
    const compaction = await compactClosedMonths(pool, partitions, clock);
    return {
      ...report,
      packedMonths: compaction.months,
      packedViews: compaction.views,
      packingMs: compaction.ms,
    };
  };
  return scheduleDaily("tracking retention", pass, logger, { describe: (report) => ({ ...report }) });
}
