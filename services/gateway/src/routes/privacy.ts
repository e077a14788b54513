import { PrivacyErasure, PrivacyExport, PrivacySummary, QUEUES } from "@lease/contracts";
import {
  contractRouter,
  removeJobsHolding,
  requireAdmin,
  type ContractRouter,
  type QueueClient,
  type SessionDeps,
} from "@lease/platform";
import { describeCounts, type PrivacyDomain } from "../domain/privacy";
import { privacyDocument } from "../domain/privacy-document";
import type { AuditRepository } from "../repositories/audit";
import { audited } from "./auth";

/**
 * People's data (AVG): search, export (one JSON document for the person) and erasure of everything
 * held about an e-mail address. The export and the erasure are audited with counts only, never
 * the address.
 */
export function privacyRoutes(deps: {
  session: SessionDeps;
  audit: AuditRepository;
  auditQueue: QueueClient;
  privacy: PrivacyDomain;
}): ContractRouter {
  const router = contractRouter("gateway", requireAdmin(deps.session));

  router.post("/api/admin/privacy/search", async (ctx) => {
    const { email } = ctx.input.body;
    ctx.body = PrivacySummary.parse(deps.privacy.summarize(await deps.privacy.collect(email)));
  });

  router.post("/api/admin/privacy/export", async (ctx) => {
    const { email } = ctx.input.body;
    const data = await deps.privacy.collect(email);
    const now = new Date();
    const file = PrivacyExport.parse(privacyDocument(email, data, now));
    const counts = Object.fromEntries(deps.privacy.summarize(data).kinds.map((k) => [k.kind, k.count]));
    await audited(deps, ctx, {
      actor: ctx.state.admin!.username,
      action: "privacy.exported",
      detail: describeCounts(counts),
    });
    ctx.set(
      "Content-Disposition",
      `attachment; filename="persoonsgegevens-${now.toISOString().slice(0, 10)}.json"`,
    );
    ctx.set("Cache-Control", "no-store");
    ctx.type = "application/json";
    ctx.body = JSON.stringify(file, null, 2);
  });

  router.post("/api/admin/privacy/erase", async (ctx) => {
    const { email } = ctx.input.body;
    // The gateway's own references to the person's leads: audit entries naming them (their target
    // becomes "[gewist]") and audit.record jobs BullMQ still keeps that name them. Audit jobs carry
    // admins' names, never a person's address, so the address itself is not looked for there.
    const removed = await deps.privacy.erase(email, async (ids) => ({
      auditEntries: await deps.audit.forgetTargets(ids),
      jobs: await removeJobsHolding(deps.auditQueue, QUEUES.audit, ids),
    }));
    removed.auditEntries = (removed.auditEntries ?? 0) + (await deps.audit.forgetAddress(email));
    await audited(deps, ctx, {
      actor: ctx.state.admin!.username,
      action: "privacy.erased",
      detail: describeCounts(removed),
    });
    const total = Object.values(removed).reduce((n, c) => n + c, 0);
    ctx.body = PrivacyErasure.parse({ removed, total });
  });

  return router;
}
