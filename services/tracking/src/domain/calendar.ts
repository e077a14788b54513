// Day and week keys in Amsterdam time: "today" and "this week" roll over at local midnight and on
// Monday, whatever the server's time zone. Formatting is cached per minute (the hot path calls it).

const parts = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

export interface CalendarKeys {
  /** Amsterdam date, e.g. "2026-11-22". */
  day: string;
  /** ISO week of the Amsterdam date, e.g. "2026-W47". */
  week: string;
}

let cachedMinute = -1;
let cached: CalendarKeys = { day: "", week: "" };

export function calendarKeys(ms: number): CalendarKeys {
  // Amsterdam offsets are whole hours, so a minute never straddles local midnight.
  const minute = Math.floor(ms / 60_000);
  if (minute !== cachedMinute) {
    const day = amsterdamDate(ms);
    cached = { day, week: isoWeek(day) };
    cachedMinute = minute;
  }
  return cached;
}

export function amsterdamDate(ms: number): string {
  return parts.format(new Date(ms));
}

/** ISO 8601 week ("YYYY-Www") of a calendar date given as "YYYY-MM-DD". */
export function isoWeek(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const utc = new Date(Date.UTC(y, m - 1, d));
  const weekday = utc.getUTCDay() || 7; // Monday 1 ... Sunday 7
  utc.setUTCDate(utc.getUTCDate() + 4 - weekday); // the Thursday of this week decides the year
  const year = utc.getUTCFullYear();
  const week = Math.ceil(((utc.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return `${year}-W${String(week).padStart(2, "0")}`;
}
