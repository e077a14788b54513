import {
  AD_PLATFORM_LABELS,
  AdSpendEntryBody,
  AdSpendImportBody,
  AdSpendQuery,
  CampaignReportQuery,
  type CampaignReport,
  SpendLinkBody,
  dutchDay,
  euroText,
  toCents,
  type AdSpendImportResult,
  type AdSpendList,
} from "@lease/contracts";
import {
  auditEvent,
  contractRouter,
  HttpError,
  parseOr400,
  requireAdmin,
  type SessionDeps,
} from "@lease/platform";
import { parseSpendCsv, UnknownSpendFormat } from "../domain/spend-csv";
import type { AdSpendRepository } from "../repositories/ad-spend";
import type { CampaignReportReader } from "../repositories/campaign-report";
import type { Clock } from "../domain/clock";
import { checkPeriod, today } from "../domain/periods";

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

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
    const campaigns = new Set(rows.map((r) => r.campaign)).size;
    const stored = await deps.spend.store(platform, rows, ({ imported, unchanged }) =>
      auditEvent(
        ctx.state.admin!.username,
        "ad_spend.imported",
        AD_PLATFORM_LABELS[platform],
        `${count(campaigns, "campagne", "campagnes")}: ${count(imported, "dag", "dagen")} ingelezen, ` +
          `${unchanged} ongewijzigd, ${count(errors.length, "regel", "regels")} overgeslagen`,
      ),
    );
    const body: AdSpendImportResult = { platform, ...stored, errors };
    ctx.body = body;
  });

  router.post("/api/admin/ad-spend", async (ctx) => {
    const entry = parseOr400(AdSpendEntryBody, ctx.request.body);
    const cents = toCents(entry.amount);
    const stored = await deps.spend.store(
      entry.platform,
      [{ day: entry.day, campaign: entry.campaign, cents }],
      ({ imported }) =>
        auditEvent(
          ctx.state.admin!.username,
          "ad_spend.entered",
          entry.campaign,
          `${AD_PLATFORM_LABELS[entry.platform]}, ${dutchDay(entry.day)}: ${euroText(cents)}` +
            (imported ? "" : " (ongewijzigd)"),
        ),
    );
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
    const to = link.utmCampaign === null || link.utmCampaign === link.campaign ? null : link.utmCampaign;
    await deps.spend.link(
      link.platform,
      link.campaign,
      link.utmCampaign,
      auditEvent(
        ctx.state.admin!.username,
        "ad_spend.linked",
        link.campaign,
        `${AD_PLATFORM_LABELS[link.platform]}: ` +
          (to === null ? "koppeling verwijderd" : `telt voor utm_campaign ${to}`),
      ),
    );
    ctx.status = 204;
  });

  return router;
}
