// Page views of history, one JSON object per line ({"id","at","session","page","referrer"?}; see
// the README), written through the same batch writer as live traffic. Idempotent on id.
import { createInterface } from "node:readline";
import type { Pool } from "@lease/platform";
import { parseImportLine } from "../domain/import-line";
import { retentionStart } from "../domain/periods";
import { addMonths, amsterdamDate, dayStart, monthOf } from "../domain/calendar";
import { insertBatch, writerDeps, type BatchResult, type TrackEvent } from "../repositories/page-views";
import { compactRunningTotals } from "../repositories/running-totals";
import { holdImportLock } from "../repositories/retention";
import { buildPendingWeeks, compactAll } from "../repositories/sketches";

/**
 * Lines per transaction: large enough that a batch's rollup rows (a day's hours, pages, breakdown
 * values and pairs, its sketch deltas) are few beside its page views, small enough to keep memory
 * flat (a batch of history in time order spans a day or a few).
 */
const BATCH = 50_000;
/** Batches written at the same time (the writer's statements take rows in key order: no deadlocks). */
const CONCURRENCY = 2;
/** Batches between two compactions of the campaign report's running totals (400,000 lines). */
const COMPACT_EVERY = 8;
/** Bad lines printed one by one; beyond this only counted. */
const MAX_REPORTED = 100;

export interface ImportSummary {
  lines: number;
  written: number;
  duplicates: number;
  tooOld: number;
  bad: number;
}

export interface ImportOptions {
  retentionMonths: number;
  now?: number;
  /** Called about twice a second with the running totals. */
  progress?: (s: ImportSummary, seconds: number) => void;
  /** Where bad lines are reported. */
  report?: (message: string) => void;
  /** Lines per batch (BATCH; tests take fewer, to write many batches of a small file). */
  batchLines?: number;
}

/** Reads NDJSON page views from `input` and writes them; resolves with what happened. */
export async function importVisits(
  pool: Pool,
  input: NodeJS.ReadableStream,
  opts: ImportOptions,
): Promise<ImportSummary> {
  const now = opts.now ?? Date.now();
  const oldest = dayStart(retentionStart(amsterdamDate(now), opts.retentionMonths));
  const deps = writerDeps(pool);
  const summary: ImportSummary = { lines: 0, written: 0, duplicates: 0, tooOld: 0, bad: 0 };
  const started = Date.now();
  const progress = opts.progress
    ? setInterval(() => opts.progress!(summary, (Date.now() - started) / 1000), 500)
    : undefined;
  // Two batches in flight: while PostgreSQL writes one, this process prepares the next.
  const inFlight = new Set<Promise<void>>();
  let batches = 0;
  let failure: unknown;
  // The sketch deltas of the batches written are merged into the sketches while the next batches
  // are read and written (a third connection), not all at the end: at 1 M lines that was 3.2 s
  // after the last batch, with the CPU the batches left idle unused.
  let merging: Promise<void> | undefined;
  const merge = () => {
    merging ??= compactAll(pool).then(
      () => void (merging = undefined),
      (err: unknown) => {
        failure ??= err;
        merging = undefined;
      },
    );
  };
  // The batch before the one being started: batches are prepared side by side but committed in
  // the order of the file (insertBatch's `after`), so a visit split between two is written in time
  // order. A batch inserts its page views once the batch before has inserted its own
  // (`viewsAfter`), while that one writes its visitor rows and rollups.
  let previous: Promise<unknown> | undefined;
  let previousViews: Promise<void> | undefined;
  const write = async (inserted: Promise<BatchResult>) => {
    const r = await inserted;
    merge();
    summary.written += r.written;
    summary.duplicates += r.duplicates;
    // The campaign report's pending changes (a few hundred a batch) stay few, as the service's
    // compaction keeps them for live traffic.
    if (++batches % COMPACT_EVERY === 0) await compactRunningTotals(pool);
  };
  const thisMonth = monthOf(amsterdamDate(now));
  const start = async (events: TrackEvent[]) => {
    // The partitions from the batch's oldest month up to now, in one go before the batch is in
    // flight: history in time order then waits for no other batch to make each month's. (The
    // service's daily pass packs the months that are over afterwards: domain/retention.ts.)
    let oldestMs = Infinity;
    for (const e of events) {
      const t = e.at.getTime();
      if (t < oldestMs) oldestMs = t;
    }
    const months: string[] = [];
    for (let m = monthOf(amsterdamDate(oldestMs)); m <= thisMonth; m = addMonths(m, 1)) months.push(m);
    await deps.partitions.ensure(months);
    let viewsWritten!: () => void;
    const views = new Promise<void>((resolve) => (viewsWritten = resolve));
    const inserted = insertBatch(deps, events, { after: previous, viewsAfter: previousViews, viewsWritten });
    previous = inserted;
    previousViews = views;
    const p: Promise<void> = write(inserted).then(
      () => void inFlight.delete(p),
      (err: unknown) => {
        failure ??= err;
        inFlight.delete(p);
      },
    );
    inFlight.add(p);
  };
  let batch: TrackEvent[] = [];
  // The service's daily pass (retention, packing) waits while this runs (repositories/retention.ts).
  const running = await holdImportLock(pool);
  try {
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      summary.lines++;
      if (text.trim() === "") continue;
      const parsed = parseImportLine(text, now);
      if ("error" in parsed) {
        summary.bad++;
        if (summary.bad <= MAX_REPORTED) opts.report?.(`regel ${summary.lines}: ${parsed.error}`);
        else if (summary.bad === MAX_REPORTED + 1) opts.report?.("meer foutieve regels: alleen nog geteld");
        continue;
      }
      if (parsed.event.at.getTime() < oldest) {
        summary.tooOld++;
        continue;
      }
      batch.push(parsed.event);
      if (batch.length >= (opts.batchLines ?? BATCH)) {
        while (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
        if (failure) throw failure;
        await start(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await start(batch);
    await Promise.all(inFlight);
    await merging;
    if (failure) throw failure;
    await compactAll(pool);
    await buildPendingWeeks(pool);
    await compactRunningTotals(pool);
    if (summary.written > 0) await vacuumRollups(pool);
  } finally {
    await Promise.allSettled([...inFlight, merging]);
    if (progress) clearInterval(progress);
    await running();
  }
  return summary;
}

/**
 * The tables a bulk import rewrites over and over (every batch adds sketch deltas, which compaction
 * deletes and merges into updated sketches; every batch updates the same day and month rows) are
 * left full of dead rows, and analytics reads then walk them until autovacuum comes by: after 90 M
 * imported page views a 12-month read took 309 ms p50 through the API, against 75 ms over the same
 * rollups freshly written. The import cleans up after itself instead.
 */
async function vacuumRollups(pool: Pool): Promise<void> {
  const tables = await pool.query<{ name: string }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'tracking' AND c.relkind = 'r' AND NOT c.relispartition
       AND c.relname NOT LIKE 'legacy%' AND c.relname NOT IN ('page_views', 'visitors')`,
  );
  // One table at a time: VACUUM cannot run inside a transaction block, and a list would lock them all.
  for (const { name } of tables.rows) await pool.query(`VACUUM (ANALYZE) ${name}`);
}
