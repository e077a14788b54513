import {
  AdSpendEntryBody,
  AdSpendImportBody,
  AdSpendQuery,
  CampaignReportQuery,
  type CampaignReport,
  SpendLinkBody,
  toCents,
  type AdSpendImportResult,
  type AdSpendList,
} from "@lease/contracts";
import { contractRouter, HttpError, parseOr400, requireAdmin, type SessionDeps } from "@lease/platform";
import { parseSpendCsv, UnknownSpendFormat } from "../domain/spend-csv";
import type { AdSpendRepository } from "../repositories/ad-spend";
import type { CampaignReportReader } from "../repositories/campaign-report";
import type { Clock } from "../domain/clock";
import { checkPeriod, today } from "../domain/periods";

/**
 * "Campagnes": the ad platforms' spend (imported from their exports or typed in, linked to
 * utm_campaigns) and the report that sets it against what each campaign brought.
 */
export function campaignRoutes(deps: {
  session: SessionDeps;
  spend: AdSpendRepository;
  report: CampaignReportReader;
  clock: Clock;
  retentionMonths: number;
}) {
  const router = contractRouter("tracking", requireAdmin(deps.session));

  router.get("/api/admin/campaign-report", async (ctx) => {
    const period = parseOr400(CampaignReportQuery, ctx.query);
    checkPeriod(period, today(deps.clock.now()), deps.retentionMonths);
    const body: CampaignReport = await deps.report.report(period);
    ctx.body = body;
  });

  router.post("/api/admin/ad-spend/import", async (ctx) => {
    const { csv } = parseOr400(AdSpendImportBody, ctx.request.body);
    let parsed;
    try {
      parsed = parseSpendCsv(csv);
    } catch (err) {
      if (err instanceof UnknownSpendFormat) throw new HttpError(400, "unknown_format", err.message);
      throw err;
    }
    const { platform, rows, errors } = parsed;
    if (rows.length === 0) {
      ctx.status = 400;
      ctx.body = {
        code: "no_rows",
        message:
          errors.length > 0
            ? "Geen enkele regel kon worden ingelezen; zie de fouten per regel"
            : "Het bestand bevat geen regels met uitgaven",
        platform,
        imported: 0,
        unchanged: 0,
        errors,
      };
      return;
    }
    const stored = await deps.spend.store(platform, rows);
    const body: AdSpendImportResult = { platform, ...stored, errors };
    ctx.body = body;
  });

  router.post("/api/admin/ad-spend", async (ctx) => {
    const entry = parseOr400(AdSpendEntryBody, ctx.request.body);
    const stored = await deps.spend.store(entry.platform, [
      { day: entry.day, campaign: entry.campaign, cents: toCents(entry.amount) },
    ]);
    const body: AdSpendImportResult = { platform: entry.platform, ...stored, errors: [] };
    ctx.body = body;
  });

  router.get("/api/admin/ad-spend", async (ctx) => {
    const { from, to } = parseOr400(AdSpendQuery, ctx.query);
    const body: AdSpendList = { items: await deps.spend.list(from, to) };
    ctx.body = body;
  });

  router.put("/api/admin/ad-spend/links", async (ctx) => {
    const link = parseOr400(SpendLinkBody, ctx.request.body);
    await deps.spend.link(link.platform, link.campaign, link.utmCampaign);
    ctx.status = 204;
  });

  return router;
}
