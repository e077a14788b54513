import { randomBytes } from "node:crypto";
import type { Context } from "koa";
import { AdminUser, AdminUserList, CreatedAdminUser } from "@lease/contracts";
import {
  HttpError,
  contractRouter,
  endAllSessions,
  notFound,
  requireAdmin,
  type ContractRouter,
} from "@lease/platform";
import type { AdminRow, GuardedChange } from "../repositories/admins";
import { hashPassword } from "../domain/passwords";
import { audited, priorityPasswordWork, type AuthDeps } from "./auth";

export const NO_SUCH_ADMIN_MESSAGE = "Deze beheerder bestaat niet (meer)";
export const OWN_TOTP_RESET_MESSAGE = "Je eigen tweestapsverificatie zet je uit onder Mijn account";
/** A removed admin's name is never given again: entries and notes that name it mean that account. */
export const retiredNameMessage = (username: string) =>
  `De naam "${username}" was van een verwijderde beheerder en wordt niet opnieuw gebruikt. Kies een andere naam.`;
const REFUSALS = {
  disable: {
    self: "Je kunt je eigen account niet uitschakelen",
    last_active: "De laatste actieve beheerder kan niet worden uitgeschakeld",
  },
  remove: {
    self: "Je kunt je eigen account niet verwijderen",
    last_active: "De laatste actieve beheerder kan niet worden verwijderd",
  },
} as const;

export const toAdminUser = (row: AdminRow): AdminUser =>
  AdminUser.parse({
    id: row.id,
    username: row.username,
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    disabled: Boolean(row.disabledAt),
    mustChangePassword: row.mustChangePassword,
    totpEnabled: Boolean(row.totpEnabledAt),
    takesNewLeads: row.takesNewLeads,
  });

function refused(result: Exclude<GuardedChange, { ok: true }>, action: keyof typeof REFUSALS): HttpError {
  if (result.reason === "not_found") return notFound(NO_SUCH_ADMIN_MESSAGE);
  return new HttpError(409, "conflict", REFUSALS[action][result.reason]);
}

/** The team: every admin may list, create, disable, enable and remove the others. */
export function userRoutes(deps: AuthDeps): ContractRouter {
  const router = contractRouter("gateway", requireAdmin(deps.session));

  router.get("/api/admin/users", async (ctx) => {
    ctx.body = AdminUserList.parse({ items: (await deps.admins.list()).map(toAdminUser) });
  });

  router.post("/api/admin/users", async (ctx) => {
    const { username } = ctx.input.body;
    // 96 random bits; the new admin replaces it at the first sign-in.
    const oneTimePassword = randomBytes(12).toString("base64url");
    const hash = await priorityPasswordWork(deps, () => hashPassword(oneTimePassword));
    const row = await deps.admins.create(username, hash, {
      mustChangePassword: true,
    });
    if (row === "taken") throw new HttpError(409, "conflict", `Er bestaat al een beheerder "${username}"`);
    if (row === "retired") throw new HttpError(409, "conflict", retiredNameMessage(username));
    ctx.state.log.info({ by: ctx.state.admin!.username, username, outcome: "admin_created" }, "admin users");
    await audited(deps, ctx, { actor: ctx.state.admin!.username, action: "admin.created", target: username });
    ctx.status = 201;
    ctx.body = CreatedAdminUser.parse({ user: toAdminUser(row), oneTimePassword });
  });

  router.patch("/api/admin/users/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    const { disabled, takesNewLeads } = ctx.input.body;
    let row: AdminRow | undefined;
    if (takesNewLeads !== undefined) {
      const before = await deps.admins.findById(id);
      row = await deps.admins.setTakesNewLeads(id, takesNewLeads);
      if (!before || !row) throw notFound(NO_SUCH_ADMIN_MESSAGE);
      if (before.takesNewLeads !== takesNewLeads)
        await audited(deps, ctx, {
          actor: ctx.state.admin!.username,
          action: "admin.takes_new_leads_changed",
          target: row.username,
          detail: takesNewLeads ? "aan" : "uit",
        });
    }
    if (disabled !== undefined) row = await setDisabled(ctx, id, disabled);
    ctx.body = toAdminUser(row!);
  });

  /** Disables or enables an admin; a disabled admin's open leads go to others (leads hears of it). */
  async function setDisabled(ctx: Context, id: string, disabled: boolean): Promise<AdminRow> {
    const result = await deps.admins.setDisabled(ctx.state.admin!.username, id, disabled);
    if (!result.ok) throw refused(result, "disable");
    // A disabled admin is out at once: every session ends, open sockets close.
    if (disabled) await endAllSessions(deps.session, result.row.username, ctx.state.log, "disabled");
    ctx.state.log.info(
      {
        by: ctx.state.admin!.username,
        username: result.row.username,
        outcome: disabled ? "admin_disabled" : "admin_enabled",
      },
      "admin users",
    );
    await audited(deps, ctx, {
      actor: ctx.state.admin!.username,
      action: disabled ? "admin.disabled" : "admin.enabled",
      target: result.row.username,
    });
    return result.row;
  }

  // A lost phone and lost recovery codes: another admin turns the second factor off (audited),
  // the admin's sessions end, and they sign in with their password alone and set it up again.
  router.post("/api/admin/users/{id}/totp/reset", async (ctx) => {
    const { id } = ctx.input.params;
    if (id === ctx.state.admin!.id) throw new HttpError(409, "conflict", OWN_TOTP_RESET_MESSAGE);
    const row = await deps.admins.findById(id);
    if (!row) throw notFound(NO_SUCH_ADMIN_MESSAGE);
    await deps.admins.disableTotp(row.id);
    await endAllSessions(deps.session, row.username, ctx.state.log, "totp_reset");
    ctx.state.log.info(
      { by: ctx.state.admin!.username, username: row.username, outcome: "admin_totp_reset" },
      "admin users",
    );
    await audited(deps, ctx, {
      actor: ctx.state.admin!.username,
      action: "admin.totp_reset",
      target: row.username,
    });
    ctx.body = toAdminUser((await deps.admins.findById(row.id)) ?? row);
  });

  router.delete("/api/admin/users/{id}", async (ctx) => {
    const { id } = ctx.input.params;
    const result = await deps.admins.removeById(ctx.state.admin!.username, id);
    if (!result.ok) throw refused(result, "remove");
    await endAllSessions(deps.session, result.row.username, ctx.state.log, "removed");
    ctx.state.log.info(
      { by: ctx.state.admin!.username, username: result.row.username, outcome: "admin_removed" },
      "admin users",
    );
    await audited(deps, ctx, {
      actor: ctx.state.admin!.username,
      action: "admin.removed",
      target: result.row.username,
    });
    ctx.status = 204;
  });

  return router;
}
