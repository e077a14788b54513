import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { Analytics } from "@lease/contracts";
import { runProcess } from "@lease/platform/testing";
import { entryArgs } from "../../../../scripts/lib/ts-entry.mjs";
import { importVisits } from "../cli/import-visits";
import { runRetention } from "../domain/retention";
import { ManualClock, startHarness, type Harness } from "../testing";
import { insertBatch, writerDeps, type TrackEvent, type WriterDeps } from "./page-views";
import { Partitions } from "./partitions";
import { Hll } from "../domain/hll";
import { buildPendingWeeks, compactAll } from "./sketches";

// History written through the batch writer, checked against counts over the raw rows it wrote.
// The data spans both clock changes (25 Oct 2026: 25 hours; 28 Mar 2027: 23 hours).
const NOW = Date.parse("2027-04-20T10:00:00Z");
const ROOT = fileURLToPath(new URL("../../../..", import.meta.url));

let h: Harness;
let db: pg.Pool;
let deps: WriterDeps;
beforeAll(async () => {
  h = await startHarness({ RETENTION_MONTHS: "26" }, new ManualClock(NOW));
  db = new pg.Pool({ connectionString: h.db.url, max: 4 });
  deps = writerDeps(db);
});
afterAll(async () => {
  await db?.end();
  await h?.close();
});

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const PAGES = [
  "/",
  "/financiele-lease",
  "/operationele-lease",
  "/over-ons",
  "/contact?x=1",
  "/zakelijke-lease#top",
];

function generate(count: number, from: number, to: number, seed: number, prefix: string): TrackEvent[] {
  const next = random(seed);
  const sessions = Array.from({ length: Math.ceil(count / 4) }, (_, i) => `${prefix}-s${i}`);
  return Array.from({ length: count }, (_, i) => ({
    eventId: `${prefix}-e${i}`,
    sessionId: sessions[Math.floor(next() * sessions.length)]!,
    isView: true,
    page: PAGES[Math.floor(next() * PAGES.length)]!,
    referrer: null,
    userAgent: null,
    ipPrefix: null,
    country: null,
    city: null,
    at: new Date(from + Math.floor(next() * (to - from))),
  }));
}

async function write(events: TrackEvent[], batch = 700) {
  for (let i = 0; i < events.length; i += batch) await insertBatch(deps, events.slice(i, i + batch));
  await compactAll(db);
}

const rows = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
  (await db.query<T>(sql, params)).rows;

async function analytics(from: string, to: string): Promise<Analytics> {
  return h.get<Analytics>(`/api/admin/analytics?from=${from}&to=${to}`);
}

/** Within 2 % (the site's visitors), or `share` for a page's (sketches of 2^12 registers: 1.6 % standard error). */
const near = (estimate: number, exact: number, share = 0.02) =>
  expect(Math.abs(estimate - exact), `${estimate} vs exact ${exact}`).toBeLessThanOrEqual(
    Math.max(1, exact * share),
  );

describe("rollups written with the raw rows", () => {
  const events = generate(
    12_000,
    Date.parse("2026-10-20T00:00:00Z"),
    Date.parse("2027-04-02T00:00:00Z"),
    7,
    "g",
  );

  beforeAll(async () => {
    await write(events.slice(0, 9000));
    // Partly written before: the batch of 8,500-9,500 holds 500 stored and 500 new page views.
    await write(events.slice(6500), 1000);
    // Redelivered and re-imported: the same events again, in other batches, change nothing.
    await write(events.slice(3000, 6000), 400);
  });

  it("stores every page view once, in monthly partitions, without query strings", async () => {
    expect(Number((await rows<{ n: string }>("SELECT count(*) AS n FROM tracking.page_views"))[0]!.n)).toBe(
      12_000,
    );
    const paths = (await rows<{ path: string }>("SELECT path FROM tracking.pages ORDER BY path")).map(
      (r) => r.path,
    );
    expect(paths).toContain("/contact");
    expect(paths).toContain("/zakelijke-lease");
    expect(paths.some((p) => /[?#]/.test(p))).toBe(false);
    const partitions = await new Partitions(db).months();
    for (const month of ["2026-10-01", "2026-11-01", "2027-03-01", "2027-04-01", "2027-06-01"])
      expect(partitions).toContain(month); // June: made ahead at start (April + 2)
  });

  it("counts views and distinct visitors per hour exactly, across both clock changes", async () => {
    const raw = await rows<{ hour: Date; views: string; visitors: string }>(
      `SELECT date_trunc('hour', occurred_at) AS hour, count(*) AS views, count(DISTINCT session_key) AS visitors
       FROM tracking.page_views GROUP BY 1 ORDER BY 1`,
    );
    const rollup = await rows<{ hour: Date; views: number; visitors: number }>(
      "SELECT hour, views, visitors FROM tracking.hourly ORDER BY hour",
    );
    expect(rollup.map((r) => [r.hour.toISOString(), r.views, r.visitors])).toEqual(
      raw.map((r) => [r.hour.toISOString(), Number(r.views), Number(r.visitors)]),
    );
    const perPage = await rows<{ n: string }>(
      `SELECT count(*) AS n FROM (
         SELECT date_trunc('hour', occurred_at) AS hour, page_id, count(*) AS views FROM tracking.page_views GROUP BY 1, 2
         EXCEPT SELECT hour, page_id, views FROM tracking.hourly_pages) d`,
    );
    expect(perPage[0]!.n).toBe("0");
  });

  it("counts views and distinct visitors per Amsterdam day exactly", async () => {
    const raw = await rows<{ day: string; views: string; visitors: string }>(
      `SELECT to_char((occurred_at AT TIME ZONE 'Europe/Amsterdam')::date, 'YYYY-MM-DD') AS day,
              count(*) AS views, count(DISTINCT session_key) AS visitors
       FROM tracking.page_views GROUP BY 1 ORDER BY 1`,
    );
    const rollup = await rows<{ day: string; views: number; visitors: number }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, views, visitors FROM tracking.daily ORDER BY day",
    );
    expect(rollup).toEqual(
      raw.map((r) => ({ day: r.day, views: Number(r.views), visitors: Number(r.visitors) })),
    );
  });

  it("answers a day by the hour: 25 buckets on 25 October, 23 on 28 March, exact", async () => {
    for (const [day, hours] of [
      ["2026-10-25", 25],
      ["2027-03-28", 23],
    ] as const) {
      const res = await analytics(day, day);
      expect(res.bucket).toBe("hour");
      expect(res.series).toHaveLength(hours);
      const raw = await rows<{ views: string; visitors: string }>(
        `SELECT count(*) AS views, count(DISTINCT session_key) AS visitors FROM tracking.page_views
         WHERE (occurred_at AT TIME ZONE 'Europe/Amsterdam')::date = $1`,
        [day],
      );
      expect(res.totals).toMatchObject({
        visitors: Number(raw[0]!.visitors),
        pageViews: Number(raw[0]!.views),
        conversions: 0,
      });
      expect(res.series.reduce((n, b) => n + b.pageViews, 0)).toBe(res.totals.pageViews);
    }
  });

  it("answers 30 days by the day and six months by the month, visitors within 2 %", async () => {
    const thirty = await analytics("2026-10-20", "2026-11-18");
    expect(thirty.bucket).toBe("day");
    expect(thirty.series).toHaveLength(30);
    expect(thirty.series[0]!.start).toBe("2026-10-19T22:00:00.000Z"); // summer time until 25 Oct
    expect(thirty.series[10]!.start).toBe("2026-10-29T23:00:00.000Z");
    const exact = async (from: string, to: string) =>
      (
        await rows<{ views: string; visitors: string }>(
          `SELECT count(*) AS views, count(DISTINCT session_key) AS visitors FROM tracking.page_views
           WHERE (occurred_at AT TIME ZONE 'Europe/Amsterdam')::date BETWEEN $1 AND $2`,
          [from, to],
        )
      )[0]!;
    const e30 = await exact("2026-10-20", "2026-11-18");
    expect(thirty.totals.pageViews).toBe(Number(e30.views));
    near(thirty.totals.visitors, Number(e30.visitors));

    const half = await analytics("2026-10-15", "2027-04-01");
    expect(half.bucket).toBe("month");
    expect(half.series.map((b) => b.start)).toEqual([
      "2026-10-14T22:00:00.000Z", // the period's start: a partial first month
      "2026-10-31T23:00:00.000Z",
      "2026-11-30T23:00:00.000Z",
      "2026-12-31T23:00:00.000Z",
      "2027-01-31T23:00:00.000Z",
      "2027-02-28T23:00:00.000Z",
      "2027-03-31T22:00:00.000Z",
    ]);
    const all = await exact("2026-10-15", "2027-04-01");
    expect(half.totals.pageViews).toBe(Number(all.views));
    near(half.totals.visitors, Number(all.visitors));
    const december = await exact("2026-12-01", "2026-12-31");
    expect(half.series[2]!.pageViews).toBe(Number(december.views));
    near(half.series[2]!.visitors, Number(december.visitors));

    const top = await rows<{ path: string; views: string; visitors: string }>(
      `SELECT p.path, count(*) AS views, count(DISTINCT v.session_key) AS visitors
       FROM tracking.page_views v JOIN tracking.pages p ON p.id = v.page_id
       WHERE (v.occurred_at AT TIME ZONE 'Europe/Amsterdam')::date BETWEEN '2026-10-15' AND '2027-04-01'
       GROUP BY p.path ORDER BY count(*) DESC, p.path`,
    );
    expect(half.topPages.map((p) => [p.page, p.views])).toEqual(top.map((t) => [t.path, Number(t.views)]));
    for (const [i, page] of half.topPages.entries()) near(page.visitors, Number(top[i]!.visitors), 0.05);
  });

  it("reads whole weeks from week sketches, the same as from their day sketches, also before they are built", async () => {
    // 2-29 November 2026: four whole ISO weeks, each one week piece of November.
    const weeks = await rows<{ period: string }>(
      `SELECT to_char(period, 'YYYY-MM-DD') AS period FROM tracking.sketches
       WHERE kind = 'w' AND scope = 0 AND period BETWEEN '2026-11-02' AND '2026-11-29' ORDER BY period`,
    );
    expect(weeks.map((w) => w.period)).toEqual(["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"]);
    const exact = (
      await rows<{ visitors: string }>(
        `SELECT count(DISTINCT session_key) AS visitors FROM tracking.page_views
         WHERE (occurred_at AT TIME ZONE 'Europe/Amsterdam')::date BETWEEN '2026-11-02' AND '2026-11-29'`,
      )
    )[0]!;
    const fromWeeks = await analytics("2026-11-02", "2026-11-29");
    near(fromWeeks.totals.visitors, Number(exact.visitors));
    // As migration 0015 leaves a month of before: no week sketches and a 'p' row. Readers take the
    // day sketches meanwhile, and buildPendingWeeks builds the same sketches again.
    const before = await rows<{ period: string; scope: number; regs: Buffer }>(
      `SELECT to_char(period, 'YYYY-MM-DD') AS period, scope, regs FROM tracking.sketches
       WHERE kind = 'w' AND period >= '2026-11-01' AND period < '2026-12-01' ORDER BY period, scope`,
    );
    await db.query(
      `DELETE FROM tracking.sketches WHERE kind = 'w' AND period >= '2026-11-01' AND period < '2026-12-01'`,
    );
    await db.query(`INSERT INTO tracking.sketches VALUES ('p', '2026-11-01', 0, '\\x'::bytea)`);
    const fromDays = await analytics("2026-11-02", "2026-11-29");
    expect(fromDays.totals).toEqual(fromWeeks.totals);
    expect(fromDays.topPages).toEqual(fromWeeks.topPages);
    expect(await buildPendingWeeks(db)).toBe(1);
    expect(await rows("SELECT 1 FROM tracking.sketches WHERE kind = 'p'")).toEqual([]);
    const rebuilt = await rows<{ period: string; scope: number; regs: Buffer }>(
      `SELECT to_char(period, 'YYYY-MM-DD') AS period, scope, regs FROM tracking.sketches
       WHERE kind = 'w' AND period >= '2026-11-01' AND period < '2026-12-01' ORDER BY period, scope`,
    );
    expect(rebuilt.map((r) => [r.period, r.scope, Hll.deserialize(r.regs).estimate()])).toEqual(
      before.map((r) => [r.period, r.scope, Hll.deserialize(r.regs).estimate()]),
    );
    expect((await analytics("2026-11-02", "2026-11-29")).totals).toEqual(fromWeeks.totals);
  });

  it("keeps the old live counters working from the same rollups", async () => {
    h.clock.ms = Date.parse("2026-11-18T14:00:00Z");
    try {
      const series = await h.get<{ buckets: { start: string; pageViews: number; visitors: number }[] }>(
        "/api/admin/visitor-series?range=7d",
      );
      const daily = await rows<{ views: number; visitors: number }>(
        "SELECT views, visitors FROM tracking.daily WHERE day = '2026-11-18'",
      );
      expect(series.buckets.at(-1)).toEqual({
        start: "2026-11-17T23:00:00.000Z",
        pageViews: daily[0]!.views,
        visitors: daily[0]!.visitors,
      });
      const stats = await h.get<{ todayTotal: number; thisWeekTotal: number }>("/api/admin/visitor-stats");
      expect(stats.todayTotal).toBe(daily[0]!.visitors);
      const week = await rows<{ n: string }>(
        `SELECT count(DISTINCT session_key) AS n FROM tracking.page_views
         WHERE (occurred_at AT TIME ZONE 'Europe/Amsterdam')::date BETWEEN '2026-11-16' AND '2026-11-18'`,
      );
      near(stats.thisWeekTotal, Number(week[0]!.n));
    } finally {
      h.clock.ms = NOW;
    }
  });

  it("refuses periods it cannot answer with a Dutch 400", async () => {
    const ask = async (query: string) =>
      fetch(`${h.svc.url}/api/admin/analytics?${query}`, { headers: { cookie: await h.adminCookie() } });
    for (const [query, message] of [
      ["from=2027-04-02&to=2027-04-01", "De begindatum ligt na de einddatum"],
      ["from=2027-04-01&to=2027-04-21", "De einddatum ligt in de toekomst; kies uiterlijk vandaag"],
      [
        "from=2025-02-19&to=2027-04-01",
        "Bezoekgegevens worden 26 maanden bewaard; kies een begindatum vanaf 20-02-2025",
      ],
      ["from=2027-02-30&to=2027-04-01", "Deze datum bestaat niet"],
      ["from=1-2-2027&to=2027-04-01", "Geef de datum op als JJJJ-MM-DD"],
      ["to=2027-04-01", "Geef een datum op (JJJJ-MM-DD)"],
    ] as const) {
      const res = await ask(query);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(message);
    }
    expect((await fetch(`${h.svc.url}/api/admin/analytics?from=2027-04-01&to=2027-04-01`)).status).toBe(401);
  });
});

describe("retention by whole months", () => {
  it("drops the months older than 26, trims the cutoff's month by day and forgets their rollups", async () => {
    const old = generate(
      3000,
      Date.parse("2024-12-20T00:00:00Z"),
      Date.parse("2025-03-05T00:00:00Z"),
      11,
      "r",
    );
    await write(old);
    // Conversions of a removed day go with it; one of a day kept stays.
    await db.query(
      `INSERT INTO tracking.conversions (lead_id, kind, occurred_at, day) VALUES
         ('00000000-0000-4000-8000-000000000001', 'quote', '2025-02-19T10:00:00Z', '2025-02-19'),
         ('00000000-0000-4000-8000-000000000002', 'contact', '2025-02-20T10:00:00Z', '2025-02-20')`,
    );
    const clock = new ManualClock(Date.parse("2027-04-20T10:00:00Z")); // keeps 20 February 2025 on
    const report = await runRetention(db, new Partitions(db), clock, 26);
    expect(
      (await rows<{ day: string }>("SELECT to_char(day, 'YYYY-MM-DD') AS day FROM tracking.conversions")).map(
        (r) => r.day,
      ),
    ).toEqual(["2025-02-20"]);
    expect(report.keepFrom).toBe("2025-02-20");
    expect(report.droppedMonths).toEqual(["2024-12-01", "2025-01-01"]);
    const months = await new Partitions(db).months();
    expect(months).not.toContain("2025-01-01");
    expect(months).toContain("2025-02-01");
    const left = await rows<{ first: Date; n: string }>(
      "SELECT min(occurred_at) AS first, count(*) AS n FROM tracking.page_views WHERE occurred_at < '2025-04-01'",
    );
    expect(left[0]!.first.getTime()).toBeGreaterThanOrEqual(Date.parse("2025-02-19T23:00:00Z"));
    expect(report.trimmedPageViews).toBeGreaterThan(0);
    const oldRollups = await rows<{ n: string }>(
      `SELECT (SELECT count(*) FROM tracking.daily WHERE day < '2025-02-20')
            + (SELECT count(*) FROM tracking.hourly WHERE hour < '2025-02-19T23:00:00Z')
            + (SELECT count(*) FROM tracking.sketches WHERE period < '2025-02-01') AS n`,
    );
    expect(oldRollups[0]!.n).toBe("0");
    const feb = await rows<{ views: string; raw: string }>(
      `SELECT (SELECT views FROM tracking.monthly WHERE month = '2025-02-01') AS views,
              (SELECT count(*) FROM tracking.page_views
               WHERE occurred_at >= '2025-01-31T23:00:00Z' AND occurred_at < '2025-02-28T23:00:00Z') AS raw`,
    );
    expect(feb[0]!.views).toBe(feb[0]!.raw); // the cutoff's month counts only what is left of it
    // The campaign report's running totals (migration 0009) forget the days gone, and February's
    // last day sums only the days left, per channel and campaign.
    const running = await rows<{ before: string; off: string; values: string }>(
      `SELECT (SELECT count(*) FROM tracking.report_running_dims WHERE day < '2025-02-20') AS before,
              (SELECT count(*) FROM tracking.report_running_dims WHERE day = '2025-02-28') AS values,
              (SELECT count(*) FROM tracking.report_running_dims r
                 FULL JOIN (SELECT dim, value_id, sum(visitors) AS visitors FROM tracking.daily_dims
                             WHERE day BETWEEN '2025-02-01' AND '2025-02-28' AND dim IN (1, 3) GROUP BY 1, 2) d
                   ON d.dim = r.dim AND d.value_id = r.value_id
                WHERE (r.day = '2025-02-28' OR r.day IS NULL) AND r.visitors IS DISTINCT FROM d.visitors) AS off`,
    );
    expect(running[0]).toMatchObject({ before: "0", off: "0" });
    expect(Number(running[0]!.values)).toBeGreaterThan(0);
    // Run again the same day: nothing more to do.
    const again = await runRetention(db, new Partitions(db), clock, 26);
    expect(again).toMatchObject({
      droppedMonths: [],
      trimmedPageViews: 0,
      trimmedVisitors: 0,
      rollupRows: 0,
    });
  });
});

describe("a visit split between two batches", () => {
  // A visit that lands from a campaign and goes on to another page, its two views in two batches.
  // Its visitor row takes the campaign from its earliest view; the breakdowns count the visit once,
  // with the batch that made the row. Written out of order, the later view's batch makes the row and
  // counts the visit without the campaign, and the earlier batch cannot take that back (sketches).
  const view = (campaign: string, id: string, page: string, at: Date): TrackEvent => ({
    eventId: `${campaign}-${id}`,
    sessionId: `${campaign}-sessie`,
    isView: true,
    page,
    referrer: null,
    userAgent: null,
    country: null,
    city: null,
    at,
  });
  // Each test on a day of its own (Amsterdam time).
  const landing = (campaign: string, day: string) =>
    view(
      campaign,
      "1",
      `/?utm_source=google&utm_medium=cpc&utm_campaign=${campaign}`,
      new Date(`${day}T09:00:00Z`),
    );
  const later = (campaign: string, day: string) =>
    view(campaign, "2", "/over-ons", new Date(`${day}T09:05:00Z`));
  /** The day's visitors and views under the campaign and under channel Direct. */
  const breakdowns = async (campaign: string, day: string) => {
    const [row] = await rows<{ campaign: number; campaignViews: number; direct: number }>(
      `SELECT coalesce(sum(d.visitors) FILTER (WHERE d.dim = 3 AND v.value = $2), 0)::int AS campaign,
              coalesce(sum(d.views) FILTER (WHERE d.dim = 3 AND v.value = $2), 0)::int AS "campaignViews",
              coalesce(sum(d.visitors) FILTER (WHERE d.dim = 1 AND v.value = 'Direct'), 0)::int AS direct
       FROM tracking.daily_dims d JOIN tracking.dim_values v ON v.id = d.value_id
       WHERE d.day = $1::date AND d.dim IN (1, 3)`,
      [day, JSON.stringify(["google", "cpc", campaign])],
    );
    return row;
  };

  it("is counted under its landing page's campaign when the later batch waits for the earlier one", async () => {
    let earlierDone!: () => void;
    const earlier = new Promise<void>((resolve) => (earlierDone = resolve));
    // The later batch is ready first, but its transaction waits for the earlier one's commit.
    const second = insertBatch(deps, [later("volgorde", "2027-04-12")], { after: earlier });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = await rows("SELECT 1 FROM tracking.visitors WHERE day = '2027-04-12'");
    expect(written).toHaveLength(0);
    await insertBatch(deps, [landing("volgorde", "2027-04-12")]);
    earlierDone();
    expect(await second).toEqual({ written: 1, duplicates: 0 });
    expect(await breakdowns("volgorde", "2027-04-12")).toEqual({ campaign: 1, campaignViews: 2, direct: 0 });
  });

  it("is so too when the later batch inserts its page views while the earlier one is still open", async () => {
    let earlierDone!: () => void;
    const earlier = new Promise<void>((resolve) => (earlierDone = resolve));
    // The earlier batch's page views are in (viewsAfter): the later one's transaction begins, inserts
    // its page view (and checks it against packed months) and waits, open, for the earlier one's
    // commit before its visitor row.
    const second = insertBatch(deps, [later("samen", "2027-04-14")], {
      after: earlier,
      viewsAfter: Promise.resolve(),
    });
    const waiting = async () =>
      rows(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
         AND state = 'idle in transaction' AND query LIKE '%FROM tracking.page_view_days_m%'`,
      );
    for (let i = 0; i < 100 && (await waiting()).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await waiting()).toHaveLength(1);
    await insertBatch(deps, [landing("samen", "2027-04-14")]);
    earlierDone();
    expect(await second).toEqual({ written: 1, duplicates: 0 });
    expect(await breakdowns("samen", "2027-04-14")).toEqual({ campaign: 1, campaignViews: 2, direct: 0 });
  });

  it("is not, written out of order (why the import commits its batches in order)", async () => {
    await insertBatch(deps, [later("andersom", "2027-04-13")]);
    await insertBatch(deps, [landing("andersom", "2027-04-13")]);
    expect(await breakdowns("andersom", "2027-04-13")).toEqual({ campaign: 0, campaignViews: 1, direct: 1 });
  });
});

describe("npm run tracking:import", () => {
  const lines = [
    JSON.stringify({
      id: "imp-1",
      at: "2027-01-05T09:00:00Z",
      session: "umami-a",
      page: "/?utm_source=x",
      referrer: "https://www.google.nl/",
    }),
    JSON.stringify({
      id: "imp-2",
      at: "2027-01-05T09:01:00+01:00",
      session: "umami-a",
      page: "/financiele-lease",
    }),
    "{not json",
    JSON.stringify({ id: "imp-3", at: "yesterday", session: "umami-b", page: "/" }),
    "",
    JSON.stringify({ id: "imp-4", at: "2027-01-05T10:00:00Z", session: "umami-b", page: "over-ons" }),
    JSON.stringify({
      id: "imp-5",
      at: "2027-01-06T10:00:00Z",
      session: "umami-b",
      page: "/over-ons",
      extra: 1,
    }),
    JSON.stringify({ id: "imp-6", at: "2020-01-06T10:00:00Z", session: "umami-c", page: "/" }),
    JSON.stringify({ id: "imp-7", at: "2027-01-06T11:00:00Z", session: "umami-c", page: "/over-ons" }),
  ].join("\n");

  it("writes good lines, reports bad ones by number, and changes nothing the second time", async () => {
    const reported: string[] = [];
    const run = () =>
      importVisits(db, Readable.from([lines]), {
        retentionMonths: 26,
        now: NOW,
        report: (m) => reported.push(m),
      });
    const first = await run();
    expect(first).toEqual({ lines: 9, written: 3, duplicates: 0, tooOld: 1, bad: 4 });
    expect(reported).toEqual([
      "regel 3: geen geldige JSON",
      "regel 4: at moet een ISO-8601-tijdstip zijn, bijv. 2025-03-01T10:15:00Z",
      'regel 6: page moet met "/" beginnen',
      "regel 7: onbekend veld: extra",
    ]);
    const day = await rows<{ views: number; visitors: number }>(
      "SELECT views, visitors FROM tracking.daily WHERE day = '2027-01-05'",
    );
    const second = await run();
    expect(second).toEqual({ lines: 9, written: 0, duplicates: 3, tooOld: 1, bad: 4 });
    expect(
      await rows<{ views: number; visitors: number }>(
        "SELECT views, visitors FROM tracking.daily WHERE day = '2027-01-05'",
      ),
    ).toEqual(day);
    const res = await analytics("2027-01-05", "2027-01-06");
    expect(res.totals.pageViews).toBeGreaterThanOrEqual(3);
  });

  // Two commands, each built into its bundle on first use (a fresh clone) and started as a process:
  // seconds here, but a loaded CI host took over 30 s, so this test has a limit of its own.
  it(
    "runs as a command on stdin: a summary, bad lines by number, exit code 1 for them",
    { timeout: 120_000 },
    async () => {
      // The command reads this machine's clock: lines from before today.
      const cli = [
        JSON.stringify({ id: "cli-1", at: "2026-01-07T08:00:00Z", session: "cli-a", page: "/" }),
        "{",
        JSON.stringify({ id: "cli-2", at: "2026-01-07T08:05:00Z", session: "cli-a", page: "/over-ons" }),
        JSON.stringify({ id: "cli-1", at: "2026-01-07T08:00:00Z", session: "cli-a", page: "/" }),
      ].join("\n");
      const [importArgs, retentionArgs] = await Promise.all([
        entryArgs("services/tracking/src/cli/import.ts"),
        entryArgs("services/tracking/src/cli/retention.ts"),
      ]);
      const env = { ...process.env, DATABASE_URL: h.db.url };
      const run = await runProcess(process.execPath, importArgs, { cwd: ROOT, env, stdin: `${cli}\n` });
      expect(run.err).toContain("regel 2: geen geldige JSON");
      expect(run.out).toContain("Klaar: 4 regels, 2 paginaweergaven opgeslagen, 1 waren er al");
      expect(run.code).toBe(1);
      const retention = await runProcess(process.execPath, retentionArgs, { cwd: ROOT, env });
      expect(retention.out).toMatch(/Bewaartermijn 26 maanden: alles vanaf \d{2}-\d{2}-\d{4} blijft\./);
      expect(retention.code).toBe(0);
    },
  );
});
