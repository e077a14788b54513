import Holidays from "date-holidays";
import { DateTime } from "luxon";
import { minutesOfDay, type ResponseBasis, type WorkingHours } from "@lease/contracts";

// Working-time arithmetic for the promised response times: pure functions of instants, the
// working hours and the closed days, in Amsterdam local time (summer and winter time alike). A
// working day is one of the chosen ISO weekdays that is neither a Dutch public holiday nor an extra
// closed day; its working time runs from `from` to `to` local time ("24:00": midnight after).

export const ZONE = "Europe/Amsterdam";

export interface WorkingCalendar {
  hours: WorkingHours;
  /** Extra closed days, "YYYY-MM-DD" (Amsterdam). */
  closedDays: readonly string[];
}

/** A span of working time, as instants (ms since the epoch). */
interface Span {
  start: number;
  end: number;
}

const netherlands = new Holidays("NL");
const holidaysByYear = new Map<number, Set<string>>();

/** The Dutch public holidays of a year ("YYYY-MM-DD"): Nieuwjaar, Pasen, Koningsdag, Kerst, … */
export function dutchPublicHolidays(year: number): Set<string> {
  let days = holidaysByYear.get(year);
  if (!days) {
    days = new Set(
      netherlands
        .getHolidays(year)
        .filter((holiday) => holiday.type === "public")
        .map((holiday) => holiday.date.slice(0, 10)),
    );
    holidaysByYear.set(year, days);
  }
  return days;
}

/** A calendar with its closed days as a set (built once per settings, used for many leads). */
export function workingCalendar(hours: WorkingHours, closedDays: readonly string[]) {
  const closed = new Set(closedDays);
  const days = new Set(hours.days);
  const from = minutesOfDay(hours.from);
  const to = minutesOfDay(hours.to);

  function isWorkingDay(day: DateTime): boolean {
    const iso = day.toISODate()!;
    return days.has(day.weekday) && !closed.has(iso) && !dutchPublicHolidays(day.year).has(iso);
  }

  const atLocal = (day: DateTime, minute: number) =>
    day.set({ hour: Math.floor(minute / 60), minute: minute % 60 }).toMillis();

  /** The working span of an Amsterdam day (its local midnight), or undefined when it has none. */
  function spanOf(day: DateTime): Span | undefined {
    if (!isWorkingDay(day)) return undefined;
    // Local times set on that day (not added as durations, which a clock change would shift):
    // 09:00 is 09:00 in summer and winter; 24:00 is the next midnight.
    const start = atLocal(day, from);
    const end = to === 24 * 60 ? day.plus({ days: 1 }).toMillis() : atLocal(day, to);
    return { start, end };
  }

  /** The Amsterdam day (local midnight) an instant falls on. */
  const dayOf = (at: number) => DateTime.fromMillis(at, { zone: ZONE }).startOf("day");

  return {
    isWorkingDay: (day: string) => isWorkingDay(DateTime.fromISO(day, { zone: ZONE })),

    /** The instant `minutes` of working time after `at` (at itself when minutes is 0 and it is working time). */
    addWorkingMinutes(at: Date, minutes: number): Date {
      let left = minutes * 60_000;
      const start = at.getTime();
      let day = dayOf(start);
      // A week has at least one working day; past ten years without one (every day closed) the
      // answer is "never", which a promise cannot be.
      for (let i = 0; i < 3660; i++, day = day.plus({ days: 1 })) {
        const span = spanOf(day);
        if (!span || span.end <= start) continue;
        const from = Math.max(span.start, start);
        if (from + left <= span.end) return new Date(from + left);
        left -= span.end - from;
      }
      throw new Error("no working time within ten years");
    },

    /** Working minutes (fractional) between two instants; 0 when `to` is not after `from`. */
    workingMinutesBetween(fromAt: Date, toAt: Date): number {
      const a = fromAt.getTime();
      const b = toAt.getTime();
      if (b <= a) return 0;
      let total = 0;
      for (let day = dayOf(a); day.toMillis() < b; day = day.plus({ days: 1 })) {
        const span = spanOf(day);
        if (!span) continue;
        total += Math.max(0, Math.min(span.end, b) - Math.max(span.start, a));
      }
      return total / 60_000;
    },
  };
}
export type Calendar = ReturnType<typeof workingCalendar>;

/** When a first response is due: `minutes` after arrival in clock time, or in working time. */
export function responseDueAt(
  calendar: Calendar,
  arrival: Date,
  minutes: number,
  basis: ResponseBasis,
): Date {
  return basis === "clock"
    ? new Date(arrival.getTime() + minutes * 60_000)
    : calendar.addWorkingMinutes(arrival, minutes);
}
