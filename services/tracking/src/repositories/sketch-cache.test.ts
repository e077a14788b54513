import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { Pool } from "@lease/platform";
import { importVisits } from "../cli/import-visits";
import { ManualClock, metric, pageView, startHarness, type Harness } from "../testing";
import { AnalyticsReader } from "./analytics";
import { PageDirectory } from "./dictionary";
import { insertBatch, writerDeps, type TrackEvent } from "./page-views";
import { Partitions } from "./partitions";
import { applyRetention } from "./retention";
import { SketchCache, costOf } from "./sketch-cache";
import { compactAll } from "./sketches";

describe("the sketch cache's bound", () => {
  const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

  it("holds at most its bound, the sketches read longest ago leaving first", () => {
    const cache = new SketchCache(3 * costOf("m|2026-01-01|0", bytes(1000)));
    cache.store("m|2026-01-01|0", "10", bytes(1000));
    cache.store("m|2026-02-01|0", "11", bytes(1000));
    cache.store("m|2026-03-01|0", "12", bytes(1000));
    expect(cache.bytes).toBe(cache.maxBytes);
    cache.lookup(["m|2026-01-01|0"]); // January read again: February is now the oldest
    cache.store("m|2026-04-01|0", "13", bytes(1000));
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    expect([...cache.lookup(["m|2026-01-01|0", "m|2026-02-01|0", "m|2026-04-01|0"]).keys()]).toEqual([
      "m|2026-01-01|0",
      "m|2026-04-01|0",
    ]);
    // A new version of a row replaces the old one, and its cost with it.
    cache.store("m|2026-04-01|0", "14", bytes(10));
    expect(cache.lookup(["m|2026-04-01|0"]).get("m|2026-04-01|0")?.xmin).toBe("14");
    expect(cache.bytes).toBe(2 * costOf("m|2026-01-01|0", bytes(1000)) + costOf("m|2026-01-01|0", bytes(10)));
  });

  it("stays within its bound over 100,000 scopes, and holds nothing larger than the bound", () => {
    const cache = new SketchCache(2 ** 20);
    for (let scope = 1; scope <= 100_000; scope++) cache.store(`m|2026-01-01|${scope}`, "7", bytes(4096));
    expect(cache.bytes).toBeLessThanOrEqual(2 ** 20);
    expect(cache.size).toBe(Math.floor(2 ** 20 / costOf("m|2026-01-01|100000", bytes(4096))));
    expect(cache.lookup(["m|2026-01-01|100000"]).size).toBe(1);
    expect(cache.lookup(["m|2026-01-01|1"]).size).toBe(0);
    cache.store("m|2026-01-01|0", "7", bytes(2 ** 20));
    expect(cache.lookup(["m|2026-01-01|0"]).size).toBe(0);
    // A bound of 0 holds nothing: every read fetches every sketch.
    const none = new SketchCache(0);
    none.store("m|2026-01-01|0", "7", bytes(10));
    expect(none.size).toBe(0);
  });

  it("copies a small sketch out of the Buffer pool it was decoded into", () => {
    const cache = new SketchCache(2 ** 20);
    const decoded = Buffer.from(Buffer.from([1, 2, 3]).toString("base64"), "base64");
    expect(decoded.buffer.byteLength).toBeGreaterThan(3); // a slice of the shared pool
    cache.store("d|2026-01-01|5", "9", decoded);
    const held = cache.lookup(["d|2026-01-01|5"]).get("d|2026-01-01|5")!.regs;
    expect(held.buffer.byteLength).toBe(3);
    expect([...held]).toEqual([1, 2, 3]);
  });

  it("forgets everything when the transaction counter enters another 2^30 block or goes back", async () => {
    let next = 5n;
    let ms = 0;
    const pool = {
      query: async () => ({ rows: [{ next: String(next) }] }),
    } as unknown as Pool;
    const cache = new SketchCache(2 ** 20, () => ms);
    await cache.checkHorizon(pool);
    cache.store("m|2026-01-01|0", "4", new Uint8Array(10));
    next = 2n ** 30n + 1n; // not looked at again within 10 s
    ms += 5000;
    await cache.checkHorizon(pool);
    expect(cache.size).toBe(1);
    ms += 5000;
    await cache.checkHorizon(pool);
    expect(cache.size).toBe(0);
    cache.store("m|2026-01-01|0", "4", new Uint8Array(10));
    next = 2n ** 30n + 500n; // the same block
    ms += 10_000;
    await cache.checkHorizon(pool);
    expect(cache.size).toBe(1);
    next = 3n; // another cluster (a restore)
    ms += 10_000;
    await cache.checkHorizon(pool);
    expect(cache.size).toBe(0);
  });
});

// Reads of closed months served from the cache, against reads without it, on history written
// through the batch writer; then an import into a closed month and a retention pass.
const NOW = Date.parse("2027-04-20T10:00:00Z");
const PERIOD = { from: "2026-11-01", to: "2027-04-20" };

let h: Harness;
let db: pg.Pool;
beforeAll(async () => {
  // The service's own compactor stays idle: merging deltas meanwhile, it would make new row
  // versions between two reads (which the cache then fetches, rightly) and compactAll return early.
  h = await startHarness(
    { RETENTION_MONTHS: "26", SKETCH_COMPACT_INTERVAL_MS: "600000" },
    new ManualClock(NOW),
  );
  db = new pg.Pool({ connectionString: h.db.url, max: 4 });
  const deps = writerDeps(db);
  const pages = ["/", "/financiele-lease", "/operationele-lease", "/over-ons"];
  const from = Date.parse("2026-11-01T00:00:00Z");
  const events: TrackEvent[] = Array.from({ length: 4000 }, (_, i) =>
    pageView(
      `c-e${i}`,
      `c-s${i % 1300}`,
      pages[i % pages.length]!,
      new Date(from + ((i * 7919) % 4000) * 3_400_000).toISOString(),
    ),
  );
  for (let i = 0; i < events.length; i += 500) await insertBatch(deps, events.slice(i, i + 500));
  await compactAll(db);
});
afterAll(async () => {
  await db?.end();
  await h?.close();
});

/** Imports `count` page views a minute apart from `from`, of `sessions` new visitors. */
async function importMinutes(prefix: string, from: string, count: number, sessions: number) {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      id: `${prefix}-${i}`,
      at: new Date(Date.parse(from) + i * 60_000).toISOString(),
      session: `${prefix}-${i % sessions}`,
      page: i % 2 ? "/" : "/over-ons",
    }),
  ).join("\n");
  await importVisits(db, Readable.from([lines]), { retentionMonths: 26, now: NOW, report: () => {} });
}

describe("analytics reads through the sketch cache", () => {
  const uncached = () => new AnalyticsReader(db, new PageDirectory(db), new SketchCache(0)).read(PERIOD, NOW);
  let reader: AnalyticsReader;
  beforeAll(() => {
    reader = new AnalyticsReader(db, new PageDirectory(db));
  });

  it("answers a second read from the cache, the same as a read without it", async () => {
    const first = await reader.read(PERIOD, NOW);
    const fetched = reader.cache.fetchedBytes;
    expect(fetched).toBeGreaterThan(0);
    expect(reader.cache.hits).toBe(0);
    const second = await reader.read(PERIOD, NOW);
    expect(reader.cache.fetchedBytes).toBe(fetched);
    expect(reader.cache.hits).toBeGreaterThan(0);
    expect(second).toEqual(first);
    expect(second).toEqual(await uncached());
    expect(first.totals.visitors).toBeGreaterThan(1000);
  });

  it("counts on the metrics endpoint where the service's reads took their sketch rows from", async () => {
    const rows = (source: string) =>
      metric(h.svc.metricsUrl, "tracking_analytics_sketch_rows_total", `source="${source}"`);
    const path = `/api/admin/analytics?from=${PERIOD.from}&to=${PERIOD.to}`;
    await h.get(path);
    const [cached, fetched] = [await rows("cache"), await rows("database")];
    expect(fetched).toBeGreaterThan(0);
    expect(await metric(h.svc.metricsUrl, "tracking_analytics_sketch_cache_bytes")).toBeGreaterThan(0);
    await h.get(path);
    expect(await rows("database")).toBe(fetched);
    expect(await rows("cache")).toBeGreaterThan(cached);
  });

  it("gives the new figures after an import into a closed month", async () => {
    const before = await reader.read(PERIOD, NOW);
    await importMinutes("late", "2026-12-03T08:00:00Z", 600, 200);
    const { hits, misses } = reader.cache;
    const after = await reader.read(PERIOD, NOW);
    expect(after).toEqual(await uncached());
    expect(after.totals.visitors).toBeGreaterThan(before.totals.visitors + 150);
    const december = (a: typeof after) => a.series[1]!.visitors; // November's bucket is the first
    expect(december(after)).toBeGreaterThan(december(before) + 150);
    // Only the rows the import rewrote were fetched again; the other months came from the cache.
    expect(reader.cache.misses).toBeGreaterThan(misses);
    expect(reader.cache.hits).toBeGreaterThan(hits);
  });

  it("gives the new figures after visits of this month", async () => {
    const before = await reader.read(PERIOD, NOW);
    await importMinutes("today", "2027-04-19T08:00:00Z", 300, 100);
    const after = await reader.read(PERIOD, NOW);
    expect(after).toEqual(await uncached());
    expect(after.totals.visitors).toBeGreaterThan(before.totals.visitors + 50);
    expect(after.series.slice(0, 5)).toEqual(before.series.slice(0, 5)); // November to March
  });

  it("fetches again a row rewritten by the same transaction as a row it holds in its new version", async () => {
    await reader.read(PERIOD, NOW);
    // One transaction writes December's site sketch again as it was and January's as February's.
    await db.query(
      `UPDATE tracking.sketches SET regs = CASE WHEN period = '2027-01-01' THEN (
         SELECT regs FROM tracking.sketches WHERE kind = 'm' AND scope = 0 AND period = '2027-02-01'
       ) ELSE regs END
       WHERE kind = 'm' AND scope = 0 AND period IN ('2026-12-01', '2027-01-01')`,
    );
    await reader.read({ from: "2026-12-01", to: "2026-12-31" }, NOW); // December's new version held
    const after = await reader.read(PERIOD, NOW);
    expect(after).toEqual(await uncached());
    expect(after.series[2]!.visitors).toBe(after.series[3]!.visitors); // January reads February's sketch
  });

  it("gives the new figures after a retention pass that trims a month read before", async () => {
    const before = await reader.read(PERIOD, NOW);
    await applyRetention(db, new Partitions(db), "2026-11-15");
    const after = await reader.read(PERIOD, NOW);
    expect(after).toEqual(await uncached());
    const november = (a: typeof after) => a.series[0]!.visitors;
    expect(november(after)).toBeLessThan(november(before));
    expect(after.totals.pageViews).toBeLessThan(before.totals.pageViews);
  });
});
