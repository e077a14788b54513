// Dates in the admin panel are always shown in Amsterdam time with the Dutch locale (SPEC §9).

const DATE_TIME = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

const TIME = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

const HOUR = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  hour: "2-digit",
  minute: "2-digit",
});
const DAY = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  day: "numeric",
  month: "short",
});

function toDate(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * "05-03-2024 14:30" in Amsterdam time; "-" for a missing or unreadable value. Built from parts so
 * that every ICU version (Node, Chromium) writes the same text.
 */
export function formatAmsterdamDateTime(value: string | Date | null | undefined): string {
  const date = value == null ? null : toDate(value);
  if (!date) return "-";
  const part = Object.fromEntries(DATE_TIME.formatToParts(date).map((entry) => [entry.type, entry.value]));
  return `${part.day}-${part.month}-${part.year} ${part.hour}:${part.minute}`;
}

/** "14:30:05" in Amsterdam time. */
export function formatAmsterdamTime(value: string | Date): string {
  const date = toDate(value);
  return date ? TIME.format(date) : "-";
}

const MONTH = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  month: "short",
  year: "numeric",
});

/** Axis label of a chart bucket: "14:00" for an hour, "5 mrt" for a day, "mrt 2026" for a month. */
export function formatBucketLabel(value: string, bucket: "hour" | "day" | "month"): string {
  const date = toDate(value);
  if (!date) return "";
  return (bucket === "hour" ? HOUR : bucket === "day" ? DAY : MONTH).format(date);
}

export const PREVIEW_LENGTH = 100;

/** The first 100 characters of an e-mail body on one line, with "..." when it was cut. */
export function previewText(body: string, length = PREVIEW_LENGTH): string {
  const oneLine = body.replace(/\s+/g, " ").trim();
  return oneLine.length > length ? `${oneLine.slice(0, length)}...` : oneLine;
}

/** "36 maanden", or "-" when no term was chosen. */
export function formatLeaseTerm(months: number | null): string {
  return months == null ? "-" : `${months} maanden`;
}
