import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { prepareSchema } from "@lease/platform";
import { createTestDatabase, type TestDatabase } from "@lease/platform/testing";
import { addMonths, amsterdamDate, monthOf } from "../domain/calendar";
import { parseImportLine } from "../domain/import-line";
import { insertBatch, writerDeps, type TrackEvent } from "../repositories/page-views";
import { compactRunningTotals } from "../repositories/running-totals";
import { buildPendingWeeks, compactAll } from "../repositories/sketches";
import { TRACKING_MIGRATIONS } from "../service";
import { importVisits } from "./import-visits";

// The import writes two batches at a time, the later one's page views beside the earlier one's
// rollups; what it stores must be what the same batches written one after the other store.
const NOW = Date.parse("2027-04-20T10:00:00Z");
const BATCH = 150;

const CAMPAIGNS = [
  "",
  "utm_source=google&utm_medium=cpc&utm_campaign=najaar",
  "utm_source=nieuwsbrief&utm_medium=email",
];
const REFERRERS = ["", "https://www.google.nl/", "https://www.facebook.com/"];
const PAGES = ["/", "/financiele-lease", "/operationele-lease", "/over-ons", "/contact"];

/**
 * Visits of one to six pages a few minutes apart over two months, in time order (so visits straddle
 * batches), deterministic. The first visits take every campaign and referrer, with every page.
 */
function lines(count: number): string[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const from = Date.parse("2027-01-25T00:00:00Z");
  const span = Date.parse("2027-03-05T00:00:00Z") - from;
  const views: { id: string; at: number; session: string; page: string; referrer: string }[] = [];
  for (let visit = 0; views.length < count; visit++) {
    const combo = visit < CAMPAIGNS.length * REFERRERS.length ? visit : Math.floor(next() * 9);
    const campaign = CAMPAIGNS[combo % CAMPAIGNS.length]!;
    const referrer = REFERRERS[Math.floor(combo / CAMPAIGNS.length)]!;
    const pages = visit < 9 ? PAGES.length : 1 + Math.floor(next() * 6);
    let at = visit < 9 ? from + visit * 60_000 : from + Math.floor(next() * span);
    for (let p = 0; p < pages && views.length < count; p++) {
      const page = visit < 9 ? PAGES[p]! : PAGES[Math.floor(next() * PAGES.length)]!;
      views.push({
        id: `v${visit}-${p}`,
        at,
        session: `s${visit}`,
        page: p === 0 && campaign ? `${page}?${campaign}` : page,
        referrer: p === 0 ? referrer : "",
      });
      at += 30_000 + Math.floor(next() * 600_000);
    }
  }
  return views
    .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id))
    .map((v) => JSON.stringify({ ...v, at: new Date(v.at).toISOString() }));
}

/** Each table of schema tracking (partitioned ones as a whole): its row count and a hash of its rows. */
async function contents(pool: pg.Pool): Promise<Record<string, string>> {
  const tables = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'tracking' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND c.relname NOT LIKE '%migrations%'
     ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const r = await pool.query<{ n: number; h: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS h
       FROM tracking.${name} t`,
    );
    out[name] = `${r.rows[0]!.n} ${r.rows[0]!.h}`;
  }
  return out;
}

/** The numbered dictionaries of `from`, ids included, into `to` (whose own are empty). */
async function copyDictionaries(from: pg.Pool, to: pg.Pool): Promise<void> {
  for (const table of ["pages", "profiles", "dim_values"]) {
    const rows = await from.query<{ rows: unknown }>(`SELECT json_agg(t) AS rows FROM tracking.${table} t`);
    await to.query(
      `INSERT INTO tracking.${table} OVERRIDING SYSTEM VALUE
       SELECT * FROM json_populate_recordset(null::tracking.${table}, $1::json)`,
      [JSON.stringify(rows.rows[0]!.rows ?? [])],
    );
    await to.query(
      `SELECT setval(pg_get_serial_sequence('tracking.${table}', 'id'), (SELECT max(id) FROM tracking.${table}))`,
    );
  }
}

const dbs: TestDatabase[] = [];
const pools: pg.Pool[] = [];
async function database(): Promise<pg.Pool> {
  const db = await createTestDatabase("import");
  dbs.push(db);
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pools.push(pool);
  await prepareSchema(pool, "tracking", TRACKING_MIGRATIONS, true);
  return pool;
}

let text: string;
beforeAll(() => {
  text = lines(3000).join("\n");
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await Promise.all(dbs.map((d) => d.drop()));
});

describe("importVisits with batches in flight", () => {
  it("stores what the same batches written one after the other store, and nothing the second time", async () => {
    const [piped, serial] = await Promise.all([database(), database()]);
    const opts = { retentionMonths: 26, now: NOW, batchLines: BATCH };

    // The same batches, each committed before the next is prepared, and the same months made.
    const events: TrackEvent[] = text.split("\n").map((line) => {
      const parsed = parseImportLine(line, NOW);
      if ("error" in parsed) throw new Error(parsed.error);
      return parsed.event;
    });
    const deps = writerDeps(serial);
    const months: string[] = [];
    for (
      let m = monthOf(amsterdamDate(events[0]!.at.getTime()));
      m <= monthOf(amsterdamDate(NOW));
      m = addMonths(m, 1)
    )
      months.push(m);
    await deps.partitions.ensure(months);
    for (let i = 0; i < events.length; i += BATCH) await insertBatch(deps, events.slice(i, i + BATCH));
    await compactAll(serial);
    await buildPendingWeeks(serial);
    await compactRunningTotals(serial);

    // Pages, profiles and breakdown values are numbered by whichever batch in flight asks first:
    // the import gets the serial writer's numbers, so the rows that refer to them compare.
    await copyDictionaries(serial, piped);
    const first = await importVisits(piped, Readable.from([text]), opts);
    expect(first).toEqual({ lines: 3000, written: 3000, duplicates: 0, tooOld: 0, bad: 0 });

    const stored = await contents(piped);
    expect(Number(stored.page_views!.split(" ")[0])).toBe(3000);
    expect(Number(stored.daily_dim_pairs!.split(" ")[0])).toBeGreaterThan(0);
    expect(stored).toEqual(await contents(serial));

    const again = await importVisits(piped, Readable.from([text]), opts);
    expect(again).toEqual({ lines: 3000, written: 0, duplicates: 3000, tooOld: 0, bad: 0 });
    expect(await contents(piped)).toEqual(stored);
  });
});
