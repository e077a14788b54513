import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Redis } from "ioredis";
import { CampaignReport, type Analytics } from "@lease/contracts";
import { keyspace } from "@lease/platform";
import { DEFAULT_ADMISSION } from "../domain/admission";
import { BROWSER_UA, ManualClock, startHarness, type Harness } from "../testing";
import { ConversionRecorder } from "./conversions";
import { leadStagesRepository } from "./lead-stages";
import { insertBatch, writerDeps, type TrackEvent, type WriterDeps } from "./page-views";
import { Reattribution } from "./reattribution";
import { compactRunningTotals } from "./running-totals";
import { SharedValueGate } from "./value-admission";

// A new campaign's first visitor, whose value the breakdowns do not store by name yet: its lead
// keeps the values exactly, counts under "(overig)" at first, and moves to its campaign with its
// offer, contract and commission once the campaign is stored by name.
let h: Harness;
let db: pg.Pool;
let redis: Redis;
let deps: WriterDeps;
let gate: SharedValueGate;
let reattribution: Reattribution;
const DAY = "2026-03-10";
beforeAll(async () => {
  h = await startHarness({}, new ManualClock(Date.parse("2026-03-10T12:00:00Z")));
  db = new pg.Pool({ connectionString: h.db.url, max: 2 });
  redis = new Redis(h.env.REDIS_URL!);
  // No first-sight allowance: a new value needs two address blocks, as on a day a flood spent it.
  gate = new SharedValueGate(redis, keyspace(`${h.env.REDIS_PREFIX}-reattribution`), {
    ...DEFAULT_ADMISSION,
    freePerDay: 0,
  });
  deps = writerDeps(db, { gate });
  reattribution = new Reattribution(db, deps.profiles, deps.profileDims, gate);
});
afterAll(async () => {
  redis?.disconnect();
  await db?.end();
  await h?.close();
});

let n = 0;
const visit = (sessionId: string, page: string, sourceTag: string, at: string): TrackEvent => ({
  eventId: `r-${++n}`,
  sessionId,
  isView: true,
  page,
  referrer: "https://www.google.nl/",
  userAgent: BROWSER_UA,
  country: "NL",
  city: "Utrecht",
  sourceTag,
  at: new Date(at),
});
const LENTE = "/?utm_source=google&utm_medium=cpc&utm_campaign=Lente%202027&utm_term=lease%20bus&gclid=x";
const LEAD = "5e1c0000-0000-4000-8000-0000000000a1";
const rows = async <T>(sql: string, params: unknown[] = []) =>
  (await db.query<T & pg.QueryResultRow>(sql, params)).rows;
const report = async () => {
  await compactRunningTotals(db);
  return CampaignReport.parse(await h.get(`/api/admin/campaign-report?from=${DAY}&to=${DAY}`));
};
const row = (r: CampaignReport, campaign: string) =>
  r.rows.find((x) => x.source === "google" && x.medium === "cpc" && x.campaign === campaign);

describe("a lead whose campaign is not stored by name yet", () => {
  it("keeps its visit's values, and only a visit with consent keeps them", async () => {
    // The day before, google / cpc came from two address blocks: stored by name since.
    const cpc = "/?utm_source=google&utm_medium=cpc";
    await insertBatch(deps, [visit("session-cpc1-1773050400000", cpc, "block-x", "2026-03-09T09:00:00Z")]);
    await insertBatch(deps, [visit("session-cpc2-1773050400000", cpc, "block-y", "2026-03-09T09:05:00Z")]);
    await insertBatch(deps, [
      visit("session-lente1-1773136800000", LENTE, "block-a", "2026-03-10T09:00:00Z"),
      visit("anon-0123456789abcdef0123456789abcdef", LENTE, "block-a", "2026-03-10T09:01:00Z"),
    ]);
    const stored = await rows<{ campaign: string; term: string; sent: string[] | null }>(
      `SELECT p.utm_campaign AS campaign, p.utm_term AS term, v.sent FROM tracking.visitors v
         JOIN tracking.profiles p ON p.id = v.profile_id
        WHERE v.session_key IN (tracking.key64('session-lente1-1773136800000'),
                                tracking.key64('anon-0123456789abcdef0123456789abcdef'))
        ORDER BY v.sent NULLS LAST`,
    );
    expect(stored).toEqual([
      {
        campaign: "(overig)",
        term: "(overig)",
        sent: ["google", "cpc", "Lente 2027", "lease bus", "", "google.nl"],
      },
      { campaign: "(overig)", term: "(overig)", sent: null },
    ]);
    const recorder = new ConversionRecorder(db, deps.profileDims);
    const at = new Date("2026-03-10T10:00:00Z");
    const sessionId = "session-lente1-1773136800000";
    const { attribution } = await recorder.record(
      { source: "lease_request", leadId: LEAD, sessionId, at },
      await recorder.visitDays(sessionId, at),
    );
    expect(attribution).toMatchObject({
      source: "google",
      medium: "cpc",
      campaign: "Lente 2027",
      term: "lease bus",
      referrerHost: "google.nl",
      paidClick: true,
    });
    // Signed later: the contract counts where the lead does.
    await leadStagesRepository(db, deps.profileDims).apply({
      source: "lease_request",
      sourceId: LEAD,
      seq: 1,
      status: "getekend",
      offered: true,
      signed: true,
      commissionCents: 150_000,
    });
    const before = await report();
    expect(row(before, "(overig)")).toMatchObject({ leads: 1, contracts: 1, commission: 1500 });
    expect(row(before, "Lente 2027")).toBeUndefined();
    // Nothing stored by name yet: the lead stays where it is.
    expect(await reattribution.lead(LEAD, DAY)).toBe(false);
  });

  it("moves to its campaign with its contract once a second address block brought the campaign", async () => {
    const totals = (await report()).totals;
    await insertBatch(deps, [
      visit("session-lente2-1773136800000", LENTE, "block-b", "2026-03-10T11:00:00Z"),
    ]);
    expect(await reattribution.tick(DAY)).toBe(1);
    const after = await report();
    expect(row(after, "Lente 2027")).toMatchObject({ visitors: 1, leads: 1, contracts: 1, commission: 1500 });
    expect(row(after, "(overig)")).toMatchObject({ leads: 0, contracts: 0, commission: 0 });
    // The site's totals do not change by a move (the visit of block-b is one more visitor).
    expect(after.totals).toMatchObject({
      leads: totals.leads,
      contracts: totals.contracts,
      commission: totals.commission,
      visitors: totals.visitors + 1,
    });
    const analytics = await h.get<Analytics>(`/api/admin/analytics?from=${DAY}&to=${DAY}`);
    expect(analytics.campaigns.find((c) => c.campaign === "Lente 2027")).toMatchObject({ quotes: 1 });
    expect(analytics.sources.find((c) => c.value === "google")?.quotes).toBe(1);
    // Done once: the lead waits for nothing any more, and a sweep again changes nothing.
    expect(
      await rows(`SELECT 1 FROM tracking.conversions WHERE lead_id = $1 AND sent IS NOT NULL`, [LEAD]),
    ).toEqual([]);
    expect(await reattribution.sweep(DAY)).toBe(0);
    expect(row(await report(), "Lente 2027")).toMatchObject({ leads: 1, contracts: 1 });
  });
});
