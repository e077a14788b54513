import { DateTime } from "luxon";
import {
  ANALYTICS_CHANNELS,
  RESPONSE_KIND_LABELS,
  NO_RESPONSE_FIGURES,
  RESPONSE_REPORT_CAMPAIGNS_MAX,
  channelLabel,
  csvCell,
  type AnalyticsChannel,
  type JobSource,
  type ResponseFigures,
  type ResponseReport,
  type ResponseReportQuery,
} from "@lease/contracts";
import { HttpError } from "@lease/platform";
import type { ResponseReportRepository } from "../repositories/response-report";
import { GROUPING, type ResponseRow } from "./response-aggregate";
import { excelDay } from "./csv";
import { ZONE } from "./working-hours";

// How the promises are kept, over time: the report of a period from the repository's rows (quote
// requests and contact messages, each measured against its own promise).
// `report` is the reusable entry point (the panel's report, its CSV, the weekly summary e-mail).

const figures = (row: ResponseRow | undefined): ResponseFigures => {
  if (!row) return { ...NO_RESPONSE_FIGURES };
  const decided = row.withinPromise + row.late;
  return {
    leads: row.leads,
    answered: row.answered,
    unanswered: row.leads - row.answered,
    withinPromise: row.withinPromise,
    late: row.late,
    withinPromiseShare: decided === 0 ? null : row.withinPromise / decided,
    medianMinutes: row.working?.[0] ?? null,
    p90Minutes: row.working?.[1] ?? null,
    medianClockMinutes: row.clock?.[0] ?? null,
    p90ClockMinutes: row.clock?.[1] ?? null,
  };
};

/** Quote requests and contact messages, each against its own promise; both always listed. */
const KINDS: readonly JobSource[] = ["lease_request", "contact_form"];

const byLeads = (a: { leads: number }, b: { leads: number }) => b.leads - a.leads;

/** Today in Amsterdam ("YYYY-MM-DD"). */
export const amsterdamToday = (now: Date): string => DateTime.fromJSDate(now, { zone: ZONE }).toISODate()!;

const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The Mondays of the Amsterdam weeks that overlap the period, oldest first (calendar days). */
export function weeksOf(from: string, to: string): string[] {
  const weeks: string[] = [];
  const first = dayMs(from) - ((new Date(dayMs(from)).getUTCDay() + 6) % 7) * DAY_MS;
  for (let week = first; week <= dayMs(to); week += 7 * DAY_MS) weeks.push(isoDay(week));
  return weeks;
}

/** The ISO week number of a Monday: the week of its Thursday, counted from its year's first. */
export function isoWeekOf(monday: string): number {
  const thursday = dayMs(monday) + 3 * DAY_MS;
  const january = Date.UTC(new Date(thursday).getUTCFullYear(), 0, 1);
  return Math.floor((thursday - january) / (7 * DAY_MS)) + 1;
}

export function responseReportDomain(repo: ResponseReportRepository, opts: { now?: () => Date } = {}) {
  const now = opts.now ?? (() => new Date());

  async function report(period: ResponseReportQuery): Promise<ResponseReport> {
    const at = now();
    if (period.to > amsterdamToday(at))
      throw new HttpError(
        400,
        "validation_failed",
        "De einddatum ligt in de toekomst; kies uiterlijk vandaag",
      );
    const rows = await repo.rows(period, at);
    const of = (grouping: number) => rows.filter((r) => r.grouping === grouping);
    const weekRows = new Map(of(GROUPING.week).map((r) => [r.week, r]));
    const kindRows = new Map(of(GROUPING.kind).map((r) => [r.kind, r]));
    const campaigns = of(GROUPING.campaign)
      .filter((r) => r.campaign !== null)
      .map((r) => ({ campaign: r.campaign!, ...figures(r) }))
      .sort((a, b) => byLeads(a, b) || a.campaign.localeCompare(b.campaign));
    const beyond = campaigns.slice(RESPONSE_REPORT_CAMPAIGNS_MAX);
    return {
      from: period.from,
      to: period.to,
      weeks: weeksOf(period.from, period.to).map((week) => ({
        week,
        isoWeek: isoWeekOf(week),
        ...figures(weekRows.get(week)),
      })),
      owners: of(GROUPING.owner)
        .map((r) => ({
          owner: r.ownerId ? { id: r.ownerId, username: r.ownerName ?? "(onbekend)" } : null,
          ...figures(r),
        }))
        // Most leads first; nobody's leads last.
        .sort((a, b) => Number(a.owner === null) - Number(b.owner === null) || byLeads(a, b)),
      channels: of(GROUPING.channel)
        .map((r) => ({
          channel: ANALYTICS_CHANNELS.includes(r.channel as AnalyticsChannel)
            ? (r.channel as AnalyticsChannel)
            : null,
          ...figures(r),
        }))
        .sort((a, b) => Number(a.channel === null) - Number(b.channel === null) || byLeads(a, b)),
      campaigns: campaigns.slice(0, RESPONSE_REPORT_CAMPAIGNS_MAX),
      otherCampaigns:
        beyond.length === 0
          ? null
          : { campaigns: beyond.length, leads: beyond.reduce((sum, c) => sum + c.leads, 0) },
      kinds: KINDS.map((kind) => ({ kind, ...figures(kindRows.get(kind)) })),
      totals: figures(of(GROUPING.total)[0]),
    };
  }

  return {
    report,
    /** The report as CSV: UTF-8 with BOM, semicolons, CRLF (as the lead export), every cell through csvCell. */
    async csv(period: ResponseReportQuery): Promise<string> {
      return responseReportCsv(await report(period));
    },
  };
}
export type ResponseReportDomain = ReturnType<typeof responseReportDomain>;

const CSV_COLUMNS: [string, (f: ResponseFigures) => string | number | null][] = [
  ["Aanvragen", (f) => f.leads],
  ["Beantwoord", (f) => f.answered],
  ["Nooit beantwoord", (f) => f.unanswered],
  ["Binnen belofte", (f) => f.withinPromise],
  ["Te laat", (f) => f.late],
  // "87,5": a decimal comma, as Dutch Excel reads a number.
  [
    "Binnen belofte (%)",
    (f) => (f.withinPromiseShare === null ? null : (f.withinPromiseShare * 100).toFixed(1).replace(".", ",")),
  ],
  ["Mediaan (werkminuten)", (f) => f.medianMinutes],
  ["P90 (werkminuten)", (f) => f.p90Minutes],
  ["Mediaan (klokminuten)", (f) => f.medianClockMinutes],
  ["P90 (klokminuten)", (f) => f.p90ClockMinutes],
];

export function responseReportCsv(report: ResponseReport): string {
  const line = (kind: string, name: string, f: ResponseFigures) =>
    [csvCell(kind), csvCell(name), ...CSV_COLUMNS.map(([, cell]) => csvCell(cell(f)))].join(";");
  const lines = [["Indeling", "Naam", ...CSV_COLUMNS.map(([name]) => name)].map(csvCell).join(";")];
  for (const w of report.weeks) lines.push(line("Week", `Week ${w.isoWeek} (${excelDay(w.week)})`, w));
  for (const o of report.owners) lines.push(line("Eigenaar", o.owner?.username ?? "Niet toegewezen", o));
  for (const c of report.channels)
    lines.push(line("Kanaal", c.channel ? channelLabel(c.channel) : "Onbekende herkomst", c));
  for (const c of report.campaigns) lines.push(line("Campagne", c.campaign, c));
  for (const k of report.kinds) lines.push(line("Soort", RESPONSE_KIND_LABELS[k.kind], k));
  lines.push(line("Totaal", `${excelDay(report.from)} t/m ${excelDay(report.to)}`, report.totals));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
