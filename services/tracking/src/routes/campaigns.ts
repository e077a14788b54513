import {
  AD_PLATFORM_LABELS,
  type CampaignReport,
  type CampaignReportQuery,
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
  requireAdmin,
  requireInternal,
  type SessionDeps,
} from "@lease/platform";
import { readSpendCsv, UnknownSpendFormat } from "../domain/spend-csv";
import { TooManyCampaigns, type AdSpendRepository } from "../repositories/ad-spend";
import { GateFull, type WorkGate } from "../domain/work-gate";
import type { CampaignReportReader } from "../repositories/campaign-report";
import type { Clock } from "../domain/clock";
import { checkPeriod, today } from "../domain/periods";

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const number = new Intl.NumberFormat("nl-NL");
const RETRY = { "retry-after": "30" };

/**
 * A campaign route's failure as staff can act on it: the report's pool or a statement past its
 * time limit (CAMPAIGN_STATEMENT_TIMEOUT_MS) is a 503 to try again, another import holding the
 * lock a 409, the bound on stored campaigns a 422; nothing is written in any of these.
 */
function asRefusal(err: unknown, doing: "report" | "spend", retentionMonths: number): unknown {
  if (err instanceof TooManyCampaigns)
    return new HttpError(
      422,
      "too_many_campaigns",
      `Er is niets ingelezen: ${number.format(err.added)} ${err.added === 1 ? "nieuwe campagne" : "nieuwe campagnes"} bij de ` +
        `${number.format(err.stored)} die al kosten hebben is meer dan het maximum van ` +
        `${number.format(err.max)} campagnes. Lees alleen de campagnes in die je volgt; campagnes ` +
        `zonder kosten in de laatste ${retentionMonths} maanden tellen niet mee.`,
    );
  if (err instanceof GateFull)
    return new HttpError(
      503,
      "report_busy",
      "Het campagnerapport wordt nu al een paar keer tegelijk opgebouwd. Probeer het over een paar seconden opnieuw.",
      undefined,
      { "retry-after": "5" },
    );
  const code = (err as { code?: string }).code;
  if (code === "55P03")
    return new HttpError(
      409,
      "spend_busy",
      "Er worden nu al andere advertentiekosten ingelezen. Probeer het over een minuut opnieuw.",
    );
  // A statement past its time limit, or no connection of the pool free in time.
  if (code === "57014" || /timeout exceeded when trying to connect/.test((err as Error).message ?? ""))
    return doing === "report"
      ? new HttpError(
          503,
          "report_timeout",
          "Het campagnerapport kon niet op tijd worden opgebouwd. Probeer het over een minuut opnieuw of kies een kortere periode.",
          undefined,
          RETRY,
        )
      : new HttpError(
          503,
          "spend_timeout",
          "Het opslaan van de advertentiekosten duurde te lang; er is niets opgeslagen. Probeer het over een minuut opnieuw of lees het bestand in delen in.",
          undefined,
          RETRY,
        );
  return err;
}

/** What builds a period's campaign report: the reader, behind the gate, within the kept months. */
interface ReportDeps {
  report: CampaignReportReader;
  /** The report's builds: a few at a time per replica, the same period built once. */
  reportGate: WorkGate;
  clock: Clock;
  retentionMonths: number;
}

/** The campaign report of a period (a refusal as staff can act on it, see asRefusal). */
async function campaignReport(deps: ReportDeps, period: CampaignReportQuery): Promise<CampaignReport> {
  checkPeriod(period, today(deps.clock.now()), deps.retentionMonths);
  try {
    return await deps.reportGate(`${period.from}/${period.to}`, () => deps.report.report(period));
  } catch (err) {
    throw asRefusal(err, "report", deps.retentionMonths);
  }
}

/** The same report for the mailer's weekly summary (its cheapest campaigns), with the internal token. */
export function campaignReportInternalRoute(deps: ReportDeps & { internalToken: string }) {
  const router = contractRouter("tracking", requireInternal(deps.internalToken));
  router.get("/internal/campaign-report", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = await campaignReport(deps, ctx.input.query);
  });
  return router;
}

/**
 * "Campagnes": the ad platforms' spend (imported from their exports or typed in, linked to
 * utm_campaigns) and the report that sets it against what each campaign brought.
 */
export function campaignRoutes(
  deps: ReportDeps & {
    session: SessionDeps;
    spend: AdSpendRepository;
  },
) {
  const router = contractRouter("tracking", requireAdmin(deps.session));
  /** Runs a campaign route's work, answering its known failures as refusals. */
  const refusing = async <T>(doing: "report" | "spend", work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw asRefusal(err, doing, deps.retentionMonths);
    }
  };

  router.get("/api/admin/campaign-report", async (ctx) => {
    ctx.body = await campaignReport(deps, ctx.input.query);
  });

  router.post("/api/admin/ad-spend/import", async (ctx) => {
    const { csv } = ctx.input.body;
    let parsed;
    try {
      parsed = await readSpendCsv(csv);
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
    const stored = await refusing("spend", () =>
      deps.spend.store(platform, rows, ({ imported, unchanged }) =>
        auditEvent(
          ctx.state.admin!.username,
          "ad_spend.imported",
          AD_PLATFORM_LABELS[platform],
          `${count(campaigns, "campagne", "campagnes")}: ${count(imported, "dag", "dagen")} ingelezen, ` +
            `${unchanged} ongewijzigd, ${count(errors.length, "regel", "regels")} overgeslagen`,
        ),
      ),
    );
    const body: AdSpendImportResult = { platform, ...stored, errors };
    ctx.body = body;
  });

  router.post("/api/admin/ad-spend", async (ctx) => {
    const entry = ctx.input.body;
    const cents = toCents(entry.amount);
    const stored = await refusing("spend", () =>
      deps.spend.store(
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
      ),
    );
    const body: AdSpendImportResult = { platform: entry.platform, ...stored, errors: [] };
    ctx.body = body;
  });

  router.get("/api/admin/ad-spend", async (ctx) => {
    const { from, to } = ctx.input.query;
    const body: AdSpendList = { items: await refusing("spend", () => deps.spend.list(from, to)) };
    ctx.body = body;
  });

  router.put("/api/admin/ad-spend/links", async (ctx) => {
    const link = ctx.input.body;
    const to = link.utmCampaign === null || link.utmCampaign === link.campaign ? null : link.utmCampaign;
    await refusing("spend", () =>
      deps.spend.link(
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
      ),
    );
    ctx.status = 204;
  });

  return router;
}
