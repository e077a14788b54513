import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { AdSpendImportResult, CAMPAIGN_REPORT_ROWS_MAX, CampaignReport } from "@lease/contracts";
import { ManualClock, startHarness, type Harness } from "../testing";
import { compactSpendTotals } from "../repositories/running-totals";

// One admin against the campaign report: imports of many distinct campaigns slowed every import
// and the report (80,000 campaigns: 25 MB in 10 s), three reports at once held the service's pool
// so the live view waited 5 s, and a statement past its limit answered 500. The bounds: a cap on
// the distinct campaigns stored (refused before anything is written), the report's first 100
// campaigns with the rest as one row, its own pool and a gate of one build at a time.

const MAX = 150;
let h: Harness;
let cookie: string;
let db: pg.Pool;
beforeAll(async () => {
  h = await startHarness(
    { SPEND_CAMPAIGNS_MAX: String(MAX), CAMPAIGN_STATEMENT_TIMEOUT_MS: "2000" },
    new ManualClock(Date.parse("2026-03-20T12:00:00Z")),
  );
  cookie = await h.adminCookie();
  db = new pg.Pool({ connectionString: h.db.url, max: 3 });
});
afterAll(async () => {
  await db?.end();
  await h?.close();
});

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${h.svc.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
/** A Meta export of campaigns `from` .. `to - 1`, one day each, the later ones costing more. */
const exportOf = (from: number, to: number, day = "2026-03-02") =>
  [
    "Campaign name,Day,Amount spent (EUR)",
    ...Array.from({ length: to - from }, (_, i) => `veel-${from + i},${day},${from + i + 1}.00`),
  ].join("\n");
const importCsv = (csv: string) => send("POST", "/api/admin/ad-spend/import", { csv });
const storedNames = async () =>
  Number(
    (await db.query<{ n: string }>("SELECT count(DISTINCT campaign) AS n FROM tracking.ad_spend")).rows[0]!.n,
  );

describe("the bounds of the stored spend and of the campaign report", () => {
  it("refuses, before writing anything, an import that would store more distinct campaigns than the bound, in Dutch", async () => {
    expect((await importCsv(exportOf(0, 100))).status).toBe(200);
    const refused = await importCsv(exportOf(100, 200));
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      code: "too_many_campaigns",
      message:
        "Er is niets ingelezen: 100 nieuwe campagnes bij de 100 die al kosten hebben is meer dan het maximum van 150 campagnes. Lees alleen de campagnes in die je volgt; campagnes zonder kosten in de laatste 26 maanden tellen niet mee.",
    });
    expect(await storedNames()).toBe(100);
    // Known campaigns stay importable (a corrected day), and new ones up to the bound.
    const again = await importCsv(exportOf(0, 150));
    expect(AdSpendImportResult.parse(await again.json())).toMatchObject({ imported: 50, unchanged: 100 });
    expect(await storedNames()).toBe(MAX);
    const typed = await send("POST", "/api/admin/ad-spend", {
      platform: "google",
      day: "2026-03-02",
      campaign: "een te veel",
      amount: 1,
    });
    expect(typed.status).toBe(422);
  });

  it(`names the ${CAMPAIGN_REPORT_ROWS_MAX} campaigns that cost most and sums the rest as one row, whose figures add up to the totals`, async () => {
    const report = CampaignReport.parse(
      await h.get("/api/admin/campaign-report?from=2026-03-01&to=2026-03-20"),
    );
    expect(report.rows).toHaveLength(CAMPAIGN_REPORT_ROWS_MAX);
    expect(report.rows[0]).toMatchObject({ campaign: "veel-149", spend: 150 });
    expect(report.rows.at(-1)).toMatchObject({ campaign: "veel-50", spend: 51 });
    // The 50 cheapest: € 1 .. € 50.
    expect(report.others).toMatchObject({ campaigns: 50, spend: 1275, leads: 0, costPerLead: null });
    const named = report.rows.reduce((sum, r) => sum + r.spend, 0);
    expect(named + report.others!.spend).toBe(report.totals.spend);
    expect(report.totals.spend).toBe((150 * 151) / 2);
  });

  // An import records each changed day once (ad_spend_running_pending, migration 0013); compaction
  // spreads it over the running rows later, off the import's transaction.
  it("answers the same before and after an import's changes are compacted, which leaves every running spend row its month's sum up to its day", async () => {
    const report = async () =>
      CampaignReport.parse(await h.get("/api/admin/campaign-report?from=2026-02-20&to=2026-03-03"));
    // The service's own compactor waits while this connection holds its lock.
    const holder = await db.connect();
    let before: CampaignReport;
    try {
      await holder.query("SELECT pg_advisory_lock(hashtext('tracking:spend-running-totals'))");
      await importCsv(exportOf(0, 20, "2026-02-27"));
      await importCsv(exportOf(0, 10, "2026-03-02").replace(/,(\d+)\.00$/gm, ",9$1.00"));
      await db.query(
        "DELETE FROM tracking.ad_spend WHERE campaign IN ('veel-3', 'veel-4') AND day = '2026-03-02'",
      );
      const pending = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM tracking.ad_spend_running_pending",
      );
      expect(Number(pending.rows[0]!.n)).toBeGreaterThan(0);
      before = await report();
      // veel-9: € 10 on 27 February and € 910 (corrected from € 10) on 2 March; veel-4's 2 March deleted.
      expect(before.rows[0]).toMatchObject({ campaign: "veel-9", spend: 920 });
      // 2 March: € 1 .. € 150, veel-0 .. veel-8 raised by € 90 each and veel-9 by € 900, then
      // veel-3 (€ 94) and veel-4 (€ 95) deleted; 27 February: € 1 .. € 20.
      expect(before.totals.spend).toBe((150 * 151) / 2 + 9 * 90 + 900 - 94 - 95 + (20 * 21) / 2);
    } finally {
      await holder.query("SELECT pg_advisory_unlock_all()");
      holder.release();
    }
    await compactSpendTotals(db);
    const left = await db.query<{ n: string }>("SELECT count(*) AS n FROM tracking.ad_spend_running_pending");
    expect(left.rows[0]!.n).toBe("0");
    expect(await report()).toEqual(before);
    const off = await db.query(
      `SELECT r.day, r.platform, r.campaign FROM tracking.ad_spend_running r
         CROSS JOIN LATERAL (SELECT coalesce(sum(s.spend_cents), 0) AS cents FROM tracking.ad_spend s
                              WHERE s.platform = r.platform AND s.campaign = r.campaign
                                AND s.day BETWEEN date_trunc('month', r.day)::date AND r.day) s
        WHERE r.spend_cents <> s.cents
       UNION ALL
       -- and every day with spend so far this month has its row
       SELECT d::date, s.platform, s.campaign FROM tracking.ad_spend s
         CROSS JOIN generate_series(s.day, date_trunc('month', s.day) + interval '1 month - 1 day', interval '1 day') d
        WHERE s.spend_cents > 0 AND NOT EXISTS (SELECT 1 FROM tracking.ad_spend_running r
                                                 WHERE r.day = d::date AND r.platform = s.platform AND r.campaign = s.campaign)`,
    );
    expect(off.rows).toEqual([]);
  });

  it("answers a report past its statement limit 503 in Dutch, refuses builds beyond those waiting, and the live view answers meanwhile", async () => {
    // Another session holds the report's month rollup: every build waits on it, past its limit.
    const holder = await db.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE tracking.ad_spend_monthly IN ACCESS EXCLUSIVE MODE");
      const periods = ["01", "02", "03", "04", "05"].map((d) => `from=2026-03-${d}&to=2026-03-10`);
      const answers = periods.map((q) => send("GET", `/api/admin/campaign-report?${q}`));
      // One building, three waiting, the fifth refused at once.
      const fifth = await answers[4]!;
      expect(fifth.status).toBe(503);
      expect(fifth.headers.get("retry-after")).toBe("5");
      expect(((await fifth.json()) as { message: string }).message).toBe(
        "Het campagnerapport wordt nu al een paar keer tegelijk opgebouwd. Probeer het over een paar seconden opnieuw.",
      );
      const settled = Promise.allSettled(answers.slice(0, 4));
      // The live view and the visit ingest have connections of their own: they answer while every
      // connection of the report's pool waits.
      const live = await send("GET", "/api/admin/visitor-stats");
      expect(live.status).toBe(200);
      expect(await Promise.race([settled.then(() => "reports"), Promise.resolve("live first")])).toBe(
        "live first",
      );
      const first = await answers[0]!;
      expect(first.status).toBe(503);
      expect(((await first.json()) as { message: string }).message).toBe(
        "Het campagnerapport kon niet op tijd worden opgebouwd. Probeer het over een minuut opnieuw of kies een kortere periode.",
      );
      await holder.query("ROLLBACK");
      await settled;
    } finally {
      holder.release();
    }
    const after = await send("GET", "/api/admin/campaign-report?from=2026-03-01&to=2026-03-10");
    expect(after.status).toBe(200);
  });

  it("answers an import while another holds the spend 409 in Dutch after a short wait, writing nothing", async () => {
    const holder = await db.connect();
    try {
      await holder.query("SELECT pg_advisory_lock(hashtextextended('tracking.ad_spend', 35))");
      const busy = await importCsv(exportOf(0, 5, "2026-03-05"));
      expect(busy.status).toBe(409);
      expect(((await busy.json()) as { message: string }).message).toBe(
        "Er worden nu al andere advertentiekosten ingelezen. Probeer het over een minuut opnieuw.",
      );
      expect((await db.query("SELECT 1 FROM tracking.ad_spend WHERE day = '2026-03-05'")).rows).toEqual([]);
    } finally {
      await holder.query("SELECT pg_advisory_unlock_all()");
      holder.release();
    }
    expect((await importCsv(exportOf(0, 5, "2026-03-05"))).status).toBe(200);
  });
});
