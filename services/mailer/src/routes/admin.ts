import { INBOX_CURSOR_HEADER, INBOX_TOTAL_HEADER, INBOX_UNREAD_HEADER } from "@lease/contracts";
import { contractRouter, requireAdmin, type SessionDeps } from "@lease/platform";
import type { EmailsDomain } from "../domain/emails";

export function adminRoutes(deps: { emails: EmailsDomain; session: SessionDeps }) {
  const router = contractRouter("mailer", requireAdmin(deps.session));

  router.get("/api/admin/emails", async (ctx) => {
    const { folder, limit, before, leaseRequestId } = ctx.input.query;
    const { items, next, total, unread } = await deps.emails.list(folder, limit, before, leaseRequestId);
    ctx.set(INBOX_TOTAL_HEADER, String(total));
    ctx.set(INBOX_UNREAD_HEADER, String(unread));
    if (next) ctx.set(INBOX_CURSOR_HEADER, next);
    ctx.body = items;
  });

  router.get("/api/admin/emails/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    ctx.body = await deps.emails.get(id);
  });

  // Whatever the sender called it, a download never runs in the panel's origin: always an
  // attachment, as a type the browser does not render (the name keeps its own extension).
  router.get("/api/admin/emails/{id}/attachments/{attachmentId}", async (ctx) => {
    const { id, attachmentId } = ctx.input.params;
    const file = await deps.emails.attachment(id, attachmentId);
    ctx.set("Content-Disposition", contentDisposition(file.fileName));
    ctx.set("Cache-Control", "no-store");
    ctx.set("Content-Security-Policy", "default-src 'none'; sandbox");
    ctx.type = "application/octet-stream";
    ctx.body = file.content;
  });

  router.post("/api/admin/emails/{id}/retry", async (ctx) => {
    const { id } = ctx.input.params;
    ctx.status = 202;
    ctx.body = await deps.emails.retry(id, ctx.state.requestId, ctx.state.log, ctx.state.admin!.username);
  });

  router.post("/api/admin/emails/{id}/cancel", async (ctx) => {
    const { id } = ctx.input.params;
    ctx.body = await deps.emails.cancel(id, ctx.state.log, ctx.state.admin!.username);
  });

  router.put("/api/admin/emails/{id}/read", async (ctx) => {
    const { id } = ctx.input.params;
    ctx.body = await deps.emails.markRead(id);
  });

  router.delete("/api/admin/emails/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    await deps.emails.delete(id, ctx.state.log, ctx.state.admin!.username);
    ctx.status = 204;
  });

  router.post("/api/admin/email-settings/test", async (ctx) => {
    ctx.body = await deps.emails.sendTest(ctx.state.requestId, ctx.state.log, ctx.state.admin!.username);
  });

  router.post("/api/admin/send-email", async (ctx) => {
    const body = ctx.input.body;
    ctx.status = 202;
    ctx.body = await deps.emails.send(body, ctx.state.requestId, ctx.state.log, ctx.state.admin!.username);
  });

  return router;
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): an ASCII fallback and the real name. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
