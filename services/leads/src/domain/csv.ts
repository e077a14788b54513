import { LEASE_STATUS_NAMES, channelLabel, csvCell, csvPhoneCell, type LeaseRequest } from "@lease/contracts";

/** A lead as the export writes it: with the moment it reached its current status (the stage's date). */
export type ExportedLead = LeaseRequest & {
  /** When the last change to the current status was made; the arrival when it never changed. */
  statusSince: string;
};

const AMSTERDAM = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** A moment's date and time parts in Amsterdam (summer and winter), two digits each, 24 hours. */
export function amsterdamParts(
  at: Date,
): Record<"year" | "month" | "day" | "hour" | "minute" | "second", string> {
  const part = Object.fromEntries(AMSTERDAM.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: part.year!,
    month: part.month!,
    day: part.day!,
    hour: part.hour!,
    minute: part.minute!,
    second: part.second!,
  };
}

/** "01-07-2025 12:00:00": Amsterdam time (summer and winter), as Dutch Excel reads a date. */
export function amsterdamDateTime(iso: string): string {
  const p = amsterdamParts(new Date(iso));
  return `${p.day}-${p.month}-${p.year} ${p.hour}:${p.minute}:${p.second}`;
}

/** "28-11-2026": a calendar day (YYYY-MM-DD) as Dutch Excel reads a date. */
export const excelDay = (day: string | null): string | null =>
  day === null ? null : `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`;

/** "1200,50": euros with a decimal comma, as Dutch Excel reads a number. */
export function excelEuros(euros: number | null | undefined): string | null {
  return euros == null ? null : euros.toFixed(2).replace(".", ",");
}

/** Each column's name and its cell (every cell through libs/contracts' csvCell or csvPhoneCell). */
const COLUMNS: [string, (r: ExportedLead) => string][] = [
  ["Datum", (r) => csvCell(amsterdamDateTime(r.createdAt))],
  ["Status", (r) => csvCell(r.status)],
  // The status by the name the panel's Fase shows, since when, and the "Opvolgen op" day.
  ["Fase", (r) => csvCell(LEASE_STATUS_NAMES[r.status])],
  ["Fase sinds", (r) => csvCell(amsterdamDateTime(r.statusSince))],
  ["Opvolgen op", (r) => csvCell(excelDay(r.followUpOn))],
  // Who answers it, by when, and when it was first answered (services/leads/README.md).
  ["Eigenaar", (r) => csvCell(r.owner?.username ?? "")],
  ["Reageren vóór", (r) => csvCell(r.responseDueAt ? amsterdamDateTime(r.responseDueAt) : "")],
  ["Eerste reactie", (r) => csvCell(r.firstResponseAt ? amsterdamDateTime(r.firstResponseAt) : "")],
  ["Gelezen", (r) => csvCell(r.isRead ? "ja" : "nee")],
  ["Bedrijfsnaam", (r) => csvCell(r.companyName)],
  ["E-mail", (r) => csvCell(r.email)],
  ["Telefoon", (r) => csvPhoneCell(r.contactNumber)],
  ["Looptijd (maanden)", (r) => csvCell(r.leaseTerm)],
  ["Auto URL", (r) => csvCell(r.carUrl)],
  ["Bericht", (r) => csvCell(r.message)],
  ["Id", (r) => csvCell(r.id)],
  ["Dubbel van", (r) => csvCell(r.duplicateOf)],
  // Where the visit came from (empty when not known): the attribution's fields, the channel by
  // its Dutch name as the panel shows it (the API keeps GA4's names).
  ["Kanaal", (r) => csvCell(r.attribution ? channelLabel(r.attribution.channel) : null)],
  ["Bron", (r) => csvCell(r.attribution?.source ?? null)],
  ["Medium", (r) => csvCell(r.attribution?.medium ?? null)],
  ["Campagne", (r) => csvCell(r.attribution?.campaign ?? null)],
  ["Zoekterm", (r) => csvCell(r.attribution?.term ?? null)],
  ["Advertentie-inhoud", (r) => csvCell(r.attribution?.content ?? null)],
  ["Betaalde klik", (r) => csvCell(r.attribution ? (r.attribution.paidClick ? "ja" : "nee") : null)],
  ["Verwijzer", (r) => csvCell(r.attribution?.referrerHost ?? null)],
  ["Landingspagina", (r) => csvCell(r.attribution?.landingPage ?? null)],
  ["Eerste bezoek", (r) => csvCell(r.attribution ? amsterdamDateTime(r.attribution.firstSeenAt) : null)],
  ["Pagina's voor aanvraag", (r) => csvCell(r.attribution?.pagesBeforeConversion ?? null)],
  ["Bezochte pagina's", (r) => csvCell(r.attribution?.pages.join(" > ") ?? null)],
  // The road to a contract (the stage itself is the Status column).
  ["Maandbedrag (EUR)", (r) => csvCell(excelEuros(r.monthlyAmount))],
  ["Commissie (EUR)", (r) => csvCell(excelEuros(r.commission))],
  ["Looptijd contract (maanden)", (r) => csvCell(r.contractTerm)],
  ["Reden verloren", (r) => csvCell(r.lostReason)],
  ["Toelichting verloren", (r) => csvCell(r.lostNote)],
];

/** UTF-8 with BOM, semicolon separated, CRLF line ends: what Dutch Excel opens without a wizard. */
export function leaseRequestsCsv(rows: ExportedLead[]): string {
  const lines = [COLUMNS.map(([name]) => csvCell(name)).join(";")];
  for (const row of rows) lines.push(COLUMNS.map(([, cell]) => cell(row)).join(";"));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
