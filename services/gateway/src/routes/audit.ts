import { AuditLogPage, AuditLogQuery } from "@lease/contracts";
import {
  contractRouter,
  parseOr400,
  requireAdmin,
  type ContractRouter,
  type SessionDeps,
} from "@lease/platform";
import type { AuditRepository } from "../repositories/audit";

/** GET /api/admin/audit-log: newest first, filtered by action and admin, paged by time. */
export function auditRoutes(deps: { session: SessionDeps; audit: AuditRepository }): ContractRouter {
  const router = contractRouter("gateway", requireAdmin(deps.session));
  router.get("/api/admin/audit-log", async (ctx) => {
    const query = parseOr400(AuditLogQuery, ctx.query);
    ctx.body = AuditLogPage.parse({ items: await deps.audit.page(query) });
  });
  return router;
}
