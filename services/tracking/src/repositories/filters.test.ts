import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { Analytics } from "@lease/contracts";
import { runRetention } from "../domain/retention";
import { ManualClock, startHarness, type Harness } from "../testing";
import { insertBatch, writerDeps, type TrackEvent, type WriterDeps } from "./page-views";
import { Partitions } from "./partitions";
import { compactAll } from "./sketches";

// Filtered analytics (channel, campaign, landing page) against counts over the visitor rows and page
// views the writer stored for generated visits: a visit is one session on one Amsterdam day, with
// the channel, campaign and landing page of its first page view that day.
const NOW = Date.parse("2026-11-20T15:00:00Z");
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** Where a visit lands and from where: Paid Search, Email, Organic Search, Direct, Paid Social, Referral. */
const LANDINGS: [page: string, referrer: string | null][] = [
  [
    "/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=najaar&gclid=X",
    "https://www.google.com/",
  ],
  ["/?utm_source=nieuwsbrief&utm_medium=email&utm_campaign=nov", null],
  ["/", "https://www.google.nl/search"],
  ["/", null],
  ["/financiele-lease", null],
  [
    "/operationele-lease?utm_source=facebook&utm_medium=paid_social&utm_campaign=najaar",
    "https://l.facebook.com/",
  ],
  ["/zakelijke-lease", "https://autoscout24.nl/x"],
];
const LATER_PAGES = ["/over-ons", "/financiele-lease", "/contact", "/"];

let h: Harness;
let db: pg.Pool;
let deps: WriterDeps;

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** Visits of `sessions` sessions on random days between two instants, 1-4 views each, in time order. */
function generate(sessions: number, from: number, to: number, seed: number): TrackEvent[] {
  const next = random(seed);
  const events: TrackEvent[] = [];
  let n = 0;
  for (let s = 0; s < sessions; s++) {
    const session = `f-s${seed}-${s}`;
    const ua = next() < 0.5 ? CHROME : IPHONE;
    for (let v = 0, visits = 1 + Math.floor(next() * 3); v < visits; v++) {
      const day = from + Math.floor(next() * ((to - from) / 86_400_000)) * 86_400_000;
      const start = day + (7 + Math.floor(next() * 10)) * 3_600_000 + Math.floor(next() * 3_000_000);
      if (start > NOW) continue;
      const [page, referrer] = LANDINGS[Math.floor(next() * LANDINGS.length)]!;
      const views = 1 + Math.floor(next() * 4);
      for (let i = 0; i < views; i++)
        events.push({
          eventId: `f-${seed}-${++n}`,
          sessionId: session,
          isView: true,
          page: i === 0 ? page : LATER_PAGES[Math.floor(next() * LATER_PAGES.length)]!,
          referrer: i === 0 ? referrer : null,
          userAgent: ua,
          country: "NL",
          city: null,
          at: new Date(Math.min(NOW, start + i * 90_000)),
        });
    }
  }
  return events.sort((a, b) => a.at.getTime() - b.at.getTime());
}

beforeAll(async () => {
  h = await startHarness({ RETENTION_MONTHS: "26" }, new ManualClock(NOW));
  db = new pg.Pool({ connectionString: h.db.url, max: 4 });
  deps = writerDeps(db);
  // July to today: whole months (August to October), loose days and the periods before them.
  const events = generate(700, Date.parse("2026-07-01T00:00:00Z"), Date.parse("2026-11-21T00:00:00Z"), 7);
  for (let i = 0; i < events.length; i += 400) await insertBatch(deps, events.slice(i, i + 400));
  await compactAll(db);
}, 120_000);
afterAll(async () => {
  await db?.end();
  await h?.close();
});

const analytics = (query: string) => h.get<Analytics>(`/api/admin/analytics?${query}`);

/** SQL over the visitor rows: the visits of a period matching a condition on profile p and page lp. */
const VISITS = `FROM tracking.visitors v JOIN tracking.profiles p ON p.id = v.profile_id
                JOIN tracking.pages lp ON lp.id = v.landing_page_id`;

interface Expected {
  visits: number;
  views: number;
}

async function exact(from: string, to: string, where: string, params: unknown[] = []): Promise<Expected> {
  const r = await db.query<{ visits: string; views: string | null }>(
    `SELECT count(*) AS visits, sum(v.views) AS views ${VISITS}
     WHERE v.day BETWEEN $1 AND $2 AND ${where}`,
    [from, to, ...params],
  );
  return { visits: Number(r.rows[0]!.visits), views: Number(r.rows[0]!.views ?? 0) };
}

async function exactBy(
  group: string,
  from: string,
  to: string,
  where: string,
  params: unknown[] = [],
): Promise<Map<string, Expected>> {
  const r = await db.query<{ key: string; visits: string; views: string }>(
    `SELECT ${group} AS key, count(*) AS visits, sum(v.views) AS views ${VISITS}
     WHERE v.day BETWEEN $1 AND $2 AND ${where} GROUP BY 1`,
    [from, to, ...params],
  );
  return new Map(r.rows.map((row) => [row.key, { visits: Number(row.visits), views: Number(row.views) }]));
}

const asMap = (rows: { value: string; visitors: number; pageViews: number }[]) =>
  new Map(rows.map((r) => [r.value, { visits: r.visitors, views: r.pageViews }]));

describe("analytics narrowed by a filter", () => {
  it("narrows totals, the daily series, the previous period and the breakdowns to a channel", async () => {
    const from = "2026-10-10";
    const to = "2026-11-20";
    const where = "p.channel = 'Paid Search'";
    const got = await analytics(`from=${from}&to=${to}&channel=Paid%20Search`);
    const want = await exact(from, to, where);
    expect(want.visits).toBeGreaterThan(10);
    expect(got.bucket).toBe("day");
    expect(got.totals).toMatchObject({ visitors: want.visits, pageViews: want.views });
    const days = await exactBy("to_char(v.day, 'YYYY-MM-DD')", from, to, where);
    expect(got.series).toHaveLength(42);
    for (const point of got.series) {
      const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(
        new Date(point.start),
      );
      const w = days.get(day) ?? { visits: 0, views: 0 };
      expect([day, point.visitors, point.pageViews]).toEqual([day, w.visits, w.views]);
    }
    expect(got.previous.totals).toMatchObject(await exactTotals(got.previous.from, got.previous.to, where));
    expect(got.channels).toEqual([expect.objectContaining({ value: "Paid Search", visitors: want.visits })]);
    expect(asMap(got.landingPages)).toEqual(await exactBy("lp.path", from, to, where));
    expect(got.campaigns).toEqual([
      expect.objectContaining({
        value: "google / cpc / najaar",
        source: "google",
        medium: "cpc",
        campaign: "najaar",
        visitors: want.visits,
        pageViews: want.views,
      }),
    ]);
    expect(got.topPages).toEqual([]);
    // The unfiltered read of the same period counts more.
    const all = await analytics(`from=${from}&to=${to}`);
    expect(all.totals.pageViews).toBeGreaterThan(got.totals.pageViews);
  });

  it("matches a campaign by name over every source, or one row of it with source and medium", async () => {
    const from = "2026-07-01";
    const to = "2026-11-20";
    const byName = await analytics(`from=${from}&to=${to}&campaign=najaar`);
    expect(byName.bucket).toBe("month");
    const where = "p.utm_campaign = 'najaar'";
    const want = await exact(from, to, where);
    expect(byName.totals).toMatchObject({ visitors: want.visits, pageViews: want.views });
    expect(asMap(byName.channels)).toEqual(await exactBy("p.channel", from, to, where));
    expect(byName.channels.map((c) => c.value).sort()).toEqual(["Paid Search", "Paid Social"]);
    expect(
      new Map(byName.campaigns.map((r) => [r.source, { visits: r.visitors, views: r.pageViews }])),
    ).toEqual(await exactBy("p.utm_source", from, to, where));
    // Month buckets: each month (whole or loose days) is the sum of its days' visits.
    const months = await exactBy("to_char(date_trunc('month', v.day), 'YYYY-MM')", from, to, where);
    expect(byName.series.map((s) => [s.start.slice(0, 7), s.visitors, s.pageViews])).toEqual(
      byName.series.map((s) => {
        const month = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" })
          .format(new Date(s.start))
          .slice(0, 7);
        const w = months.get(month) ?? { visits: 0, views: 0 };
        return [s.start.slice(0, 7), w.visits, w.views];
      }),
    );

    const row = await analytics(
      `from=${from}&to=${to}&campaign=najaar&campaignSource=facebook&campaignMedium=paid_social`,
    );
    const one = await exact(from, to, "p.utm_campaign = 'najaar' AND p.utm_source = 'facebook'");
    expect(one.visits).toBeGreaterThan(0);
    expect(row.totals).toMatchObject({ visitors: one.visits, pageViews: one.views });
    expect(row.channels.map((c) => c.value)).toEqual(["Paid Social"]);
  });

  it("combines two filters with AND", async () => {
    const from = "2026-09-01";
    const to = "2026-11-20";
    const got = await analytics(`from=${from}&to=${to}&channel=Direct&page=%2Ffinanciele-lease`);
    const where = "p.channel = 'Direct' AND lp.path = '/financiele-lease'";
    const want = await exact(from, to, where);
    expect(want.visits).toBeGreaterThan(0);
    expect(got.totals).toMatchObject({ visitors: want.visits, pageViews: want.views });
    expect(got.landingPages.map((r) => r.value)).toEqual(["/financiele-lease"]);
    expect(got.channels.map((r) => r.value)).toEqual(["Direct"]);
    expect(asMap(got.devices)).toEqual(await exactBy("p.device", from, to, where));
    // Either filter alone counts at least as many.
    const direct = await analytics(`from=${from}&to=${to}&channel=Direct`);
    const page = await analytics(`from=${from}&to=${to}&page=%2Ffinanciele-lease`);
    expect(direct.totals.visitors).toBe((await exact(from, to, "p.channel = 'Direct'")).visits);
    expect(page.totals.visitors).toBe((await exact(from, to, "lp.path = '/financiele-lease'")).visits);
    expect(Math.min(direct.totals.visitors, page.totals.visitors)).toBeGreaterThan(got.totals.visitors);
  });

  it("counts the hours of a short period as the page views of the matching visits in each hour", async () => {
    const day = "2026-11-19";
    const got = await analytics(`from=${day}&to=${day}&channel=Organic%20Search`);
    expect(got.bucket).toBe("hour");
    const r = await db.query<{ hour: Date; views: string; visitors: string }>(
      `SELECT date_trunc('hour', pv.occurred_at) AS hour, count(*) AS views, count(DISTINCT pv.session_key) AS visitors
       FROM tracking.page_views pv JOIN tracking.visitors v
         ON v.session_key = pv.session_key AND v.day = (pv.occurred_at AT TIME ZONE 'Europe/Amsterdam')::date
       JOIN tracking.profiles p ON p.id = v.profile_id
       WHERE v.day = $1 AND p.channel = 'Organic Search' GROUP BY 1`,
      [day],
    );
    expect(r.rows.length).toBeGreaterThan(0);
    const want = new Map(
      r.rows.map((row) => [row.hour.toISOString(), [Number(row.visitors), Number(row.views)]]),
    );
    expect(got.series).toHaveLength(24);
    for (const point of got.series)
      expect([point.start, point.visitors, point.pageViews]).toEqual([
        point.start,
        ...(want.get(point.start) ?? [0, 0]),
      ]);
    const total = await exact(day, day, "p.channel = 'Organic Search'");
    expect(got.totals).toMatchObject({ visitors: total.visits, pageViews: total.views });
  });

  it("counts the conversions of the matching visits only", async () => {
    const visits = await db.query<{ profile_id: number; landing_page_id: number; channel: string }>(
      `SELECT v.profile_id, v.landing_page_id, p.channel ${VISITS}
       WHERE v.day = '2026-11-18' AND p.channel IN ('Paid Search', 'Email') ORDER BY p.channel`,
    );
    const paid = visits.rows.find((v) => v.channel === "Paid Search")!;
    const mail = visits.rows.find((v) => v.channel === "Email")!;
    expect(paid && mail).toBeTruthy();
    // Conversions as the leads relay records them: the form's day, the profile of the visit.
    await db.query(
      `INSERT INTO tracking.conversions (lead_id, kind, occurred_at, day, profile_id, landing_page_id) VALUES
       (gen_random_uuid(), 'quote', '2026-11-18T12:00:00Z', '2026-11-18', $1, $2),
       (gen_random_uuid(), 'contact', '2026-11-18T12:00:00Z', '2026-11-18', $1, $2),
       (gen_random_uuid(), 'quote', '2026-11-18T13:00:00Z', '2026-11-18', $3, $4),
       (gen_random_uuid(), 'quote', '2026-11-18T13:00:00Z', '2026-11-18', NULL, NULL)`,
      [paid.profile_id, paid.landing_page_id, mail.profile_id, mail.landing_page_id],
    );
    const got = await analytics("from=2026-11-01&to=2026-11-20&channel=Paid%20Search");
    expect(got.totals).toMatchObject({ quotes: 1, contacts: 1, conversions: 2 });
    expect(got.channels[0]).toMatchObject({ value: "Paid Search", quotes: 1, contacts: 1 });
    const none = await analytics("from=2026-11-01&to=2026-11-17&channel=Paid%20Search");
    expect(none.totals).toMatchObject({ quotes: 0, contacts: 0 });
  });

  it("answers nothing, not an error, for a value no visit had", async () => {
    for (const query of ["campaign=zomer", "page=%2Fbestaat-niet", "channel=Email&campaign=najaar"]) {
      const got = await analytics(`from=2026-11-01&to=2026-11-20&${query}`);
      expect(got.totals, query).toMatchObject({ visitors: 0, pageViews: 0 });
      expect(got.series.every((s) => s.visitors === 0 && s.pageViews === 0)).toBe(true);
      expect(got.channels).toEqual([]);
    }
  });

  it("refuses a bad filter with a Dutch 400", async () => {
    const ask = async (query: string) =>
      fetch(`${h.svc.url}/api/admin/analytics?from=2026-11-01&to=2026-11-20&${query}`, {
        headers: { cookie: await h.adminCookie() },
      });
    for (const [query, message] of [
      ["channel=Google", /^Onbekend kanaal; kies een van Direct, Organic Search/],
      ["channel=Direct&channel=Email", /^Onbekend kanaal/],
      ["campaign=" + "x".repeat(101), /^campaign mag hoogstens 100 tekens zijn$/],
      ["campaign=a%01b", /^campaign bevat ongeldige tekens$/],
      ["campaign=&channel=Direct", /^campaign mag niet leeg zijn$/],
      ["campaignSource=google", /^campaignSource en campaignMedium horen bij een campaign/],
      ["page=financiele-lease", /^page is het pad van een landingspagina/],
      ["page=%2F%3Fx%3D1", /^page is het pad van een landingspagina/],
      ["page=%2F" + "a".repeat(600), /^page mag hoogstens 512 tekens zijn$/],
    ] as const) {
      const res = await ask(query);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { message: string }).message, query).toMatch(message);
    }
  });

  it("fills the visit rollups of history stored before them (migration 0004) as the writer does", async () => {
    const tables = [
      "hourly_visits",
      "daily_visits",
      "monthly_visits",
      "daily_dim_pairs",
      "monthly_dim_pairs",
    ];
    const snapshot = async () =>
      Promise.all(
        tables.map(
          async (table) => (await db.query(`SELECT * FROM tracking.${table} ORDER BY 1, 2, 3, 4, 5`)).rows,
        ),
      );
    const written = await snapshot();
    expect(written.every((rows) => rows.length > 0)).toBe(true);
    const migration = readFileSync(
      fileURLToPath(new URL("../../migrations/0004_visit_rollups.sql", import.meta.url)),
      "utf8",
    );
    const backfill = migration
      .split("--> statement-breakpoint")
      .map((statement) => statement.trim())
      .filter((statement) => /^(--[^\n]*\n)*INSERT/.test(statement));
    expect(backfill).toHaveLength(5);
    await db.query(`TRUNCATE ${tables.map((t) => `tracking.${t}`).join(", ")}`);
    for (const statement of backfill) await db.query(statement);
    expect(await snapshot()).toEqual(written);
  });

  it("forgets the visit rollups of days retention removes", async () => {
    const before = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM tracking.daily_visits WHERE day < '2026-08-15'",
    );
    expect(Number(before.rows[0]!.n)).toBeGreaterThan(0);
    const hoursBefore = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM tracking.hourly_visits WHERE hour < '2026-08-14T22:00:00Z'",
    );
    expect(Number(hoursBefore.rows[0]!.n)).toBeGreaterThan(0);
    // 27 months later, with 26 kept: July and August 2026 go, 15 August is the cutoff's month.
    const clock = new ManualClock(Date.parse("2028-10-15T10:00:00Z"));
    await runRetention(db, new Partitions(db), clock, 26);
    const left = await db.query<{ days: string; months: string; aug: string; raw: string }>(
      `SELECT (SELECT count(*) FROM tracking.daily_visits WHERE day < '2026-08-15')
            + (SELECT count(*) FROM tracking.hourly_visits WHERE hour < '2026-08-14T22:00:00Z')
            + (SELECT count(*) FROM tracking.daily_dim_pairs WHERE day < '2026-08-15') AS days,
              (SELECT count(*) FROM tracking.monthly_visits WHERE month < '2026-08-01')
            + (SELECT count(*) FROM tracking.monthly_dim_pairs WHERE month < '2026-08-01') AS months,
              (SELECT coalesce(sum(visits), 0) FROM tracking.monthly_visits WHERE month = '2026-08-01') AS aug,
              (SELECT count(*) FROM tracking.visitors WHERE day >= '2026-08-01' AND day < '2026-09-01') AS raw`,
    );
    expect(left.rows[0]).toMatchObject({ days: "0", months: "0" });
    expect(left.rows[0]!.aug).toBe(left.rows[0]!.raw); // the cutoff's month counts only the days left
  });
});

async function exactTotals(from: string, to: string, where: string) {
  const e = await exact(from, to, where);
  return { visitors: e.visits, pageViews: e.views };
}
