import type { Context } from "koa";
import {
  AdminAccount,
  AdminSession,
  RECOVERY_CODE_COUNT,
  RecoveryCodes,
  TotpSetup,
  NOTIFY_EMAIL_NEEDED_MESSAGE,
} from "@lease/contracts";
import {
  HttpError,
  SESSION_TTL_SECONDS,
  contractRouter,
  endAllSessions,
  issueSession,
  notFound,
  requireAdmin,
  type ContractRouter,
} from "@lease/platform";
import type { AdminRow } from "../repositories/admins";
import { hashPassword, newPasswordProblem, verifyPassword } from "../domain/passwords";
import { matchTotp, newRecoveryCode, newTotpSecret, otpauthUri, recoveryCodeHash } from "../domain/totp";
import {
  ACCOUNT_DISABLED_MESSAGE,
  SAME_PASSWORD_MESSAGE,
  USED_CODE_MESSAGE,
  audited,
  priorityPasswordWork,
  setSessionCookie,
  tooManyAttempts,
  useSecondFactor,
  type AuthDeps,
} from "./auth";

export const WRONG_CURRENT_PASSWORD_MESSAGE = "Het huidige wachtwoord klopt niet";
export const TOTP_ALREADY_ON_MESSAGE = "Tweestapsverificatie staat al aan";
export const TOTP_NOT_STARTED_MESSAGE = "Start eerst het instellen van tweestapsverificatie";
export const WRONG_OFF_CODE_MESSAGE =
  "Onjuiste code. Vul een code uit je authenticator-app of een herstelcode in.";
export const WRONG_SETUP_CODE_MESSAGE =
  "Onjuiste code. Controleer of de tijd op je telefoon klopt en vul de nieuwste code in.";

/** The signed-in admin's own account: password and two-factor sign-in. */
export function accountRoutes(deps: AuthDeps, opts: { issuer: string }): ContractRouter {
  const router = contractRouter("gateway", requireAdmin(deps.session));

  async function me(ctx: Context): Promise<AdminRow> {
    // Removing or disabling an admin ends their sessions, so neither is expected here.
    const admin = await deps.admins.findByUsername(ctx.state.admin!.username);
    if (!admin) throw notFound("Dit account bestaat niet (meer)");
    if (admin.disabledAt) throw new HttpError(403, "account_disabled", ACCOUNT_DISABLED_MESSAGE);
    return admin;
  }
  const account = async (admin: AdminRow) =>
    AdminAccount.parse({
      username: admin.username,
      totpEnabled: Boolean(admin.totpEnabledAt),
      recoveryCodesLeft: admin.totpEnabledAt ? await deps.admins.recoveryCodesLeft(admin.id) : 0,
      notifyEmail: admin.notifyEmail,
      overdueEmail: admin.overdueEmail,
      weeklySummary: admin.weeklySummary,
    });

  /** The current password, braked like a sign-in (a left-open panel is no free guessing ground). */
  async function checkCurrentPassword(ctx: Context, admin: AdminRow, password: string) {
    const ip = deps.clientIp(ctx);
    const verdict = await deps.throttle.begin(admin.username, ip);
    if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);
    if (!(await priorityPasswordWork(deps, () => verifyPassword(admin.password, password)))) {
      await deps.throttle.failed(admin.username, ip);
      ctx.state.log.warn(
        { username: admin.username, ip, outcome: "wrong_current_password" },
        "admin account",
      );
      throw new HttpError(400, "validation_failed", WRONG_CURRENT_PASSWORD_MESSAGE, [
        { path: "currentPassword", message: WRONG_CURRENT_PASSWORD_MESSAGE },
      ]);
    }
    await deps.throttle.succeeded(admin.username, ip);
  }

  router.get("/api/admin/account", async (ctx) => {
    ctx.body = await account(await me(ctx));
  });

  // The admin's own notices: an e-mail needs an address; the audit names the fields, not the address.
  router.put("/api/admin/account", async (ctx) => {
    const body = ctx.input.body;
    const admin = await me(ctx);
    const address = body.notifyEmail === undefined ? admin.notifyEmail : body.notifyEmail;
    const wantsMail =
      (body.overdueEmail ?? admin.overdueEmail) || (body.weeklySummary ?? admin.weeklySummary);
    if (wantsMail && !address)
      throw new HttpError(400, "validation_failed", NOTIFY_EMAIL_NEEDED_MESSAGE, [
        { path: "notifyEmail", message: NOTIFY_EMAIL_NEEDED_MESSAGE },
      ]);
    const changed = (["notifyEmail", "overdueEmail", "weeklySummary"] as const).filter(
      (field) => body[field] !== undefined && body[field] !== admin[field],
    );
    let saved = admin;
    if (changed.length > 0) {
      saved = (await deps.admins.setNotices(admin.id, body)) ?? admin;
      await audited(deps, ctx, {
        actor: admin.username,
        actorId: admin.id,
        action: "account.preferences_changed",
        detail: changed.join(", "),
      });
    }
    ctx.body = await account(saved);
  });

  router.put("/api/admin/account/password", async (ctx) => {
    const body = ctx.input.body;
    const admin = await me(ctx);
    const problem = newPasswordProblem(body.newPassword);
    if (problem)
      throw new HttpError(400, "validation_failed", problem, [{ path: "newPassword", message: problem }]);
    await checkCurrentPassword(ctx, admin, body.currentPassword);
    if (body.newPassword === body.currentPassword) {
      throw new HttpError(400, "validation_failed", SAME_PASSWORD_MESSAGE, [
        { path: "newPassword", message: SAME_PASSWORD_MESSAGE },
      ]);
    }
    const hash = await priorityPasswordWork(deps, () => hashPassword(body.newPassword));
    await deps.admins.setPassword(admin.username, hash);
    // Every session of the admin ends (open sockets close), this one is replaced by a new one.
    await renewSession(ctx, admin);
    ctx.state.log.info({ username: admin.username, outcome: "password_changed" }, "admin account");
    await audited(deps, ctx, {
      actor: admin.username,
      actorId: admin.id,
      action: "account.password_changed",
    });
    ctx.body = AdminSession.parse({ admin: { id: admin.id, username: admin.username } });
  });

  /** Every other session of the admin ends (open sockets close); this one gets a new cookie. */
  async function renewSession(ctx: Context, admin: AdminRow) {
    await endAllSessions(deps.session, admin.username, ctx.state.log);
    const { token } = await issueSession(deps.session, admin);
    setSessionCookie(ctx, deps.secureCookies(ctx), token, SESSION_TTL_SECONDS);
  }

  router.post("/api/admin/account/totp/setup", async (ctx) => {
    const body = ctx.input.body;
    const admin = await me(ctx);
    if (admin.totpEnabledAt) throw new HttpError(409, "conflict", TOTP_ALREADY_ON_MESSAGE);
    await checkCurrentPassword(ctx, admin, body.currentPassword);
    const secret = newTotpSecret();
    if (!(await deps.admins.setPendingTotp(admin.id, deps.secrets.seal(secret))))
      throw new HttpError(409, "conflict", TOTP_ALREADY_ON_MESSAGE);
    ctx.state.log.info({ username: admin.username, outcome: "totp_setup_started" }, "admin account");
    ctx.body = TotpSetup.parse({ secret, uri: otpauthUri(opts.issuer, admin.username, secret) });
  });

  router.post("/api/admin/account/totp/confirm", async (ctx) => {
    const body = ctx.input.body;
    const admin = await me(ctx);
    if (admin.totpEnabledAt) throw new HttpError(409, "conflict", TOTP_ALREADY_ON_MESSAGE);
    const secret = admin.totpSecret ? deps.secrets.open(admin.totpSecret) : undefined;
    if (!secret) throw new HttpError(409, "conflict", TOTP_NOT_STARTED_MESSAGE);
    const step = matchTotp(secret, body.code, null);
    if (step === undefined) {
      throw new HttpError(400, "validation_failed", WRONG_SETUP_CODE_MESSAGE, [
        { path: "code", message: WRONG_SETUP_CODE_MESSAGE },
      ]);
    }
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    if (!(await deps.admins.enableTotp(admin.id, step, codes.map(recoveryCodeHash))))
      throw new HttpError(409, "conflict", TOTP_ALREADY_ON_MESSAGE);
    // A session someone else holds ends here: whoever turned it on keeps the only one.
    await renewSession(ctx, admin);
    ctx.state.log.info({ username: admin.username, outcome: "totp_enabled" }, "admin account");
    await audited(deps, ctx, { actor: admin.username, actorId: admin.id, action: "account.totp_enabled" });
    ctx.body = RecoveryCodes.parse({ codes });
  });

  router.post("/api/admin/account/totp/disable", async (ctx) => {
    const body = ctx.input.body;
    const admin = await me(ctx);
    await checkCurrentPassword(ctx, admin, body.currentPassword);
    if (admin.totpEnabledAt) {
      // The second factor too, under the same per-account bound as at sign-in.
      const bound = await deps.codes.begin(admin.id, /^\d{6}$/.test(body.code) ? "totp" : "recovery");
      if (!bound.allowed) throw tooManyAttempts(bound.retryAfterSeconds);
      const factor = await useSecondFactor(deps, ctx, admin, body.code);
      if (factor === undefined || factor === "used") {
        const message = factor === "used" ? USED_CODE_MESSAGE : WRONG_OFF_CODE_MESSAGE;
        deps.events.count("code", "failure");
        await deps.events.audit(
          admin,
          "login.code_failed",
          deps.clientIp(ctx),
          "tweestapsverificatie uitzetten",
        );
        throw new HttpError(400, "validation_failed", message, [{ path: "code", message }]);
      }
      await deps.codes.succeeded(admin.id);
    }
    await deps.admins.disableTotp(admin.id);
    ctx.state.log.info({ username: admin.username, outcome: "totp_disabled" }, "admin account");
    await audited(deps, ctx, { actor: admin.username, actorId: admin.id, action: "account.totp_disabled" });
    ctx.body = await account((await deps.admins.findById(admin.id)) ?? admin);
  });

  return router;
}
