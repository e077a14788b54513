import { finished } from "node:stream/promises";
import { CsvError, parse as csvParser, type Options as CsvOptions } from "csv-parse";
import { parse as parseCsvText } from "csv-parse/sync";
import {
  AD_SPEND_CSV_MAX_LINES,
  EURO_AMOUNT_MAX,
  SPEND_CAMPAIGN_MAX,
  unsafeNameChar,
  type AdPlatform,
  type AdSpendImportError,
} from "@lease/contracts";

// Reading the spend exports of the ad platforms: which platform's export a file is (its header),
// its columns in English or Dutch, its number format (1.234,56 or 1,234.56) and date format. The
// columns read per platform are listed in services/tracking/README.md ("Ad spend").

/** One day of one campaign's spend, as read from a file (amounts in cents). */
export interface SpendRow {
  day: string;
  campaign: string;
  cents: number;
  /** The first line it was read from (several rows of one day and campaign are summed). */
  line: number;
}

export interface ParsedSpend {
  platform: AdPlatform;
  rows: SpendRow[];
  errors: AdSpendImportError[];
}

/** A file no platform's export: the whole import is refused with this Dutch message. */
export class UnknownSpendFormat extends Error {}

const norm = (header: string) =>
  header
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase()
    .replace(/\s+/g, " ");

interface Columns {
  campaign: string[];
  spend: RegExp[];
  day: string[];
  /** A period's first and last day (Meta): read as the day when both are the same. */
  start?: string[];
  end?: string[];
  currency: string[];
}

/**
 * Each platform's columns, English and Dutch. `detect` tells the platform from the header's
 * normalised names; the order matters (Meta's and Snapchat's spend columns look alike).
 */
const FORMATS: { platform: AdPlatform; detect: (h: string[]) => boolean; columns: Columns }[] = [
  {
    platform: "meta",
    // Ads Manager: "Reporting starts" / "Begin rapportage", "Amount spent (EUR)" / "Uitgegeven bedrag (EUR)".
    detect: (h) =>
      h.some((c) => ["reporting starts", "begin rapportage", "rapportage begint"].includes(c)) ||
      h.some((c) => /^(amount spent|uitgegeven bedrag|besteed bedrag) \([a-z]{3}\)$/.test(c)),
    columns: {
      campaign: ["campaign name", "campagnenaam", "naam campagne"],
      spend: [/^(amount spent|uitgegeven bedrag|besteed bedrag)( \([a-z]{3}\))?$/],
      day: ["day", "dag", "date", "datum"],
      start: ["reporting starts", "begin rapportage", "rapportage begint"],
      end: ["reporting ends", "einde rapportage", "rapportage eindigt"],
      currency: ["currency", "valuta"],
    },
  },
  {
    platform: "snapchat",
    // Ads Manager: "Campaign Name", "Start Time" (or "Day"), "Amount Spent" / "Spend".
    detect: (h) => h.some((c) => ["amount spent", "spend", "uitgaven", "besteed"].includes(c)),
    columns: {
      campaign: ["campaign name", "campagnenaam", "campaign"],
      spend: [/^(amount spent|spend|uitgaven|besteed)$/],
      day: ["start time", "day", "date", "begintijd", "dag", "datum"],
      currency: ["currency", "valuta"],
    },
  },
  {
    platform: "google",
    // Google Ads report download: "Campaign", "Day", "Currency code", "Cost" / "Campagne", "Dag", "Valutacode", "Kosten".
    detect: (h) =>
      h.some((c) => c === "campaign" || c === "campagne") && h.some((c) => c === "cost" || c === "kosten"),
    columns: {
      campaign: ["campaign", "campagne"],
      spend: [/^(cost|kosten)$/],
      day: ["day", "dag", "date", "datum"],
      currency: ["currency code", "valutacode", "currency", "valuta"],
    },
  },
  {
    platform: "tiktok",
    // Ads Manager custom report: "Campaign name", "By Day" / "Date", "Cost" / "Campagnenaam", "Datum", "Kosten".
    detect: (h) =>
      h.some((c) => c === "campaign name" || c === "campagnenaam") &&
      h.some((c) => ["cost", "kosten", "total cost", "totale kosten"].includes(c)),
    columns: {
      campaign: ["campaign name", "campagnenaam"],
      spend: [/^(cost|kosten|total cost|totale kosten)$/],
      day: ["by day", "date", "day", "per dag", "datum", "dag"],
      currency: ["currency", "valuta"],
    },
  },
];

/** Dutch headers mean Dutch numbers and dates unless the values say otherwise. */
const DUTCH_HEADERS = new Set([
  "campagnenaam",
  "campagne",
  "kosten",
  "dag",
  "datum",
  "uitgegeven bedrag",
  "begin rapportage",
  "begintijd",
  "uitgaven",
  "valutacode",
  "valuta",
  "per dag",
]);

type CsvRecord = { fields: string[]; line: number };

/**
 * Work in steps: a generator that yields between slices of a long file, so the service can answer
 * other requests (the live view, visits) while a 2 MB export is read. `runSteps` drives it at once.
 */
type Steps<T> = Generator<void, T, void>;
const SLICE = 1_000;
/** The bytes (UTF-16) csv-parse reads before the import route gives way: about 1,000 lines of an export. */
const CSV_CHUNK_BYTES = 128 * 1024;

function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * csv-parse's reading of an export: the delimiter its header uses, any line end (\n, \r\n or a
 * lone \r, mixed), rows of any length, RFC 4180 quotes (a quoted field may hold the delimiter,
 * doubled quotes and line ends), and each record's last line. The text goes in as UTF-16 so the
 * fields come out as the JavaScript string held them: a lone surrogate in a name stays one and is
 * named by the name check (UTF-8 would have made it U+FFFD).
 */
const csvOptions = (delimiter: string): CsvOptions => ({
  delimiter,
  encoding: "utf16le",
  record_delimiter: ["\r\n", "\n", "\r"],
  relax_column_count: true,
  info: true,
});

type ParsedRecord = { record: string[]; info: { lines: number } };

/** Records numbered by their first line: a record ends on `info.lines`, the next starts below it. */
class NumberedRecords {
  readonly records: CsvRecord[] = [];
  private lastLine = 0;

  add({ record, info }: ParsedRecord): void {
    this.records.push({ fields: record, line: this.lastLine + 1 });
    this.lastLine = info.lines;
  }

  /** Refuses more than AD_SPEND_CSV_MAX_LINES lines (blank ones too) and drops the blank records. */
  done(text: string): CsvRecord[] {
    const lineEnded = this.records.length - (/[\r\n]$/.test(text) ? 0 : 1);
    if (lineEnded > AD_SPEND_CSV_MAX_LINES)
      throw new UnknownSpendFormat(
        `Het bestand heeft meer dan ${AD_SPEND_CSV_MAX_LINES} regels; splits het op`,
      );
    return this.records.filter((r) => r.fields.some((f) => f.trim() !== ""));
  }
}

/** A file whose quotes are no CSV: refused as a whole, in Dutch, naming the line where it can. */
function unreadable(err: unknown): never {
  if (!(err instanceof CsvError)) throw err;
  if (err.code === "CSV_QUOTE_NOT_CLOSED")
    throw new UnknownSpendFormat(
      'Een aanhalingsteken (") in het bestand wordt niet gesloten; exporteer het bestand opnieuw',
    );
  const line = typeof err.lines === "number" ? `Regel ${err.lines}` : "Een regel";
  throw new UnknownSpendFormat(
    `${line} is geen geldige csv: een aanhalingsteken (") staat midden in een veld; exporteer het bestand opnieuw`,
  );
}

/** The records of CSV text, read at once. */
function csvRecords(text: string, delimiter: string): CsvRecord[] {
  const numbered = new NumberedRecords();
  try {
    // `info: true` makes each record { record, info }, which csv-parse's types do not model.
    const parsed: unknown = parseCsvText(Buffer.from(text, "utf16le"), csvOptions(delimiter));
    const records = parsed as ParsedRecord[];
    for (const record of records) numbered.add(record);
  } catch (err) {
    unreadable(err);
  }
  return numbered.done(text);
}

/** The same, fed to csv-parse in chunks with other work let in between (the import route's way). */
async function readCsvRecords(text: string, delimiter: string): Promise<CsvRecord[]> {
  const bytes = Buffer.from(text, "utf16le");
  const parser = csvParser(csvOptions(delimiter));
  const numbered = new NumberedRecords();
  parser.on("data", (record: ParsedRecord) => numbered.add(record));
  // Its failure is caught at once (as a value), not only after the feeding loop is done.
  const failure = finished(parser).then(
    () => null,
    (err: unknown) => ({ err }),
  );
  for (let at = 0; at < bytes.length && !parser.destroyed; at += CSV_CHUNK_BYTES) {
    parser.write(bytes.subarray(at, at + CSV_CHUNK_BYTES));
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!parser.destroyed) parser.end();
  const failed = await failure;
  if (failed) unreadable(failed.err);
  return numbered.done(text);
}

/** The fields of one line that may be the header; none when it is no CSV line at all (a title). */
function headerFields(line: string, delimiter: string): string[] {
  try {
    return csvRecords(line, delimiter)[0]?.fields ?? [];
  } catch {
    return [];
  }
}

/** The delimiter of the header line: tab, semicolon or comma, whichever occurs most. */
function delimiterOf(firstLines: string): string {
  const count = (d: string) => firstLines.split(d).length - 1;
  return ["\t", ";", ","].reduce((best, d) => (count(d) > count(best) ? d : best), ",");
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mrt: 3,
  mar: 3,
  apr: 4,
  mei: 5,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  okt: 10,
  oct: 10,
  nov: 11,
  dec: 12,
};

const pad = (n: number) => String(n).padStart(2, "0");

function validDay(y: number, m: number, d: number): string | null {
  if (y < 2000 || y > 2099 || m < 1 || m > 12 || d < 1) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/**
 * A day as the exports write it: 2025-11-01 (also with a time after it), 01-11-2025, 1/11/2025 or
 * 11/1/2025 (day first unless `monthFirst`), 1 nov. 2025, Nov 1, 2025, 1. Nov 2025.
 */
export function parseDay(text: string, monthFirst: boolean): string | null {
  const t = text.trim().toLowerCase();
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ t].*)?$/.exec(t);
  if (m) return validDay(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?: .*)?$/.exec(t);
  if (m) return monthFirst ? validDay(+m[3]!, +m[1]!, +m[2]!) : validDay(+m[3]!, +m[2]!, +m[1]!);
  m = /^(\d{1,2})\.? ([a-z]{3})[a-z]*\.?,? (\d{4})$/.exec(t);
  if (m && MONTHS[m[2]!]) return validDay(+m[3]!, MONTHS[m[2]!]!, +m[1]!);
  m = /^([a-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})$/.exec(t);
  if (m && MONTHS[m[1]!]) return validDay(+m[3]!, MONTHS[m[1]!]!, +m[2]!);
  return null;
}

/** Whether slash dates put the month first: told by a value whose first or second part is over 12. */
function monthFirstOf(values: string[], fallback: boolean): boolean {
  for (const v of values) {
    const m = /^(\d{1,2})[-/.](\d{1,2})[-/.]\d{4}/.exec(v.trim());
    if (!m) continue;
    if (+m[1]! > 12) return false;
    if (+m[2]! > 12) return true;
  }
  return fallback;
}

/**
 * The decimal sign of the file's amounts: a value with both signs ends in its decimal sign; a value
 * with one sign followed by one or two digits has it as decimal sign; else the language's.
 */
function decimalOf(values: string[], fallback: "," | "."): "," | "." {
  for (const raw of values) {
    const v = raw.replace(/[^\d.,]/g, "");
    const lastComma = v.lastIndexOf(",");
    const lastDot = v.lastIndexOf(".");
    if (lastComma >= 0 && lastDot >= 0) return lastComma > lastDot ? "," : ".";
    if (/,\d{1,2}$/.test(v) && lastDot < 0) return ",";
    if (/\.\d{1,2}$/.test(v) && lastComma < 0) return ".";
  }
  return fallback;
}

/** An amount in whole cents: "1.234,56", "1,234.56", "€ 12,5", "EUR 300"; null when none. */
export function parseCents(text: string, decimal: "," | "."): number | null {
  const t = text.replace(/[€\s\u00a0]|eur/gi, "");
  if (t === "" || t === "-" || t === "--") return 0;
  const group = decimal === "," ? "." : ",";
  const re =
    decimal === ","
      ? /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,6}))?$/
      : /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,6}))?$/;
  const m = re.exec(t);
  if (!m) return null;
  const whole = Number(m[1]!.split(group).join(""));
  const fraction = Number(`0.${m[2] ?? "0"}`);
  // Platforms write more decimals than cents at times (Google's 12.345678): rounded to the cent.
  return Math.round((whole + fraction) * 100);
}

function columnIndex(header: string[], names: string[]): number {
  for (const name of names) {
    const i = header.indexOf(name);
    if (i >= 0) return i;
  }
  return -1;
}

/** An export's platform, delimiter, header line and where its columns are. */
interface SpendExport {
  text: string;
  delimiter: string;
  headerIndex: number;
  header: string[];
  format: (typeof FORMATS)[number];
  at: { campaign: number; spend: number; day: number; start: number; end: number; currency: number };
}

/** The platform, rows and bad lines of an export. Throws UnknownSpendFormat for a file of no platform. */
export function parseSpendCsv(input: string): ParsedSpend {
  const file = spendExportOf(input);
  return runSteps(readRows(file, csvRecords(file.text, file.delimiter)));
}

/** The same, giving way to other work between slices of the file (the import route's way). */
export async function readSpendCsv(input: string): Promise<ParsedSpend> {
  const file = spendExportOf(input);
  const steps = readRows(file, await readCsvRecords(file.text, file.delimiter));
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function spendExportOf(input: string): SpendExport {
  const text = input.replace(/^\uFEFF/, "");
  const head = text.split(/\r?\n/).slice(0, 12);
  // Google Ads writes a title and a period above its header: look for the header in the first lines.
  for (let h = 0; h < head.length; h++) {
    const delimiter = delimiterOf(head[h]!);
    const header = headerFields(head[h]!, delimiter).map(norm);
    const format = FORMATS.find((f) => f.detect(header));
    if (!format) continue;
    return { text, delimiter, headerIndex: h, header, format, at: columnsOf(header, format) };
  }
  throw new UnknownSpendFormat(
    "Dit bestand is geen bekende export: gebruik de csv-export van Meta Advertentiebeheer, TikTok Ads Manager, Snapchat Ads Manager of Google Ads, met kolommen voor campagne, dag en besteed bedrag",
  );
}

function columnsOf(header: string[], format: (typeof FORMATS)[number]): SpendExport["at"] {
  const c = format.columns;
  const at = {
    campaign: columnIndex(header, c.campaign),
    spend: header.findIndex((h) => c.spend.some((re) => re.test(h))),
    day: columnIndex(header, c.day),
    start: c.start ? columnIndex(header, c.start) : -1,
    end: c.end ? columnIndex(header, c.end) : -1,
    currency: columnIndex(header, c.currency),
  };
  const missing = [
    at.campaign < 0 && "campagnenaam",
    at.spend < 0 && "besteed bedrag",
    at.day < 0 && at.start < 0 && "dag",
  ].filter(Boolean);
  if (missing.length)
    throw new UnknownSpendFormat(
      `De export mist de kolom ${missing.join(" en ")}: exporteer per dag en per campagne`,
    );
  const headerCurrency = /\(([a-z]{3})\)$/.exec(header[at.spend]!)?.[1]?.toUpperCase();
  if (headerCurrency && headerCurrency !== "EUR")
    throw new UnknownSpendFormat(
      `Alleen bedragen in euro worden ingelezen; deze export is in ${headerCurrency}`,
    );
  return at;
}

function* readRows(
  { headerIndex, header, format, at }: SpendExport,
  allRecords: CsvRecord[],
): Steps<ParsedSpend> {
  const records = allRecords.filter((r) => r.line > headerIndex + 1);
  const dutch = header.some((h) => DUTCH_HEADERS.has(h.replace(/ \([a-z]{3}\)$/, "")));
  const decimal = decimalOf(
    records.map((r) => r.fields[at.spend] ?? ""),
    dutch ? "," : ".",
  );
  const dayCol = at.day >= 0 ? at.day : at.start;
  const monthFirst = monthFirstOf(
    records.map((r) => r.fields[dayCol] ?? ""),
    !dutch,
  );
  const errors: AdSpendImportError[] = [];
  const rows = new Map<string, SpendRow>();
  for (const [n, { fields, line }] of records.entries()) {
    if (n > 0 && n % SLICE === 0) yield;
    const cell = (i: number) => (i >= 0 ? (fields[i] ?? "").trim() : "");
    // One name however its accents were composed (NFC), as a name typed in the panel is stored: two
    // spellings of one name are one row, summed like an export's rows of one day and campaign.
    const campaign = cell(at.campaign).normalize("NFC");
    // Totals and summaries the exports add (Google's "Total: ...", Meta's rows without a campaign).
    if (/^(total|totaal)\b/i.test(cell(0)) || /^(total|totaal)\b/i.test(campaign)) continue;
    const fail = (message: string) => errors.push({ line, message });
    if (!campaign) {
      fail("Geen campagnenaam");
      continue;
    }
    if (campaign.length > SPEND_CAMPAIGN_MAX) {
      fail(`De campagnenaam is langer dan ${SPEND_CAMPAIGN_MAX} tekens`);
      continue;
    }
    const unsafe = unsafeNameChar(campaign);
    if (unsafe) {
      fail(`De campagnenaam bevat ${unsafe}; pas de naam aan`);
      continue;
    }
    let day: string | null;
    if (at.day >= 0) day = parseDay(cell(at.day), monthFirst);
    else {
      day = parseDay(cell(at.start), monthFirst);
      const end = at.end >= 0 ? parseDay(cell(at.end), monthFirst) : day;
      if (day && end && day !== end) {
        fail("Deze regel beslaat meer dan één dag: exporteer met de uitsplitsing per dag");
        continue;
      }
    }
    if (!day) {
      fail(`Onbekende datum "${cell(dayCol).slice(0, 40)}"`);
      continue;
    }
    const currency = cell(at.currency).toUpperCase();
    if (currency && currency !== "EUR") {
      fail(`Alleen bedragen in euro worden ingelezen (deze regel: ${currency.slice(0, 10)})`);
      continue;
    }
    const cents = parseCents(cell(at.spend), decimal);
    if (cents === null || cents > EURO_AMOUNT_MAX * 100) {
      fail(`Onbekend bedrag "${cell(at.spend).slice(0, 40)}"`);
      continue;
    }
    const key = `${day}\u0000${campaign}`;
    const seen = rows.get(key);
    // An export split by ad set or placement has several rows of a day and campaign: their sum.
    if (seen) seen.cents += cents;
    else rows.set(key, { day, campaign, cents, line });
  }
  return { platform: format.platform, rows: [...rows.values()], errors };
}
