import type { AnalyticsBucket } from "@lease/contracts";
import { HttpError } from "@lease/platform";
import {
  HOUR_MS,
  addDays,
  addMonths,
  amsterdamDate,
  dayStart,
  daysBetween,
  monthOf,
  weekStart,
} from "./calendar";

/** A period of whole Amsterdam days, both inclusive. */
export interface Period {
  from: string;
  to: string;
}

/** hour for periods of up to 2 days, day up to 92 days, month beyond. */
export function bucketOf(period: Period): AnalyticsBucket {
  const days = daysBetween(period.from, period.to) + 1;
  return days <= 2 ? "hour" : days <= 92 ? "day" : "month";
}

/** The first day analytics still hold: `months` calendar months before today. */
export function retentionStart(today: string, months: number): string {
  const month = addMonths(today, -months);
  // The same day of the month, or that month's last day when it is shorter (31 Aug 2026 -> 30 Jun 2024).
  const day = Math.min(Number(today.slice(8, 10)), daysBetween(month, addMonths(month, 1)));
  return `${month.slice(0, 8)}${String(day).padStart(2, "0")}`;
}

/** "28-09-2024": a calendar day (YYYY-MM-DD) as a Dutch sentence writes it. */
export function dutchDay(day: string): string {
  return day.split("-").reverse().join("-");
}

/** Refuses a period analytics cannot answer, with a message for the person who asked. */
export function checkPeriod(period: Period, today: string, retentionMonths: number): void {
  if (period.from > period.to)
    throw new HttpError(400, "validation_failed", "De begindatum ligt na de einddatum");
  if (period.to > today)
    throw new HttpError(400, "validation_failed", "De einddatum ligt in de toekomst; kies uiterlijk vandaag");
  const oldest = retentionStart(today, retentionMonths);
  if (period.from < oldest)
    throw new HttpError(
      400,
      "validation_failed",
      `Bezoekgegevens worden ${retentionMonths} maanden bewaard; kies een begindatum vanaf ${dutchDay(oldest)}`,
    );
}

/**
 * A period as whole months plus loose days, the fewest rollup rows and sketches that cover it
 * exactly: 1 January to 14 March is the months January and February and the days 1-14 March.
 */
export interface Cover {
  months: string[];
  days: string[];
}

export function coverOf(period: Period): Cover {
  const months: string[] = [];
  const days: string[] = [];
  let day = period.from;
  while (day <= period.to) {
    const month = monthOf(day);
    const next = addMonths(month, 1);
    if (day === month && addDays(next, -1) <= period.to) {
      months.push(month);
      day = next;
    } else {
      days.push(day);
      day = addDays(day, 1);
    }
  }
  return { months, days };
}

/**
 * The part of a day's ISO week that lies in the day's month (a week across two months is two
 * pieces), named by its first day: the period of a week sketch (kind 'w'). Pieces never cross a
 * month, so a cover's loose days, which lie in the months at its edges, group into whole pieces.
 */
export function weekPieceOf(day: string): { start: string; end: string } {
  let piece = pieces.get(day);
  if (!piece) {
    if (pieces.size >= PIECES_MAX) pieces.clear();
    pieces.set(day, (piece = pieceOf(day)));
  }
  return piece;
}

/** Pieces remembered by weekPieceOf (date arithmetic costs microseconds; a read asks thousands of times). */
const pieces = new Map<string, { start: string; end: string }>();
const PIECES_MAX = 5000;

function pieceOf(day: string): { start: string; end: string } {
  const monday = weekStart(day);
  const month = monthOf(day);
  const lastOfMonth = addDays(addMonths(month, 1), -1);
  const sunday = addDays(monday, 6);
  return { start: monday < month ? month : monday, end: sunday > lastOfMonth ? lastOfMonth : sunday };
}

/**
 * The sketches that cover a cover exactly: its months, the week pieces its loose days fill whole
 * (of two days or more), and the days left over. 30 days read some 12 sketches instead of 30.
 */
export interface SketchCover {
  months: string[];
  weeks: string[];
  days: string[];
}

export function sketchCoverOf(cover: Cover): SketchCover {
  const loose = new Set(cover.days);
  const weeks = new Set<string>();
  for (const day of loose) {
    const piece = weekPieceOf(day);
    if (piece.start !== day || piece.end === day || weeks.has(day)) continue;
    let whole = true;
    for (let d = addDays(day, 1); d <= piece.end && whole; d = addDays(d, 1)) whole = loose.has(d);
    if (whole) weeks.add(day);
  }
  return {
    months: cover.months,
    weeks: [...weeks],
    days: cover.days.filter((day) => !weeks.has(weekPieceOf(day).start)),
  };
}

/** One bucket of a series: where it starts and which days (or hours) it covers. */
export interface Slot {
  start: number;
  /** hour: the hour's instant; day: the date; month: the cover of the bucket within the period. */
  hour?: number;
  day?: string;
  cover?: Cover;
}

/** The buckets of a period, oldest first, up to `now` (a bucket that has not begun is left out). */
export function slotsOf(period: Period, bucket: AnalyticsBucket, now: number): Slot[] {
  const slots: Slot[] = [];
  const end = dayStart(addDays(period.to, 1));
  if (bucket === "hour") {
    for (let t = dayStart(period.from); t < end && t <= now; t += HOUR_MS) slots.push({ start: t, hour: t });
  } else if (bucket === "day") {
    for (let d = period.from; d <= period.to; d = addDays(d, 1)) {
      const start = dayStart(d);
      if (start > now) break;
      slots.push({ start, day: d });
    }
  } else {
    for (let d = period.from; d <= period.to;) {
      const start = dayStart(d);
      if (start > now) break;
      const last = [addDays(addMonths(d, 1), -1), period.to].sort()[0]!;
      slots.push({ start, cover: coverOf({ from: d, to: last }) });
      d = addDays(last, 1);
    }
  }
  return slots;
}

export const today = (now: number) => amsterdamDate(now);

/** The number of days of a period. */
export function daysOf(period: Period): number {
  return daysBetween(period.from, period.to) + 1;
}

/** The period of the same length that ends the day before this one starts. */
export function previousPeriod(period: Period): Period {
  const length = daysOf(period);
  return { from: addDays(period.from, -length), to: addDays(period.from, -1) };
}
