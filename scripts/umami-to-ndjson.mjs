#!/usr/bin/env node
// Converts an Umami `website_event` CSV export (v2: columns event_id, session_id, created_at,
// url_path, url_query, referrer_domain, event_type, ...) into the NDJSON that
// `npm run tracking:import` reads:
//   node scripts/umami-to-ndjson.mjs website_event.csv | npm run tracking:import
// Only page views (event_type 1) are converted; created_at is UTC in Umami's database.
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { parse } from "csv-parse";

/**
 * The records of CSV text or a stream of it (RFC 4180 by csv-parse: quoted fields may hold commas,
 * quotes and newlines; a byte-order mark and empty lines are skipped). A malformed file throws
 * while it is read, naming the line.
 */
export function csvRecords(input) {
  const source = typeof input === "string" ? Readable.from([input]) : input;
  return source.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true }));
}

/** "2025-03-01 10:15:00.123", "...+00", "...Z" (all UTC) as ISO-8601 with Z. */
export function utcIso(value) {
  const text = value
    .trim()
    .replace(" ", "T")
    .replace(/([+-]00(:?00)?|Z)$/, "");
  return `${text}Z`;
}

/** NDJSON lines from the records of a website_event export. */
export async function* umamiToNdjson(records) {
  let header;
  for await (const record of records) {
    if (!header) {
      header = Object.fromEntries(record.map((name, i) => [name.trim(), i]));
      for (const name of ["event_id", "session_id", "created_at", "url_path"])
        if (!(name in header)) throw new Error(`column ${name} is missing: is this a website_event export?`);
      continue;
    }
    const get = (name) => (name in header ? (record[header[name]] ?? "") : "");
    if (get("event_type") && get("event_type") !== "1") continue;
    const query = get("url_query");
    const domain = get("referrer_domain");
    yield JSON.stringify({
      id: get("event_id"),
      at: utcIso(get("created_at")),
      session: get("session_id"),
      page: `${get("url_path") || "/"}${query ? `?${query}` : ""}`,
      ...(domain ? { referrer: `https://${domain}/` } : {}),
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const input = process.argv[2] ? createReadStream(process.argv[2]) : process.stdin;
  try {
    for await (const line of umamiToNdjson(csvRecords(input))) {
      if (!process.stdout.write(`${line}\n`)) await new Promise((r) => process.stdout.once("drain", r));
    }
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
