// The response report's screen: its periods and how its figures read in Dutch.
import {
  RESPONSE_KIND_LABELS,
  channelLabel,
  dutchDuration,
  type ResponseFigures,
  type ResponseReport,
} from "@lease/contracts";
import { addDays } from "./periods";

export const RESPONSE_PERIODS = [
  { value: "4w", label: "Laatste 4 weken" },
  { value: "13w", label: "Laatste 13 weken" },
  { value: "12m", label: "Laatste 12 maanden" },
  { value: "2j", label: "Laatste 2 jaar" },
  { value: "eigen", label: "Eigen periode" },
] as const;
export type ResponsePeriod = (typeof RESPONSE_PERIODS)[number]["value"];

/** The days a preset covers, ending today (Amsterdam). */
export function responsePeriod(preset: Exclude<ResponsePeriod, "eigen">, today: string) {
  const days = { "4w": 28, "13w": 91, "12m": 365, "2j": 730 }[preset];
  return { from: addDays(today, -(days - 1)), to: today };
}

/** "2 u 15 min"; "–" when nothing was answered. */
export const duration = (minutes: number | null): string => (minutes === null ? "–" : dutchDuration(minutes));

const PERCENT = new Intl.NumberFormat("nl-NL", { style: "percent", maximumFractionDigits: 0 });
/** "67%"; "–" when no lead is decided yet. */
export const share = (value: number | null): string => (value === null ? "–" : PERCENT.format(value));

const SHORT_DAY = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "UTC",
  day: "numeric",
  month: "short",
  year: "numeric",
});
/** "Week 10 · 2 mrt 2026": the ISO week and its Monday. */
export const weekLabel = (week: string, isoWeek: number): string =>
  `Week ${isoWeek} · ${SHORT_DAY.format(new Date(`${week}T00:00:00Z`))}`;

export interface FiguresRow {
  key: string;
  label: string;
  figures: ResponseFigures;
}

/** The report's sections as the screen shows them: a label and the figures per row. */
export function reportSections(report: ResponseReport): { id: string; title: string; rows: FiguresRow[] }[] {
  return [
    {
      id: "week",
      title: "Per week",
      rows: report.weeks.map((w) => ({ key: w.week, label: weekLabel(w.week, w.isoWeek), figures: w })),
    },
    {
      id: "eigenaar",
      title: "Per eigenaar",
      rows: report.owners.map((o) => ({
        key: o.owner?.id ?? "niemand",
        label: o.owner?.username ?? "Niet toegewezen",
        figures: o,
      })),
    },
    {
      id: "kanaal",
      title: "Per kanaal",
      rows: report.channels.map((c) => ({
        key: c.channel ?? "onbekend",
        label: c.channel ? channelLabel(c.channel) : "Onbekende herkomst",
        figures: c,
      })),
    },
    {
      id: "campagne",
      title: "Per campagne",
      rows: report.campaigns.map((c) => ({ key: c.campaign, label: c.campaign, figures: c })),
    },
    {
      id: "soort",
      title: "Per soort",
      rows: report.kinds.map((k) => ({ key: k.kind, label: RESPONSE_KIND_LABELS[k.kind], figures: k })),
    },
  ];
}

/** The figures' columns: header, and the cell's text. */
export const FIGURE_COLUMNS: { key: string; label: string; cell: (f: ResponseFigures) => string }[] = [
  { key: "leads", label: "Aanvragen", cell: (f) => String(f.leads) },
  { key: "answered", label: "Beantwoord", cell: (f) => String(f.answered) },
  { key: "unanswered", label: "Nooit beantwoord", cell: (f) => String(f.unanswered) },
  { key: "share", label: "Binnen belofte", cell: (f) => share(f.withinPromiseShare) },
  { key: "late", label: "Te laat", cell: (f) => String(f.late) },
  { key: "median", label: "Mediaan (werktijd)", cell: (f) => duration(f.medianMinutes) },
  { key: "p90", label: "90% binnen (werktijd)", cell: (f) => duration(f.p90Minutes) },
  { key: "medianClock", label: "Mediaan (kloktijd)", cell: (f) => duration(f.medianClockMinutes) },
  { key: "p90Clock", label: "90% binnen (kloktijd)", cell: (f) => duration(f.p90ClockMinutes) },
];
