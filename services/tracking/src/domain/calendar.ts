// Calendar arithmetic in Amsterdam time: analytics days and months start at local midnight,
// whatever the server's time zone. Amsterdam offsets are whole hours, so every UTC hour lies in
// exactly one Amsterdam day and hour buckets are plain UTC hours.

const parts = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** Amsterdam date, e.g. "2026-11-22". */
export function amsterdamDate(ms: number): string {
  return parts.format(new Date(ms));
}

function utcDate(day: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
}

export function addDays(day: string, n: number): string {
  const date = utcDate(day);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

/** Whole days from a to b (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((utcDate(b).getTime() - utcDate(a).getTime()) / DAY_MS);
}

/** First day of the date's month, "YYYY-MM-01". */
export function monthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

/** The first day of the month n months after (or before) the month of `day`. */
export function addMonths(day: string, n: number): string {
  const date = utcDate(monthOf(day));
  date.setUTCMonth(date.getUTCMonth() + n);
  return date.toISOString().slice(0, 10);
}

/** The instant (ms) of local midnight at the start of an Amsterdam date. */
export function dayStart(day: string): number {
  const midnightUtc = utcDate(day).getTime();
  // Local midnight is 23:00 (winter, UTC+1) or 22:00 (summer, UTC+2) UTC of the day before.
  for (const offsetHours of [1, 2]) {
    const candidate = midnightUtc - offsetHours * HOUR_MS;
    if (amsterdamDate(candidate) === day && amsterdamDate(candidate - 1) !== day) return candidate;
  }
  throw new Error(`no Amsterdam midnight found for ${day}`);
}

const dayOfHour = new Map<number, { day: string; start: number }>();
/** Hours remembered by dayOf: two years of them. */
const DAY_CACHE_MAX = 20_000;

/**
 * The Amsterdam day an instant falls in, with the instant that day starts. Remembered per hour:
 * formatting a date in a time zone costs microseconds, and imported history jumps between hours.
 */
export function dayOf(ms: number): { day: string; start: number } {
  const hour = Math.floor(ms / HOUR_MS);
  let found = dayOfHour.get(hour);
  if (!found) {
    const day = amsterdamDate(ms);
    found = { day, start: dayStart(day) };
    if (dayOfHour.size >= DAY_CACHE_MAX) dayOfHour.clear();
    dayOfHour.set(hour, found);
  }
  return found;
}

/** ISO 8601 week ("YYYY-Www") of a calendar date given as "YYYY-MM-DD". */
export function isoWeek(date: string): string {
  const utc = utcDate(date);
  const weekday = utc.getUTCDay() || 7; // Monday 1 ... Sunday 7
  utc.setUTCDate(utc.getUTCDate() + 4 - weekday); // the Thursday of this week decides the year
  const year = utc.getUTCFullYear();
  const week = Math.ceil(((utc.getTime() - Date.UTC(year, 0, 1)) / DAY_MS + 1) / 7);
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** The Monday of the ISO week a date falls in. */
export function weekStart(day: string): string {
  const weekday = utcDate(day).getUTCDay() || 7;
  return addDays(day, 1 - weekday);
}
