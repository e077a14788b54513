import { HttpError, contractRouter, notFound, requireAdmin, type SessionDeps } from "@lease/platform";
import type { ResponseReportDomain } from "../domain/response-report";
import type { CallsRepository } from "../repositories/calls";
import type { ResponseSettingsDomain } from "../domain/response-settings";
import type { LeaseRequestsDomain } from "../domain/lease-requests";

/** Who answers a lead and how fast: the settings. */
export function responseRoutes(deps: {
  settings: ResponseSettingsDomain;
  leads: LeaseRequestsDomain;
  calls: CallsRepository;
  report: ResponseReportDomain;
  session: SessionDeps;
  nudge: () => void;
}) {
  const router = contractRouter("leads", requireAdmin(deps.session));

  router.get("/api/admin/response-settings", async (ctx) => {
    ctx.body = await deps.settings.get();
  });

  router.put("/api/admin/response-settings", async (ctx) => {
    const settings = ctx.input.body;
    ctx.body = await deps.settings.update(settings, ctx.state.admin!.username);
  });

  // Staff reassign a lead from its detail (audited, "Toegewezen aan …" on its timeline).
  router.patch("/api/admin/lease-requests/{id}/owner", async (ctx) => {
    const { id } = ctx.input.params;
    const { ownerId } = ctx.input.body;
    ctx.body = await deps.leads.reassign(id, ownerId, ctx.state.admin!.username);
  });

  // "Bellen": the call staff made, logged when they come back to the panel.
  router.post("/api/admin/lease-requests/{id}/calls", async (ctx) => {
    const { id } = ctx.input.params;
    const call = ctx.input.body;
    const { calendar } = await deps.settings.active();
    const logged = await deps.calls.log(id, ctx.state.admin!, call, calendar);
    if (!logged) throw notFound("Lease aanvraag niet gevonden");
    deps.nudge();
    ctx.status = 201;
    ctx.body = logged;
  });

  // How the promises are kept, over time: the report and its CSV.
  router.get("/api/admin/response-report", async (ctx) => {
    const period = ctx.input.query;
    ctx.body = await reading(() => deps.report.report(period));
  });

  router.get("/api/admin/response-report.csv", async (ctx) => {
    const period = ctx.input.query;
    const csv = await reading(() => deps.report.csv(period));
    ctx.type = "text/csv; charset=utf-8";
    ctx.set("Content-Disposition", `attachment; filename="reactietijden-${period.from}-${period.to}.csv"`);
    ctx.body = csv;
  });

  return router;
}

/** A report stopped by its statement timeout (SQLSTATE 57014) is a Dutch 503, not a 500. */
async function reading<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: string }).code === "57014")
      throw new HttpError(
        503,
        "report_timeout",
        "Het rapport kon niet op tijd worden gemaakt; probeer het zo nog eens of kies een kortere periode",
        undefined,
        { "Retry-After": "5" },
      );
    throw err;
  }
}
