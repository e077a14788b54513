import { DateTime } from "luxon";
import { NO_RESPONSE_FIGURES, type InternalWeeklySummary } from "@lease/contracts";
import type { ResponseReportDomain } from "./response-report";
import type { ResponseSettingsDomain } from "./response-settings";
import type { WeeklySummaryRepository } from "../repositories/weekly-summary";
import { ZONE } from "./working-hours";

// The weekly summary's weeks: ISO weeks of Amsterdam time (Monday 00:00 to Sunday 24:00 local, 167
// or 169 hours in the weeks the clocks change), named "2026-W13". Public holidays change nothing
// here: a week is seven days, whatever its working days.

/** Monday 08:00 Amsterdam time, whatever the clocks do: the job scheduler's cron in that zone. */
export const WEEKLY_SUMMARY_SCHEDULE = { id: "weekly-summary", pattern: "0 8 * * 1", tz: ZONE } as const;

const weekName = (day: DateTime) => day.toFormat("kkkk-'W'WW");

/** The ISO week (Amsterdam) that an instant falls in. */
export const isoWeekOf = (at: Date): string => weekName(DateTime.fromJSDate(at, { zone: ZONE }));

/** The last whole week before `now`: the one before the week `now` is in (what Monday's e-mail sums up). */
export const previousWeek = (now: Date): string =>
  weekName(DateTime.fromJSDate(now, { zone: ZONE }).startOf("week").minus({ weeks: 1 }));

export interface WeekSpan {
  /** Monday and Sunday, "YYYY-MM-DD" (Amsterdam). */
  from: string;
  to: string;
  /** Monday 00:00 and the next Monday 00:00, Amsterdam time. */
  start: Date;
  end: Date;
}

/** A week's days and the instants it starts and ends. */
export function weekSpan(week: string): WeekSpan {
  const monday = DateTime.fromISO(week, { zone: ZONE }).startOf("week");
  if (!monday.isValid) throw new RangeError(`not an ISO week: ${week}`);
  return {
    from: monday.toISODate()!,
    to: monday.plus({ days: 6 }).toISODate()!,
    start: monday.toJSDate(),
    end: monday.plus({ weeks: 1 }).toJSDate(),
  };
}

/**
 * One admin's summary of a week: the response report's figures of the week (all quote requests,
 * and the admin's own), the promise they are measured against, and the admin's open leads now.
 */
export function weeklySummaryDomain(deps: {
  repo: WeeklySummaryRepository;
  report: Pick<ResponseReportDomain, "report">;
  settings: Pick<ResponseSettingsDomain, "active">;
  now: () => Date;
  listed: number;
}) {
  return {
    async summary(adminId: string, week: string): Promise<InternalWeeklySummary> {
      const { from, to } = weekSpan(week);
      const [report, { settings }, open] = await Promise.all([
        deps.report.report({ from, to }),
        deps.settings.active(),
        deps.repo.openLeads(adminId, deps.now(), deps.listed),
      ]);
      return {
        week,
        from,
        to,
        promise: { quoteMinutes: settings.quoteMinutes, quoteBasis: settings.quoteBasis },
        totals: report.totals,
        own: report.owners.find((row) => row.owner?.id === adminId) ?? NO_RESPONSE_FIGURES,
        open,
      };
    },
  };
}
export type WeeklySummaryDomain = ReturnType<typeof weeklySummaryDomain>;
