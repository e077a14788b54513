// The Analytics tab's period: a preset or an own range of Amsterdam calendar days, kept in the
// URL (?periode=30d, or ?van=2026-10-01&tot=2026-10-31) so a reload or a shared link shows the same.
import { CalendarDate } from "@lease/contracts";

import { dutchDay } from "@lease/contracts";

export const PERIOD_PRESETS = [
  { value: "vandaag", label: "Vandaag" },
  { value: "gisteren", label: "Gisteren" },
  { value: "7d", label: "7 dagen" },
  { value: "30d", label: "30 dagen" },
  { value: "12m", label: "12 maanden" },
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number]["value"];
export const DEFAULT_PRESET: PeriodPreset = "7d";

export interface ChosenPeriod {
  /** A preset, or "eigen" for a range the admin picked. */
  preset: PeriodPreset | "eigen";
  from: string;
  to: string;
}

const dayParts = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** Today's date in Amsterdam, "YYYY-MM-DD". */
export function amsterdamToday(now = Date.now()): string {
  return dayParts.format(new Date(now));
}

/** A real calendar day (the API's own check: "?van=2026-13-01" in a link is no period). */
export function isDate(value: string | null): value is string {
  return CalendarDate.safeParse(value).success;
}

/** Why an own range of days cannot be shown (in Dutch, as the API says it), or null when it can. */
export function rangeProblem({ from, to }: { from: string; to: string }, today: string): string | null {
  if (!isDate(from) || !isDate(to)) return "Kies een begin- en einddatum";
  if (from > to) return "De begindatum ligt na de einddatum";
  if (to > today) return "De einddatum ligt in de toekomst; kies uiterlijk vandaag";
  return null;
}

export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

/** The days a preset covers, ending today (or yesterday). */
export function presetPeriod(preset: PeriodPreset, today: string): { from: string; to: string } {
  switch (preset) {
    case "vandaag":
      return { from: today, to: today };
    case "gisteren": {
      const yesterday = addDays(today, -1);
      return { from: yesterday, to: yesterday };
    }
    case "7d":
      return { from: addDays(today, -6), to: today };
    case "30d":
      return { from: addDays(today, -29), to: today };
    case "12m": {
      const start = new Date(`${today}T00:00:00Z`);
      start.setUTCFullYear(start.getUTCFullYear() - 1);
      start.setUTCDate(start.getUTCDate() + 1);
      return { from: start.toISOString().slice(0, 10), to: today };
    }
  }
}

/** The period the URL asks for; the default preset when it asks for nothing readable. */
export function periodFromParams(params: URLSearchParams, today: string): ChosenPeriod {
  const from = params.get("van");
  const to = params.get("tot");
  if (isDate(from) && isDate(to)) return { preset: "eigen", from, to };
  const wanted = params.get("periode");
  const preset = PERIOD_PRESETS.find((p) => p.value === wanted)?.value ?? DEFAULT_PRESET;
  return { preset, ...presetPeriod(preset, today) };
}

/** The URL's parameters for a period, keeping every other parameter (the tab, for one). */
export function withPeriod(params: URLSearchParams, period: ChosenPeriod): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete("periode");
  next.delete("van");
  next.delete("tot");
  if (period.preset === "eigen") {
    next.set("van", period.from);
    next.set("tot", period.to);
  } else if (period.preset !== DEFAULT_PRESET) next.set("periode", period.preset);
  return next;
}

/** "1 oktober 2026 - 31 oktober 2026", or one date for a single day. */
export function describePeriod(from: string, to: string): string {
  return from === to ? dutchDay(from) : `${dutchDay(from)} - ${dutchDay(to)}`;
}

const DAY_MONTH = new Intl.DateTimeFormat("nl-NL", { timeZone: "UTC", day: "numeric", month: "long" });

/**
 * A period as a Dutch sentence names it: "3 oktober t/m 1 november 2026", "28 december 2025 t/m
 * 3 januari 2026", or "1 november 2026" for one day.
 */
export function periodInWords(from: string, to: string): string {
  if (from === to) return dutchDay(from);
  const start =
    from.slice(0, 4) === to.slice(0, 4) ? DAY_MONTH.format(new Date(`${from}T00:00:00Z`)) : dutchDay(from);
  return `${start} t/m ${dutchDay(to)}`;
}
