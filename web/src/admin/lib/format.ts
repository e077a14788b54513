import { euroText, toCents } from "@lease/contracts";
// Dates in the admin panel are always shown in Amsterdam time with the Dutch locale.

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

/** "€ 1.200,00" (Dutch notation; "-" for none). */
export function formatEuro(euros: number | null | undefined): string {
  return euros == null ? "-" : euroText(toCents(euros));
}

/**
 * An amount as staff type it, in euros: "1.200,50", "1200,5", "€ 349,50", "349.50" or "1.200". A
 * comma is the decimal sign and dots group thousands; without a comma a dot is the decimal sign
 * unless it groups three digits. Null when it is no amount with at most two decimals.
 */
export function parseEuroInput(text: string): number | null {
  let value = text.replace(/[€\s\u00a0]/g, "");
  if (value.includes(",")) {
    if (!/^(\d+|\d{1,3}(\.\d{3})+),\d{1,2}$/.test(value)) return null;
    value = value.replace(/\./g, "").replace(",", ".");
  } else if (/^\d{1,3}(\.\d{3})+$/.test(value)) value = value.replace(/\./g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return null;
  return Number(value);
}

/** "12 kB", "3,4 MB": an attachment's size as the panel lists it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`;
  return `${(bytes / 1024 / 1024).toLocaleString("nl-NL", { maximumFractionDigits: 1 })} MB`;
}
