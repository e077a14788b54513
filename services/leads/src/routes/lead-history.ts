import { contractRouter, requireAdmin, type AdminClaims, type SessionDeps } from "@lease/platform";
import type { LeadHistoryDomain } from "../domain/lead-history";

/** A lease request's timeline and its notes; notes are written as the signed-in admin. */
export function leadHistoryRoutes(deps: { history: LeadHistoryDomain; session: SessionDeps }) {
  const router = contractRouter("leads", requireAdmin(deps.session));
  // Bound to the admin's immutable id (the session's subject), shown with the name.
  const author = (state: { admin?: AdminClaims }) => ({
    id: state.admin!.id,
    username: state.admin!.username,
  });

  router.get("/api/admin/lease-requests/{id}/history", async (ctx) => {
    const { id } = ctx.input.params;
    ctx.body = await deps.history.history(id);
  });

  router.post("/api/admin/lease-requests/{id}/notes", async (ctx) => {
    const { id } = ctx.input.params;
    const { body } = ctx.input.body;
    ctx.status = 201;
    ctx.body = await deps.history.addNote(id, author(ctx.state), body);
  });

  router.put("/api/admin/lease-requests/{id}/notes/{noteId}", async (ctx) => {
    const { id, noteId } = ctx.input.params;
    const { body } = ctx.input.body;
    ctx.body = await deps.history.updateNote(id, noteId, author(ctx.state), body);
  });

  router.delete("/api/admin/lease-requests/{id}/notes/{noteId}", async (ctx) => {
    const { id, noteId } = ctx.input.params;
    await deps.history.deleteNote(id, noteId, author(ctx.state));
    ctx.status = 204;
  });

  return router;
}
