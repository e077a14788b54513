import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { Analytics, StageJobData } from "@lease/contracts";
import { ManualClock, startHarness, type Harness } from "../testing";
import { insertBatch, writerDeps, type TrackEvent, type WriterDeps } from "./page-views";
import { compactAll } from "./sketches";
import { ConversionRecorder } from "./conversions";
import { leadStagesRepository, type LeadStagesRepository } from "./lead-stages";

// Where visits came from, broken down for any period, checked against the visitor rows the writer
// stored (one per visitor and day, with the profile of the day's first view).
const NOW = Date.parse("2026-11-20T15:00:00Z");
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

let h: Harness;
let db: pg.Pool;
let deps: WriterDeps;
beforeAll(async () => {
  h = await startHarness({}, new ManualClock(NOW));
  db = new pg.Pool({ connectionString: h.db.url, max: 4 });
  deps = writerDeps(db);
});
afterAll(async () => {
  await db?.end();
  await h?.close();
});

let n = 0;
function visit(at: string, session: string, page: string, extra: Partial<TrackEvent> = {}): TrackEvent {
  return {
    eventId: `b-${++n}`,
    sessionId: session,
    isView: true,
    page,
    referrer: null,
    userAgent: CHROME,
    country: "NL",
    city: "Amsterdam",
    at: new Date(at),
    ...extra,
  };
}
/** A row or total without conversions (the forms and their conversions: tests/system/attribution.test.ts). */
const NONE = { quotes: 0, contacts: 0, conversions: 0, conversionRate: 0 };
const analytics = (from: string, to: string) =>
  h.get<Analytics>(`/api/admin/analytics?from=${from}&to=${to}`);

describe("breakdowns of a period", () => {
  beforeAll(async () => {
    const events: TrackEvent[] = [
      // The campaign of the issue: a paid click on an ad for the financial-lease page.
      visit(
        "2026-11-20T09:00:00Z",
        "s-ad",
        "/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=najaar&gclid=X",
        { referrer: "https://www.google.com/" },
      ),
      visit("2026-11-20T09:02:00Z", "s-ad", "/financiele-lease"),
      visit("2026-11-20T09:05:00Z", "s-ad", "/over-ons"),
      visit("2026-11-20T10:00:00Z", "s-organic", "/", { referrer: "https://www.google.nl/search" }),
      visit("2026-11-20T10:01:00Z", "s-direct", "/", { userAgent: IPHONE, country: "BE" }),
      visit("2026-11-20T11:00:00Z", "s-fb", "/operationele-lease?fbclid=abc", {
        referrer: "https://l.facebook.com/",
        userAgent: IPHONE,
      }),
      visit("2026-11-20T12:00:00Z", "s-mail", "/?utm_source=nieuwsbrief&utm_medium=email&utm_campaign=nov", {
        country: null,
        userAgent: null,
      }),
      // The day before: the ad visitor came through the organic results first.
      visit("2026-11-19T08:00:00Z", "s-ad", "/", { referrer: "https://www.google.nl/" }),
      visit("2026-11-19T08:00:30Z", "s-other", "/zakelijke-lease", { referrer: "https://autoscout24.nl/x" }),
    ];
    await insertBatch(deps, events.slice(0, 4));
    await insertBatch(deps, events.slice(4));
    await compactAll(db);
  });

  it("counts the paid click of a campaign as Paid Search, with its campaign and landing page", async () => {
    const day = await analytics("2026-11-20", "2026-11-20");
    expect(day.channels).toEqual([
      { value: "Direct", visitors: 1, pageViews: 1, ...NONE },
      { value: "Email", visitors: 1, pageViews: 1, ...NONE },
      { value: "Organic Search", visitors: 1, pageViews: 1, ...NONE },
      { value: "Organic Social", visitors: 1, pageViews: 1, ...NONE },
      { value: "Paid Search", visitors: 1, pageViews: 3, ...NONE },
    ]);
    expect(day.campaigns).toEqual([
      {
        value: "google / cpc / najaar",
        source: "google",
        medium: "cpc",
        campaign: "najaar",
        visitors: 1,
        pageViews: 3,
        ...NONE,
      },
      {
        value: "nieuwsbrief / email / nov",
        source: "nieuwsbrief",
        medium: "email",
        campaign: "nov",
        visitors: 1,
        pageViews: 1,
        ...NONE,
      },
    ]);
    expect(day.landingPages).toEqual([
      { value: "/", visitors: 3, pageViews: 3, ...NONE },
      { value: "/financiele-lease", visitors: 1, pageViews: 3, ...NONE },
      { value: "/operationele-lease", visitors: 1, pageViews: 1, ...NONE },
    ]);
    expect(day.landingPages.map((r) => r.value)).not.toContain("/over-ons");
    expect(day.sources.map((r) => r.value).sort()).toEqual(
      ["(direct)", "l.facebook.com", "google", "google.nl", "nieuwsbrief"].sort(),
    );
    expect(day.countries).toEqual([
      { value: "NL", visitors: 3, pageViews: 5, ...NONE },
      { value: "(onbekend)", visitors: 1, pageViews: 1, ...NONE },
      { value: "BE", visitors: 1, pageViews: 1, ...NONE },
    ]);
    expect(day.devices).toEqual([
      { value: "desktop", visitors: 2, pageViews: 4, ...NONE },
      { value: "mobile", visitors: 2, pageViews: 2, ...NONE },
      { value: "(onbekend)", visitors: 1, pageViews: 1, ...NONE },
    ]);
    expect(day.browsers.find((b) => b.value === "Safari")).toEqual({
      value: "Safari",
      visitors: 2,
      pageViews: 2,
      ...NONE,
    });
  });

  it("counts a visitor of two days once over both, in each day's channel", async () => {
    const two = await analytics("2026-11-19", "2026-11-20");
    expect(two.totals).toEqual({ visitors: 6, pageViews: 9, ...NONE });
    expect(two.channels.find((c) => c.value === "Organic Search")).toEqual({
      value: "Organic Search",
      visitors: 2, // s-ad on the 19th, s-organic on the 20th
      pageViews: 2,
      ...NONE,
    });
    expect(two.channels.find((c) => c.value === "Referral")).toEqual({
      value: "Referral",
      visitors: 1,
      pageViews: 1,
      ...NONE,
    });
    // The breakdown rows add up to the visits of each day, from the visitor rows themselves.
    const raw = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM tracking.visitors WHERE day BETWEEN '2026-11-19' AND '2026-11-20'`,
    );
    expect(two.channels.reduce((sum, c) => sum + c.visitors, 0)).toBe(Number(raw.rows[0]!.n));
  });

  it("compares the period with the one of the same length before it", async () => {
    const day = await analytics("2026-11-20", "2026-11-20");
    expect(day.previous).toEqual({
      from: "2026-11-19",
      to: "2026-11-19",
      totals: { visitors: 2, pageViews: 2, ...NONE },
    });
    expect(day.change).toEqual({ visitors: 150, pageViews: 250, conversions: null });
    const earlier = await analytics("2026-11-10", "2026-11-18");
    expect(earlier.change).toEqual({ visitors: null, pageViews: null, conversions: null });
  });

  it("an import folds the campaigns beyond a day's first 100 into (overig) (live traffic: value-admission.test.ts)", async () => {
    const spam = Array.from({ length: 150 }, (_, i) =>
      visit("2026-11-18T09:00:00Z", `s-spam-${i}`, `/?utm_source=spam&utm_medium=cpc&utm_campaign=c${i}`),
    );
    await insertBatch(deps, spam);
    const values = await db.query<{ n: string }>(
      `SELECT count(DISTINCT utm_campaign) AS n FROM tracking.profiles WHERE utm_source = 'spam'`,
    );
    expect(Number(values.rows[0]!.n)).toBe(101);
    const day = await analytics("2026-11-18", "2026-11-18");
    expect(day.campaigns[0]).toMatchObject({ campaign: "(overig)", visitors: 50 });
    expect(day.campaigns).toHaveLength(10);
  });
});

// A quote request's stages (offerte, getekend, verloren) are counted for the campaign of
// its visit, on the day the lead arrived (cohort), whichever job of the two comes first.
describe("a lead's stages in the campaign rollups", () => {
  const lente = JSON.stringify(["facebook", "paid_social", "lente"]);
  const at = new Date("2026-11-12T10:00:00Z");
  let recorder: ConversionRecorder;
  let stages: LeadStagesRepository;
  beforeAll(async () => {
    await insertBatch(deps, [
      visit(
        "2026-11-12T09:50:00Z",
        "s-lente-1",
        "/?utm_source=facebook&utm_medium=paid_social&utm_campaign=lente",
      ),
      visit(
        "2026-11-12T09:51:00Z",
        "s-lente-2",
        "/?utm_source=facebook&utm_medium=paid_social&utm_campaign=lente",
      ),
    ]);
    recorder = new ConversionRecorder(db, deps.profileDims);
    stages = leadStagesRepository(db, deps.profileDims);
  });
  const convert = async (leadId: string, sessionId: string) =>
    recorder.record(
      { source: "lease_request", leadId, sessionId, at },
      await recorder.visitDays(sessionId, at),
    );
  const stage = (sourceId: string, seq: number, status: StageJobData["status"], commissionCents = 0) =>
    stages.apply({
      source: "lease_request",
      sourceId,
      seq,
      status,
      offered: status !== "gereageerd",
      signed: status === "getekend",
      commissionCents,
    });
  const campaignRow = async () =>
    (
      await db.query(
        `SELECT d.quotes, d.offers, d.contracts, d.commission_cents::int AS commission,
                (SELECT offers FROM tracking.monthly_dims m WHERE m.month = '2026-11-01' AND m.dim = d.dim AND m.value_id = d.value_id) AS month_offers
           FROM tracking.daily_dims d JOIN tracking.dim_values v ON v.id = d.value_id AND v.dim = d.dim
          WHERE d.day = '2026-11-12' AND v.dim = 3 AND v.value = $1`,
        [lente],
      )
    ).rows[0];

  it("moves the counts with each newer stage, ignores older ones, and counts a stage heard before its conversion once it arrives", async () => {
    const a = "0b0c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c1";
    const b = "0b0c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c2";
    await convert(a, "s-lente-1");
    expect(await stage(a, 1, "offerte")).toBe("counted");
    expect(await stage(a, 2, "getekend", 120000)).toBe("counted");
    expect(await stage(a, 1, "offerte")).toBe("stale");
    expect(await campaignRow()).toEqual({
      quotes: 1,
      offers: 1,
      contracts: 1,
      commission: 120000,
      month_offers: 1,
    });

    // The second lead's stage comes before its conversion: it waits, then counts on the lead's day.
    expect(await stage(b, 1, "verloren")).toBe("waiting");
    expect(await campaignRow()).toMatchObject({ quotes: 1, offers: 1 });
    await convert(b, "s-lente-2");
    await convert(b, "s-lente-2"); // redelivered: nothing twice
    expect(await campaignRow()).toEqual({
      quotes: 2,
      offers: 2,
      contracts: 1,
      commission: 120000,
      month_offers: 2,
    });

    // Back to gereageerd (a correction) takes the contract and its commission back.
    await stage(a, 3, "gereageerd");
    expect(await campaignRow()).toEqual({
      quotes: 2,
      offers: 1,
      contracts: 0,
      commission: 0,
      month_offers: 1,
    });
    const day = (await db.query("SELECT offers, contracts FROM tracking.daily WHERE day = '2026-11-12'"))
      .rows[0];
    expect(day).toEqual({ offers: 1, contracts: 0 });
  });
});
