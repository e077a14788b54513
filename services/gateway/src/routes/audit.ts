import { AuditLogPage } from "@lease/contracts";
import { contractRouter, requireAdmin, type ContractRouter, type SessionDeps } from "@lease/platform";
import type { AuditRepository } from "../repositories/audit";

/** GET /api/admin/audit-log: newest first, filtered by action and admin, paged by time. */
export function auditRoutes(deps: { session: SessionDeps; audit: AuditRepository }): ContractRouter {
  const router = contractRouter("gateway", requireAdmin(deps.session));
  router.get("/api/admin/audit-log", async (ctx) => {
    const query = ctx.input.query;
    ctx.body = AuditLogPage.parse({ items: await deps.audit.page(query) });
  });
  return router;
}
