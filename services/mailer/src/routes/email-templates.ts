import { contractRouter, requireAdmin, type SessionDeps } from "@lease/platform";
import type { EmailTemplatesRepository } from "../repositories/email-templates";

/** Staff keep their e-mail templates; the compose window offers them. */
export function emailTemplateRoutes(deps: { templates: EmailTemplatesRepository; session: SessionDeps }) {
  const router = contractRouter("mailer", requireAdmin(deps.session));

  router.get("/api/admin/email-templates", async (ctx) => {
    ctx.body = await deps.templates.list();
  });

  router.post("/api/admin/email-templates", async (ctx) => {
    const body = ctx.input.body;
    ctx.status = 201;
    ctx.body = await deps.templates.create(body, ctx.state.admin!.username);
  });

  router.put("/api/admin/email-templates/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    ctx.body = await deps.templates.update(id, ctx.input.body, ctx.state.admin!.username);
  });

  router.delete("/api/admin/email-templates/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    await deps.templates.remove(id, ctx.state.admin!.username);
    ctx.status = 204;
  });

  return router;
}
