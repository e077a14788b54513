import type { Context, Next } from "koa";
import {
  AdminSession,
  LOGIN_FAILED_MESSAGE,
  LoginBody,
  LoginNewPasswordBody,
  LoginNextStep,
  LoginTotpBody,
} from "@lease/contracts";
import {
  HttpError,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  contractRouter,
  issueSession,
  parseOr400,
  requireAdmin,
  revokeSession,
  sessionGeneration,
  type ContractRouter,
  type SessionDeps,
} from "@lease/platform";
import type { AdminRow, AdminsRepository } from "../repositories/admins";
import type { AuditRecord, AuditRepository } from "../repositories/audit";
import { dummyPasswordHash, hashPassword, newPasswordProblem, verifyPassword } from "../domain/passwords";
import type { LoginThrottle } from "../domain/login-throttle";
import type { LoginStep, LoginTickets } from "../domain/login-tickets";
import type { SecretBox } from "../domain/secret-box";
import { looksLikeRecoveryCode, matchTotp, recoveryCodeHash } from "../domain/totp";

export interface AuthDeps {
  admins: AdminsRepository;
  session: SessionDeps;
  throttle: LoginThrottle;
  tickets: LoginTickets;
  /** Opens the admins' sealed TOTP secrets. */
  secrets: SecretBox;
  audit: AuditRepository;
  secureCookies: (ctx: Context) => boolean;
  clientIp: (ctx: Context) => string;
}

export const LOGIN_EXPIRED_MESSAGE = "Je inlogpoging is verlopen. Log opnieuw in.";
export const WRONG_CODE_MESSAGE = "Onjuiste code. Probeer het opnieuw.";
export const ACCOUNT_DISABLED_MESSAGE =
  "Dit account is uitgeschakeld. Vraag een andere beheerder om het weer in te schakelen.";
export const SAME_PASSWORD_MESSAGE = "Kies een ander wachtwoord dan het huidige";

export function setSessionCookie(ctx: Context, secure: boolean, token: string, maxAge: number) {
  const name = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const attrs = [`${name}=${token}`, "Path=/", "HttpOnly", "SameSite=Strict", `Max-Age=${maxAge}`];
  if (secure) attrs.push("Secure");
  ctx.append("Set-Cookie", attrs.join("; "));
}

export function tooManyAttempts(seconds: number): HttpError {
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    "rate_limited",
    `Te veel mislukte pogingen. Probeer het over ${minutes} ${minutes === 1 ? "minuut" : "minuten"} opnieuw.`,
    undefined,
    { "Retry-After": String(seconds) },
  );
}

/** Writes an audit log entry; a failure to write is logged, the change it describes stands. */
export async function audited(deps: Pick<AuthDeps, "audit">, ctx: Context, entry: AuditRecord) {
  try {
    await deps.audit.record(entry);
  } catch (err) {
    ctx.state.log.error({ action: entry.action, err: (err as Error).message }, "audit log entry not written");
  }
}

const loginExpired = () => new HttpError(401, "login_expired", LOGIN_EXPIRED_MESSAGE);
const accountDisabled = () => new HttpError(403, "account_disabled", ACCOUNT_DISABLED_MESSAGE);

export function authRoutes(deps: AuthDeps): ContractRouter {
  const router = contractRouter("gateway");
  // Never a password, code or ticket in the log: only who tried, from where, and how it ended.
  const audit = (ctx: Context, username: string, outcome: string, step = "password") => ({
    username,
    ip: deps.clientIp(ctx),
    step,
    outcome,
  });

  /** Signs in: the session (of the generation read before the password check) and its cookie. */
  async function finish(ctx: Context, admin: AdminRow, generation: number, step: string) {
    const { token } = await issueSession(deps.session, admin.username, generation);
    await deps.admins.recordLogin(admin.id);
    await audited(deps, ctx, { actor: admin.username, action: "login.success", detail: step });
    setSessionCookie(ctx, deps.secureCookies(ctx), token, SESSION_TTL_SECONDS);
    ctx.state.log.info(audit(ctx, admin.username, "success", step), "admin login");
    ctx.body = AdminSession.parse({ admin: { username: admin.username } });
  }

  async function nextStep(ctx: Context, admin: AdminRow, generation: number, next: LoginStep) {
    const ticket = await deps.tickets.issue({ username: admin.username, generation, step: next });
    ctx.state.log.info(audit(ctx, admin.username, `next:${next}`), "admin login");
    ctx.body = LoginNextStep.parse({ next, ticket });
  }

  /** Every secret checked: sign in, unless a one-time password must be replaced first. */
  async function afterSecrets(ctx: Context, admin: AdminRow, generation: number, step: string) {
    if (admin.mustChangePassword) return nextStep(ctx, admin, generation, "new_password");
    return finish(ctx, admin, generation, step);
  }

  router.post("/api/admin/login", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    const body = parseOr400(LoginBody, ctx.request.body);
    const ip = deps.clientIp(ctx);
    const verdict = await deps.throttle.begin(body.username, ip);
    if (!verdict.allowed) {
      ctx.state.log.warn(audit(ctx, body.username, "locked"), "admin login");
      throw tooManyAttempts(verdict.retryAfterSeconds);
    }
    // Before the password check: a reset that lands during it then ends this session as well.
    const generation = await sessionGeneration(deps.session, body.username);
    const admin = await deps.admins.findByUsername(body.username);
    // Verify against a dummy hash for unknown users too, so timing does not reveal which exist.
    const valid = await verifyPassword(admin?.password ?? (await dummyPasswordHash()), body.password);
    if (!admin || !valid) {
      await deps.throttle.failed(body.username, ip);
      ctx.state.log.warn(audit(ctx, body.username, "failure"), "admin login");
      throw new HttpError(401, "invalid_credentials", LOGIN_FAILED_MESSAGE);
    }
    if (admin.totpEnabledAt && admin.totpSecret) {
      // The password's attempt is given back, the pair's failures stay: every wrong code counts,
      // and the right password sent again in between clears nothing.
      await deps.throttle.passed(body.username, ip);
      return nextStep(ctx, admin, generation, "totp");
    }
    await deps.throttle.succeeded(body.username, ip);
    if (admin.disabledAt) {
      ctx.state.log.warn(audit(ctx, admin.username, "disabled"), "admin login");
      throw accountDisabled();
    }
    await afterSecrets(ctx, admin, generation, "password");
  });

  router.post("/api/admin/login/totp", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    const body = parseOr400(LoginTotpBody, ctx.request.body);
    const ticket = await deps.tickets.read(body.ticket, "totp");
    if (!ticket) throw loginExpired();
    const ip = deps.clientIp(ctx);
    // The code step is braked like the password: per username and address, per address.
    const verdict = await deps.throttle.begin(ticket.username, ip);
    if (!verdict.allowed) {
      ctx.state.log.warn(audit(ctx, ticket.username, "locked", "totp"), "admin login");
      throw tooManyAttempts(verdict.retryAfterSeconds);
    }
    const admin = await deps.admins.findByUsername(ticket.username);
    if (!admin?.totpEnabledAt || !admin.totpSecret) {
      await deps.tickets.spend(body.ticket);
      throw loginExpired();
    }
    let accepted: "totp" | "recovery" | undefined;
    if (/^\d{6}$/.test(body.code)) {
      const secret = deps.secrets.open(admin.totpSecret);
      const step = secret === undefined ? undefined : matchTotp(secret, body.code, admin.totpLastStep);
      if (secret === undefined)
        ctx.state.log.error({ username: admin.username }, "TOTP secret cannot be opened");
      if (step !== undefined && (await deps.admins.useTotpStep(admin.id, step))) accepted = "totp";
    } else if (looksLikeRecoveryCode(body.code)) {
      if (await deps.admins.useRecoveryCode(admin.id, recoveryCodeHash(body.code))) accepted = "recovery";
    }
    if (!accepted) {
      await deps.throttle.failed(ticket.username, ip);
      const usedUp = await deps.tickets.failed(body.ticket);
      ctx.state.log.warn(audit(ctx, admin.username, "failure", "totp"), "admin login");
      if (usedUp) throw new HttpError(401, "login_expired", "Te vaak een onjuiste code. Log opnieuw in.");
      throw new HttpError(401, "invalid_code", WRONG_CODE_MESSAGE);
    }
    await deps.throttle.succeeded(ticket.username, ip);
    if (!(await deps.tickets.spend(body.ticket))) throw loginExpired();
    if (admin.disabledAt) {
      ctx.state.log.warn(audit(ctx, admin.username, "disabled", accepted), "admin login");
      throw accountDisabled();
    }
    await afterSecrets(ctx, admin, ticket.generation, accepted);
  });

  router.post("/api/admin/login/new-password", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    const body = parseOr400(LoginNewPasswordBody, ctx.request.body);
    const ticket = await deps.tickets.read(body.ticket, "new_password");
    if (!ticket) throw loginExpired();
    const admin = await deps.admins.findByUsername(ticket.username);
    if (!admin) {
      await deps.tickets.spend(body.ticket);
      throw loginExpired();
    }
    if (admin.disabledAt) throw accountDisabled();
    const problem = newPasswordProblem(body.newPassword);
    if (problem)
      throw new HttpError(400, "validation_failed", problem, [{ path: "newPassword", message: problem }]);
    if (await verifyPassword(admin.password, body.newPassword)) {
      throw new HttpError(400, "validation_failed", SAME_PASSWORD_MESSAGE, [
        { path: "newPassword", message: SAME_PASSWORD_MESSAGE },
      ]);
    }
    if (!(await deps.tickets.spend(body.ticket))) throw loginExpired();
    await deps.admins.setPassword(admin.username, await hashPassword(body.newPassword));
    ctx.state.log.info({ username: admin.username, outcome: "password_set" }, "admin password");
    await finish(ctx, admin, ticket.generation, "new_password");
  });

  router.get("/api/admin/me", requireAdmin(deps.session), (ctx) => {
    ctx.body = AdminSession.parse({ admin: { username: ctx.state.admin!.username } });
  });

  // The cookie goes in every case; only a live session makes this a successful logout.
  const clearCookie = async (ctx: Context, next: Next) => {
    setSessionCookie(ctx, deps.secureCookies(ctx), "", 0);
    await next();
  };
  router.post("/api/admin/logout", clearCookie, requireAdmin(deps.session), async (ctx) => {
    const claims = ctx.state.admin!;
    await revokeSession(deps.session, claims.jti, { username: claims.username, logger: ctx.state.log });
    ctx.state.log.info({ username: claims.username, outcome: "logout" }, "admin logout");
    ctx.status = 204;
  });

  return router;
}
