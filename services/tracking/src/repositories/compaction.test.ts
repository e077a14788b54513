import { randomBytes } from "node:crypto";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { runMigrations } from "@lease/platform";
import { createTestDatabase, type TestDatabase } from "@lease/platform/testing";
import { importVisits } from "../cli/import-visits";
import { ManualClock, pageView } from "../testing";
import { compactClosedMonths } from "../domain/retention";
import { ConversionRecorder } from "./conversions";
import { insertBatch, writerDeps } from "./page-views";
import { Partitions } from "./partitions";
import { applyRetention, waitForImports } from "./retention";

// The page views of months that are over, packed per session and day into page_view_days by the
// service's daily pass (repositories/partitions.ts compactMonths, migration 0017): smaller, every
// view kept exactly, a redelivery or re-import of a packed view refused, and a lead's attribution
// reading both forms.
const NOW = Date.parse("2027-04-20T10:00:00Z");
const FOLDER = fileURLToPath(new URL("../../migrations", import.meta.url));

let db: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase("trkcompact");
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  await runMigrations(pool, "tracking", FOLDER);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/**
 * `count` page views between two instants as import lines, in time order: sessions of four views
 * within ten minutes, on three pages (a visit as the site sees them).
 */
function lines(prefix: string, count: number, from: number, to: number, seed: number): string[] {
  const next = random(seed);
  const views: { t: number; session: string }[] = [];
  for (let s = 0; s < count / 4; s++) {
    const start = from + Math.floor(next() * (to - from - 600_000));
    for (let v = 0; v < 4; v++)
      views.push({ t: start + Math.floor(next() * 600_000), session: `${prefix}-s${s}` });
  }
  views.sort((a, b) => a.t - b.t);
  const pages = ["/financiele-lease", "/operational-lease", "/"];
  return views.map((v, i) =>
    JSON.stringify({
      id: `${prefix}-${i}`,
      at: new Date(v.t).toISOString(),
      session: v.session,
      page: pages[i % 3],
    }),
  );
}

const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]!.n);
const bytes = (table: string) => count(`SELECT pg_total_relation_size('tracking.${table}') AS n`);
/** Every view of March 2027 as "session time event page" lines, sorted, from both forms. */
const marchViews = async () =>
  (
    await pool.query<{ v: string }>(
      `SELECT format('%s %s %s %s', session_key, extract(epoch FROM occurred_at), event_key, page_id) AS v
         FROM (SELECT session_key, occurred_at, event_key, page_id FROM tracking.page_views_m2027_03
               UNION ALL
               SELECT d.session_key, x.occurred_at, x.event_key, x.page_id
                 FROM tracking.page_view_days_m2027_03 d, tracking.unpack_views(d.day, d.views) x) a
        ORDER BY 1`,
    )
  ).rows.map((r) => r.v);

describe("packing the page views of closed months", () => {
  // Four imports of page views in March (over) and April (this month).
  const march = Date.parse("2027-03-03T00:00:00Z");
  const april = Date.parse("2027-04-01T00:00:00Z");
  const files = [0, 1, 2, 3].map((i) => [
    ...lines(`m${i}`, 4000, march + i * 6 * 86_400_000, march + (i + 1) * 6 * 86_400_000, 11 + i),
    ...lines(`a${i}`, 4000, april + i * 4 * 86_400_000, april + (i + 1) * 4 * 86_400_000, 31 + i),
  ]);
  const run = (file: string[]) =>
    importVisits(pool, Readable.from([file.join("\n")]), { retentionMonths: 26, now: NOW });
  const clock = new ManualClock(NOW);

  it("packs a month that is over in the daily pass, keeping every view, and refuses them again after", async () => {
    for (const file of files) expect((await run(file)).written).toBe(8000);
    const before = await marchViews();
    expect(before).toHaveLength(16_000);
    const unpackedBytes = await bytes("page_views_m2027_04");

    const partitions = new Partitions(pool);
    const packed = await compactClosedMonths(pool, partitions, clock);
    expect(packed).toMatchObject({ months: ["2027-03-01"], views: 16_000 });
    expect(await count("SELECT count(*) AS n FROM tracking.page_views_m2027_03")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM tracking.page_views_m2027_04")).toBe(16_000);
    // The same views, to the millisecond, with their event keys and pages.
    expect(await marchViews()).toEqual(before);
    // One row per session and day: 4,000 sessions of ten minutes (a few across midnight).
    const rows = await count("SELECT count(*) AS n FROM tracking.page_view_days_m2027_03");
    expect(rows).toBeGreaterThanOrEqual(4000);
    expect(rows).toBeLessThan(4040);
    // The same number of views in well under half the bytes, its key included.
    const packedBytes = (await bytes("page_views_m2027_03")) + (await bytes("page_view_days_m2027_03"));
    expect(packedBytes).toBeLessThan(unpackedBytes * 0.5);
    // The month's keys are packed: the packed rows' (built in order) and its visitor rows'.
    const keys = await pool.query<{ name: string; options: string[] | null }>(
      `SELECT c.relname AS name, c.reloptions AS options
         FROM pg_index ix JOIN pg_class c ON c.oid = ix.indexrelid
        WHERE ix.indisprimary AND ix.indrelid IN ('tracking.page_view_days_m2027_03'::regclass,
                                                  'tracking.visitors_m2027_03'::regclass, 'tracking.visitors_m2027_04'::regclass)
        ORDER BY 1`,
    );
    expect(keys.rows).toEqual([
      { name: "page_view_days_m2027_03_pkey", options: ["fillfactor=100"] },
      { name: "visitors_m2027_03_pkey", options: ["fillfactor=100"] },
      { name: "visitors_m2027_04_pkey", options: null },
    ]);
    // Nothing left to pack: a quick read per month.
    expect(await compactClosedMonths(pool, partitions, clock)).toMatchObject({ months: [], views: 0 });

    // A late page view of March still goes in, and a redelivery of it does not.
    const deps = writerDeps(pool);
    const late = pageView("late-1", "late-session", "/", "2027-03-31T20:00:00Z");
    expect((await insertBatch(deps, [late])).written).toBe(1);
    expect((await insertBatch(deps, [late])).written).toBe(0);
    // Importing the same files again stores nothing: the packed views are found.
    for (const file of files) expect(await run(file)).toMatchObject({ written: 0, duplicates: 8000 });
    expect(await count("SELECT count(*) AS n FROM tracking.page_views_m2027_03")).toBe(1);
    expect(await count("SELECT count(*) AS n FROM tracking.page_views")).toBe(16_001);
    // The next pass packs the late view; once packed, its redelivery is still refused.
    expect(await compactClosedMonths(pool, partitions, clock)).toMatchObject({
      months: ["2027-03-01"],
      views: 1,
    });
    expect((await insertBatch(deps, [late])).written).toBe(0);
    expect(await marchViews()).toHaveLength(16_001);
    expect(await count("SELECT count(*) AS n FROM tracking.page_views_m2027_03")).toBe(0);
  });

  it("appends a later import into a packed session's day to its row", async () => {
    // The second half of a visit whose first half was packed: same session, same day.
    const first = [0, 1].map((i) => pageView(`half-${i}`, "half-session", "/", `2027-03-20T10:0${i}:00Z`));
    const second = [2, 3].map((i) =>
      pageView(`half-${i}`, "half-session", "/financiele-lease", `2027-03-20T10:0${i}:00Z`),
    );
    const deps = writerDeps(pool);
    expect((await insertBatch(deps, first)).written).toBe(2);
    await compactClosedMonths(pool, new Partitions(pool), clock);
    expect((await insertBatch(deps, [...first, ...second])).written).toBe(2);
    expect(await compactClosedMonths(pool, new Partitions(pool), clock)).toMatchObject({ views: 2 });
    const row = await pool.query<{ views: number }>(
      `SELECT length(views) / 12 AS views FROM tracking.page_view_days
        WHERE session_key = tracking.key64('half-session') AND day = '2027-03-20'`,
    );
    expect(row.rows).toEqual([{ views: 4 }]);
    expect((await insertBatch(deps, [...first, ...second])).written).toBe(0);
  });

  it("rebuilds the packed keys after an import into a packed month", async () => {
    /** Bytes per entry of a partition's primary key: about 28 packed, about 50 once split. */
    const perKey = async (table: string) =>
      (await count(`SELECT pg_relation_size('tracking.${table}_pkey') AS n`)) /
      (await count(`SELECT count(*) AS n FROM tracking.${table}`));
    const more = lines("m9", 8000, march + 2 * 86_400_000, march + 20 * 86_400_000, 77);
    expect((await run(more)).written).toBe(8000);
    expect(await compactClosedMonths(pool, new Partitions(pool), clock)).toMatchObject({ views: 8000 });
    // 2,000 new sessions' keys among 4,000 packed ones: rebuilt packed rather than split.
    expect(await perKey("page_view_days_m2027_03")).toBeLessThan(36);
    expect(await perKey("visitors_m2027_03")).toBeLessThan(36);
    expect(await marchViews()).toHaveLength(24_005); // with the two-part visit of the test before
    expect((await run(more)).written).toBe(0);
  });

  it("gives a lead its visit's pages from packed days, late views and this month, in order", async () => {
    const deps = writerDeps(pool);
    const s = "lead-session-1";
    const views = [
      pageView("l-1", s, "/", "2027-03-30T18:00:00Z"),
      pageView("l-2", s, "/operational-lease", "2027-03-30T18:02:00Z"),
      pageView("l-3", s, "/financiele-lease", "2027-03-31T09:00:00Z"),
    ];
    expect((await insertBatch(deps, views)).written).toBe(3);
    await compactClosedMonths(pool, new Partitions(pool), clock);
    // A late view of March (not packed yet) and two of April.
    expect((await insertBatch(deps, [pageView("l-4", s, "/", "2027-03-31T21:00:00Z")])).written).toBe(1);
    expect(
      (
        await insertBatch(deps, [
          pageView("l-5", s, "/financiele-lease", "2027-04-01T08:00:00Z"),
          pageView("l-6", s, "/offerte", "2027-04-01T08:05:00Z"),
        ])
      ).written,
    ).toBe(2);
    const recorder = new ConversionRecorder(pool, deps.profileDims);
    const at = new Date("2027-04-01T08:06:00Z");
    const result = await recorder.record(
      { source: "lease_request", leadId: "0b0c1d2e-3f40-4a5b-8c6d-7e8f90a1b2f1", sessionId: s, at },
      await recorder.visitDays(s, at),
    );
    expect(result.attribution).toMatchObject({
      pagesBeforeConversion: 6,
      pages: ["/", "/operational-lease", "/financiele-lease", "/", "/financiele-lease", "/offerte"],
    });
  });

  it("packs through tracking.pack_month for a role that does not own the tables", async () => {
    const role = `trk_compact_${randomBytes(4).toString("hex")}`;
    await pool.query(`CREATE ROLE ${role} LOGIN`);
    await pool.query(`GRANT USAGE ON SCHEMA tracking TO ${role}`);
    await pool.query(`GRANT EXECUTE ON FUNCTION tracking.pack_month(date) TO ${role}`);
    const url = new URL(db.url);
    url.username = role;
    url.password = "";
    const service = new pg.Pool({ connectionString: url.toString(), max: 2 });
    try {
      await writerDeps(pool).partitions.ensure(["2027-01-01"]);
      await pool.query(
        `INSERT INTO tracking.page_views (occurred_at, session_key, event_key, page_id)
         SELECT '2027-01-10T10:00:00Z'::timestamptz + g * interval '1 minute', tracking.key64('j' || (g % 10)), g, 1
         FROM generate_series(1, 100) AS g`,
      );
      // What the service's role holds in production (infra/README.md: default privileges).
      await pool.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA tracking TO ${role}`);
      await expect(service.query("TRUNCATE tracking.page_views_m2027_01")).rejects.toThrow(
        /permission denied/,
      );
      const done = await compactClosedMonths(service, new Partitions(service), clock);
      // January, and the lead's late view of March from the test before.
      expect(done).toMatchObject({ months: ["2027-01-01", "2027-03-01"], views: 101 });
      expect(await count("SELECT count(*) AS n FROM tracking.page_views_m2027_01")).toBe(0);
      expect(await count("SELECT sum(length(views) / 12) AS n FROM tracking.page_view_days_m2027_01")).toBe(
        100,
      );
    } finally {
      await service.end();
      await pool.query(`DROP OWNED BY ${role}`);
      await pool.query(`DROP ROLE ${role}`);
    }
  });

  it("never packs the month still running; once it is over, it does", async () => {
    const partitions = new Partitions(pool);
    expect((await compactClosedMonths(pool, partitions, clock)).months).not.toContain("2027-04-01");
    const may = new ManualClock(Date.parse("2027-05-01T03:00:00Z"));
    expect(await compactClosedMonths(pool, partitions, may)).toMatchObject({ months: ["2027-04-01"] });
    expect(await count("SELECT count(*) AS n FROM tracking.page_views_m2027_04")).toBe(0);
  });

  it("trims a packed month's days before the retention cutoff, counting their views", async () => {
    // March 2027 is packed; keeping from 15 March removes its first two weeks (and January whole).
    const kept = await count(
      "SELECT coalesce(sum(length(views) / 12), 0) AS n FROM tracking.page_view_days WHERE day >= '2027-03-15'",
    );
    const gone = await count(
      "SELECT coalesce(sum(length(views) / 12), 0) AS n FROM tracking.page_view_days_m2027_03 WHERE day < '2027-03-15'",
    );
    expect(gone).toBeGreaterThan(0);
    const report = await applyRetention(pool, new Partitions(pool), "2027-03-15");
    expect(report.trimmedPageViews).toBe(gone);
    expect(report.droppedMonths).toEqual(["2027-01-01"]);
    expect(await count("SELECT sum(length(views) / 12) AS n FROM tracking.page_view_days")).toBe(kept);
    expect(await count("SELECT count(*) AS n FROM tracking.page_view_days WHERE day < '2027-03-15'")).toBe(0);
  });
});

describe("the daily pass beside a history import", () => {
  it("waits for a running import to end", async () => {
    const input = new PassThrough();
    const importing = importVisits(pool, input, { retentionMonths: 26, now: NOW });
    input.write(`${JSON.stringify({ id: "w-1", at: "2027-02-02T10:00:00Z", session: "w-s", page: "/" })}\n`);
    // The import holds its lock from its start; the pass polls (every 20 ms here).
    await new Promise((resolve) => setTimeout(resolve, 300));
    let passed = false;
    const waited = waitForImports(pool, 20).then(() => (passed = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(passed).toBe(false);
    input.end();
    expect((await importing).written).toBe(1);
    await waited;
    expect(passed).toBe(true);
    // With no import running it does not wait.
    await waitForImports(pool, 60_000);
  });
});
