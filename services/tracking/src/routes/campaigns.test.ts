import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { AdSpendImportResult, AdSpendList, CampaignReport, CAMPAIGN_REPORT_ROWS_MAX } from "@lease/contracts";
import { BROWSER_UA, ManualClock, pageView, startHarness, type Harness } from "../testing";
import { insertBatch, writerDeps } from "../repositories/page-views";
import { ConversionRecorder } from "../repositories/conversions";
import { leadStagesRepository } from "../repositories/lead-stages";
import { compactRunningTotals, compactSpendTotals } from "../repositories/running-totals";

// The campaign routes (campaigns.ts): ad spend imported from the platforms' exports or typed in,
// linked to the utm_campaign of the landing URLs, and the campaign report that sets it against what
// it brought; last, the bounds of both, on a service of their own.

let h: Harness;
let cookie: string;
beforeAll(async () => {
  h = await startHarness({}, new ManualClock(Date.parse("2026-03-20T12:00:00Z")));
  cookie = await h.adminCookie();
});
afterAll(async () => {
  await h?.close();
});

const send = (method: string, path: string, body: unknown) =>
  fetch(`${h.svc.url}${path}`, {
    method,
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const importCsv = (csv: string) => send("POST", "/api/admin/ad-spend/import", { csv });
/** The status and Dutch message of a refusal. */
const refusal = async (res: Promise<Response>) => {
  const answer = await res;
  return [answer.status, ((await answer.json()) as { message: string }).message];
};

const META_EXPORT = [
  "Campaign name,Day,Amount spent (EUR),Impressions,Reporting starts,Reporting ends",
  "Lente actie,2026-01-02,100.00,12000,2026-01-02,2026-01-02",
  'Lente actie,2026-01-03,"200.00",9000,2026-01-03,2026-01-03',
  "Lente actie,2026-01-04,veel,1,2026-01-04,2026-01-04",
].join("\n");

describe("POST /api/admin/ad-spend/import", () => {
  describe("ad spend", () => {
    it("imports an export once: the same file again changes nothing, a bad row is named and the good ones kept", async () => {
      const first = await importCsv(META_EXPORT);
      expect(first.status).toBe(200);
      expect(AdSpendImportResult.parse(await first.json())).toEqual({
        platform: "meta",
        imported: 2,
        unchanged: 0,
        errors: [{ line: 4, message: 'Onbekend bedrag "veel"' }],
      });
      const again = AdSpendImportResult.parse(await (await importCsv(META_EXPORT)).json());
      expect(again).toMatchObject({ imported: 0, unchanged: 2 });
      // A corrected day replaces the day's amount; the others stay as they were.
      const corrected = AdSpendImportResult.parse(
        await (await importCsv(META_EXPORT.replace('"200.00"', '"210.00"'))).json(),
      );
      expect(corrected).toMatchObject({ imported: 1, unchanged: 1 });
      await importCsv(META_EXPORT);
      const list = AdSpendList.parse(await h.get("/api/admin/ad-spend?from=2026-01-01&to=2026-03-31"));
      expect(list.items).toEqual([
        {
          platform: "meta",
          campaign: "Lente actie",
          utmCampaign: "Lente actie",
          linked: false,
          amount: 300,
          days: 2,
        },
      ]);
    });

    it("answers 400 with the errors by line for a file of only bad rows, and for a file of no platform", async () => {
      const bad = await importCsv("Campaign name,Day,Amount spent (EUR)\nx,nooit,1.00\n,2026-01-02,1.00");
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({
        message: "Geen enkele regel kon worden ingelezen; zie de fouten per regel",
        errors: [
          { line: 2, message: 'Onbekende datum "nooit"' },
          { line: 3, message: "Geen campagnenaam" },
        ],
      });
      const unknown = await importCsv("naam;bedrag\nx;1");
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as { message: string }).message).toMatch(
        /^Dit bestand is geen bekende export/,
      );
      expect((await send("POST", "/api/admin/ad-spend/import", { csv: "" })).status).toBe(400);
    });

    it("takes an export far beyond the 16 KB of other bodies (its route's own 2 MB limit)", async () => {
      const lines = Array.from(
        { length: 700 },
        (_, i) => `Groot bestand ${i % 50},2025-12-${String(1 + (i % 28)).padStart(2, "0")},1.00`,
      );
      const csv = ["Campaign name,Day,Amount spent (EUR)", ...lines].join("\n");
      expect(csv.length).toBeGreaterThan(16 * 1024);
      const res = await importCsv(csv);
      expect(res.status).toBe(200);
      expect(AdSpendImportResult.parse(await res.json()).errors).toEqual([]);
      expect((await importCsv("x".repeat(2 * 1024 * 1024 + 10))).status).toBe(413);
    });

    // Two names differing only in a lone surrogate both reached PostgreSQL as U+FFFD, one row twice
    // in one statement: the whole import failed with 500. Names with U+202E and U+0085 were stored.
    it("names rows with an unpaired surrogate, a direction override or a C1 control by line and stores the rest; typed-in names and links are refused alike", async () => {
      const csv = [
        "Campaign name,Day,Amount spent (EUR)",
        "truc\ud800,2025-11-06,10.00",
        "truc\udbff,2025-11-06,20.00",
        "\u202Eseltnel,2025-11-06,30.00",
        "truc\u0085,2025-11-06,40.00",
        "Truc goed,2025-11-06,50.00",
        "Truc goe\u0301d,2025-11-06,1.00",
        "Truc go\u00e9d,2025-11-06,2.00",
      ].join("\n");
      const res = await importCsv(csv);
      expect(res.status).toBe(200);
      const result = AdSpendImportResult.parse(await res.json());
      expect(result.errors.map((e) => e.line)).toEqual([2, 3, 4, 5]);
      expect(result).toMatchObject({ imported: 2, unchanged: 0 });
      const list = AdSpendList.parse(await h.get("/api/admin/ad-spend?from=2025-11-06&to=2025-11-06"));
      // "goe\u0301d" and "go\u00e9d" are one name once composed: their rows are summed.
      expect(list.items.map((i) => [i.campaign, i.amount])).toEqual([
        ["Truc goed", 50],
        ["Truc go\u00e9d", 3],
      ]);

      const entry = { platform: "meta", day: "2025-11-06", campaign: "\u202Eseltnel", amount: 1 };
      expect(await refusal(send("POST", "/api/admin/ad-spend", entry))).toEqual([
        400,
        "De campagnenaam bevat een teken dat de leesrichting omdraait (U+202E)",
      ]);
      const link = { platform: "meta", campaign: "Truc goed", utmCampaign: "truc\udc00" };
      expect(await refusal(send("PUT", "/api/admin/ad-spend/links", link))).toEqual([
        400,
        "De utm_campaign bevat een los deel van een teken (U+DC00)",
      ]);
    });
  });
});

describe("POST /api/admin/ad-spend · PUT /api/admin/ad-spend/links · GET /api/admin/ad-spend", () => {
  describe("ad spend", () => {
    it("takes a typed-in day and links a spend campaign name to its utm_campaign once", async () => {
      const typed = await send("POST", "/api/admin/ad-spend", {
        platform: "tiktok",
        day: "2026-01-05",
        campaign: "TT voorjaar",
        amount: 45.5,
      });
      expect(AdSpendImportResult.parse(await typed.json())).toMatchObject({ imported: 1, unchanged: 0 });
      const refused = await send("POST", "/api/admin/ad-spend", {
        platform: "tiktok",
        day: "2026-01-05",
        campaign: "TT voorjaar",
        amount: 1.234,
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toBe(
        "Gebruik hoogstens twee decimalen",
      );
      // An amount above 0 never becomes €0 on the way in.
      const tiny = await send("POST", "/api/admin/ad-spend", {
        platform: "tiktok",
        day: "2026-01-05",
        campaign: "TT voorjaar",
        amount: 1e-9,
      });
      expect(tiny.status).toBe(400);
      expect(((await tiny.json()) as { message: string }).message).toBe("Gebruik hoogstens twee decimalen");

      expect(
        (
          await send("PUT", "/api/admin/ad-spend/links", {
            platform: "meta",
            campaign: "Lente actie",
            utmCampaign: "voorjaar",
          })
        ).status,
      ).toBe(204);
      const list = AdSpendList.parse(await h.get("/api/admin/ad-spend?from=2026-01-01&to=2026-03-31"));
      expect(list.items.map((i) => [i.platform, i.campaign, i.utmCampaign, i.linked, i.amount])).toEqual([
        ["meta", "Lente actie", "voorjaar", true, 300],
        ["tiktok", "TT voorjaar", "TT voorjaar", false, 45.5],
      ]);
    });
  });
});

describe("GET /api/admin/campaign-report", () => {
  // The "Done when": three visitors from the Meta campaign "lente" each send a quote request;
  // €300 of spend for "lente" is imported; one lead is signed with €1.200 commission, one is lost.
  describe("the campaign report", () => {
    let db: pg.Pool;
    beforeAll(async () => {
      db = new pg.Pool({ connectionString: h.db.url, max: 2 });
      const deps = writerDeps(db);
      let n = 0;
      const visit = (session: string, page: string, at: string) => pageView(`c-${++n}`, session, page, at);
      const lente = "/?utm_source=facebook&utm_medium=paid_social&utm_campaign=lente&fbclid=abc";
      await insertBatch(deps, [
        visit("s-done-1", lente, "2026-03-10T09:00:00Z"),
        visit("s-done-2", lente, "2026-03-10T09:05:00Z"),
        visit("s-done-3", lente, "2026-03-10T09:10:00Z"),
        visit("s-done-4", "/?utm_source=google&utm_medium=cpc&utm_campaign=zoek", "2026-03-10T09:15:00Z"),
        // The previous period (10 days before): one lead of lente.
        visit("s-before", lente, "2026-02-28T09:00:00Z"),
      ]);
      const recorder = new ConversionRecorder(db, deps.profileDims);
      const convert = async (leadId: string, sessionId: string, at: string) =>
        recorder.record(
          { source: "lease_request", leadId, sessionId, at: new Date(at) },
          await recorder.visitDays(sessionId, new Date(at)),
        );
      const leads = [1, 2, 3].map((i) => `5e1c0000-0000-4000-8000-00000000000${i}`);
      for (const [i, id] of leads.entries()) await convert(id, `s-done-${i + 1}`, "2026-03-10T10:00:00Z");
      await convert("5e1c0000-0000-4000-8000-000000000009", "s-before", "2026-02-28T10:00:00Z");
      const stages = leadStagesRepository(db, deps.profileDims);
      const base = { source: "lease_request" as const, seq: 1, offered: true, commissionCents: 0 };
      await stages.apply({
        ...base,
        sourceId: leads[0]!,
        status: "getekend",
        signed: true,
        commissionCents: 120000,
      });
      await stages.apply({ ...base, sourceId: leads[1]!, status: "verloren", signed: false, offered: false });
      await importCsv(
        "Campaign name,Day,Amount spent (EUR)\nlente-meta,2026-03-09,100.00\nlente-meta,2026-03-10,200.00\nlente-meta,2026-02-27,50.00",
      );
      await send("PUT", "/api/admin/ad-spend/links", {
        platform: "meta",
        campaign: "lente-meta",
        utmCampaign: "lente",
      });
    });
    afterAll(async () => {
      await db?.end();
    });

    it("shows for lente: spend €300, 3 leads, 1 contract, €100 a lead, €300 a contract, ROAS 4.0; and the previous period", async () => {
      const report = CampaignReport.parse(
        await h.get("/api/admin/campaign-report?from=2026-03-01&to=2026-03-20"),
      );
      const lente = report.rows.find((r) => r.campaign === "lente")!;
      expect(lente).toMatchObject({
        source: "facebook",
        medium: "paid_social",
        spend: 300,
        visitors: 3,
        leads: 3,
        offers: 1,
        contracts: 1,
        commission: 1200,
        costPerLead: 100,
        costPerContract: 300,
        roas: 4,
        leadRate: 100,
        offerRate: 33.3,
        contractRate: 100,
      });
      expect(lente.previous).toMatchObject({
        spend: 50,
        leads: 1,
        contracts: 0,
        costPerContract: null,
        roas: 0,
      });
      expect(report.rows.find((r) => r.campaign === "zoek")).toMatchObject({
        spend: 0,
        leads: 0,
        roas: null,
        costPerLead: null,
      });
      expect(report.channels.find((c) => c.channel === "Paid Social")).toMatchObject({
        spend: 300,
        leads: 3,
        contracts: 1,
      });
      expect(report.totals).toMatchObject({ spend: 300, leads: 3, contracts: 1, commission: 1200, roas: 4 });
      expect(report.previousTotals).toMatchObject({ spend: 50, leads: 1 });
      expect([report.previousFrom, report.previousTo, report.cohort]).toEqual([
        "2026-02-09",
        "2026-02-28",
        true,
      ]);
    });

    it("counts a contract in the period its lead arrived, however much later it was signed (cohort)", async () => {
      const later = CampaignReport.parse(
        await h.get("/api/admin/campaign-report?from=2026-03-11&to=2026-03-20"),
      );
      expect(later.totals.contracts).toBe(0);
      expect(later.rows.find((r) => r.campaign === "lente")).toBeUndefined();
    });

    // The loose days of a period are read from running totals kept by triggers on daily_dims and
    // ad_spend (migration 0009): a later change of an old day must reach every later day of its month.
    it("takes in a later stage change of an old lead and a corrected day's spend, in any period around that day", async () => {
      const stages = leadStagesRepository(db, writerDeps(db).profileDims);
      await stages.apply({
        source: "lease_request",
        sourceId: "5e1c0000-0000-4000-8000-000000000003",
        seq: 2,
        status: "getekend",
        offered: true,
        signed: true,
        commissionCents: 30000,
      });
      await importCsv("Campaign name,Day,Amount spent (EUR)\nlente-meta,2026-03-10,260.00");
      const lente = async (from: string, to: string) =>
        CampaignReport.parse(await h.get(`/api/admin/campaign-report?from=${from}&to=${to}`)).rows.find(
          (r) => r.campaign === "lente",
        );
      // Spend: 27 Feb €50, 9 March €100, 10 March now €260; 28 Feb brought one more lead.
      for (const [from, to, spend, leads] of [
        ["2026-03-10", "2026-03-10", 260, 3],
        ["2026-03-05", "2026-03-15", 360, 3],
        ["2026-03-01", "2026-03-20", 360, 3],
        ["2026-02-20", "2026-03-12", 410, 4],
      ] as const)
        expect(await lente(from, to), `${from}..${to}`).toMatchObject({
          leads,
          contracts: 2,
          commission: 1500,
          spend,
        });
      expect(await lente("2026-03-11", "2026-03-20")).toBeUndefined();
      expect(await lente("2026-03-01", "2026-03-09")).toMatchObject({ spend: 100, leads: 0, contracts: 0 });
    });

    // The trigger on daily_dims only records each change (report_running_pending, migration 0010);
    // compaction spreads it over the running rows later. A report reads both in one snapshot.
    it("answers the same before and after pending changes are compacted, which leaves every running row its month's sum", async () => {
      const report = async () =>
        CampaignReport.parse(await h.get("/api/admin/campaign-report?from=2026-02-20&to=2026-03-15"));
      // The service's own compactor waits while this connection holds the compaction lock.
      const holder = await db.connect();
      try {
        await holder.query("SELECT pg_advisory_lock(hashtext('tracking:running-totals'))");
        await insertBatch(writerDeps(db), [
          {
            eventId: "c-pending-1",
            sessionId: "s-pending-1",
            isView: true,
            page: "/?utm_source=facebook&utm_medium=paid_social&utm_campaign=lente",
            referrer: null,
            userAgent: BROWSER_UA,
            country: "NL",
            city: null,
            at: new Date("2026-03-03T09:00:00Z"),
          },
        ]);
        const pending = await db.query<{ n: string }>(
          "SELECT count(*) AS n FROM tracking.report_running_pending",
        );
        expect(Number(pending.rows[0]!.n)).toBeGreaterThan(0);
        const before = await report();
        expect(before.rows.find((r) => r.campaign === "lente")).toMatchObject({ visitors: 5, leads: 4 });
        await holder.query("SELECT pg_advisory_unlock(hashtext('tracking:running-totals'))");
        expect(await compactRunningTotals(db)).toBeGreaterThan(0);
        const left = await db.query<{ n: string }>(
          "SELECT count(*) AS n FROM tracking.report_running_pending",
        );
        expect(left.rows[0]!.n).toBe("0");
        expect(await report()).toEqual(before);
      } finally {
        holder.release();
      }
      // Every running row is the sum of its value's days from the 1st of its month up to its day.
      const off = await db.query(
        `SELECT r.day, r.dim, r.value_id FROM tracking.report_running_dims r
           CROSS JOIN LATERAL (
             SELECT coalesce(sum(d.visitors), 0) AS visitors, coalesce(sum(d.quotes), 0) AS quotes,
                    coalesce(sum(d.offers), 0) AS offers, coalesce(sum(d.contracts), 0) AS contracts,
                    coalesce(sum(d.commission_cents), 0) AS commission_cents
               FROM tracking.daily_dims d
              WHERE d.dim = r.dim AND d.value_id = r.value_id
                AND d.day BETWEEN date_trunc('month', r.day)::date AND r.day) s
          WHERE (r.visitors, r.quotes, r.offers, r.contracts, r.commission_cents)
                IS DISTINCT FROM (s.visitors, s.quotes, s.offers, s.contracts, s.commission_cents)`,
      );
      expect(off.rows).toEqual([]);
    });

    it("refuses a period in the future or the wrong way round in Dutch", async () => {
      const res = await fetch(`${h.svc.url}/api/admin/campaign-report?from=2026-03-20&to=2026-03-01`, {
        headers: { cookie },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe("De begindatum ligt na de einddatum");
    });
  });
});

describe("POST /api/admin/ad-spend/import · GET /api/admin/campaign-report", () => {
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
      (await db.query<{ n: string }>("SELECT count(DISTINCT campaign) AS n FROM tracking.ad_spend")).rows[0]!
        .n,
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
      const left = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM tracking.ad_spend_running_pending",
      );
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
});
