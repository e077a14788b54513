#!/usr/bin/env node
// Converts an Umami `website_event` CSV export (v2: columns event_id, session_id, created_at,
// url_path, url_query, referrer_domain, event_type, ...) into the NDJSON that
// `npm run tracking:import` reads:
//   node scripts/umami-to-ndjson.mjs website_event.csv | npm run tracking:import
// Only page views (event_type 1) are converted; created_at is UTC in Umami's database.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/** Splits CSV text into records (RFC 4180: quoted fields may hold commas, quotes and newlines). */
export async function* csvRecords(lines) {
  let record = [];
  let field = "";
  let quoted = false;
  for await (const line of lines) {
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quoted) {
        if (c === '"' && line[i + 1] === '"') {
          field += '"';
          i++;
        } else if (c === '"') quoted = false;
        else field += c;
      } else if (c === '"') quoted = true;
      else if (c === ",") {
        record.push(field);
        field = "";
      } else field += c;
    }
    if (quoted) {
      field += "\n";
      continue;
    }
    record.push(field);
    yield record;
    record = [];
    field = "";
  }
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
    if (record.length === 1 && record[0] === "") continue;
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
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of umamiToNdjson(csvRecords(lines))) {
      if (!process.stdout.write(`${line}\n`)) await new Promise((r) => process.stdout.once("drain", r));
    }
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
