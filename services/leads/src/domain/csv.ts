import type { LeaseRequest } from "@lease/contracts";

/** Cells that Excel would read as a formula get a leading apostrophe. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const AMSTERDAM = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** "01-07-2025 12:00:00": Amsterdam time (summer and winter), as Dutch Excel reads a date. */
export function amsterdamDateTime(iso: string): string {
  return AMSTERDAM.format(new Date(iso)).replace(",", "");
}

const COLUMNS: [string, (r: LeaseRequest) => string | number | boolean | null][] = [
  ["Datum", (r) => amsterdamDateTime(r.createdAt)],
  ["Status", (r) => r.status],
  ["Gelezen", (r) => (r.isRead ? "ja" : "nee")],
  ["Bedrijfsnaam", (r) => r.companyName],
  ["E-mail", (r) => r.email],
  ["Telefoon", (r) => r.contactNumber],
  ["Looptijd (maanden)", (r) => r.leaseTerm],
  ["Auto URL", (r) => r.carUrl],
  ["Bericht", (r) => r.message],
  ["Id", (r) => r.id],
  ["Dubbel van", (r) => r.duplicateOf],
  // Where the visit came from (empty when not known): the attribution's fields, in English
  // channel names as the API answers them.
  ["Kanaal", (r) => r.attribution?.channel ?? null],
  ["Bron", (r) => r.attribution?.source ?? null],
  ["Medium", (r) => r.attribution?.medium ?? null],
  ["Campagne", (r) => r.attribution?.campaign ?? null],
  ["Zoekterm", (r) => r.attribution?.term ?? null],
  ["Advertentie-inhoud", (r) => r.attribution?.content ?? null],
  ["Betaalde klik", (r) => (r.attribution ? (r.attribution.paidClick ? "ja" : "nee") : null)],
  ["Verwijzer", (r) => r.attribution?.referrerHost ?? null],
  ["Landingspagina", (r) => r.attribution?.landingPage ?? null],
  ["Eerste bezoek", (r) => (r.attribution ? amsterdamDateTime(r.attribution.firstSeenAt) : null)],
  ["Pagina's voor aanvraag", (r) => r.attribution?.pagesBeforeConversion ?? null],
  ["Bezochte pagina's", (r) => r.attribution?.pages.join(" > ") ?? null],
];

/** UTF-8 with BOM, semicolon separated, CRLF line ends: what Dutch Excel opens without a wizard. */
export function leaseRequestsCsv(rows: LeaseRequest[]): string {
  const lines = [COLUMNS.map(([name]) => csvCell(name)).join(";")];
  for (const row of rows) lines.push(COLUMNS.map(([, get]) => csvCell(get(row))).join(";"));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
