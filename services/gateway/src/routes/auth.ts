import type { Context, Next } from "koa";
import { AdminSession, LOGIN_FAILED_MESSAGE, LoginNextStep } from "@lease/contracts";
import {
  HttpError,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  contractRouter,
  issueSession,
  requireAdmin,
  revokeSession,
  sessionGeneration,
  type ContractRouter,
  type SessionDeps,
} from "@lease/platform";
import type { AdminRow, AdminsRepository } from "../repositories/admins";
import type { AuditRecord, AuditRepository } from "../repositories/audit";
import { dummyPasswordHash, hashPassword, newPasswordProblem, verifyPassword } from "../domain/passwords";
import type { CodeBrake, LoginThrottle } from "../domain/login-throttle";
import { PasswordGateBusy, type PasswordGate } from "../domain/password-gate";
import type { LoginEvents } from "../domain/login-events";
import type { LoginStep, LoginTickets } from "../domain/login-tickets";
import type { SecretBox } from "../domain/secret-box";
import { checkTotp, looksLikeRecoveryCode, recoveryCodeHash } from "../domain/totp";

export interface AuthDeps {
  admins: AdminsRepository;
  session: SessionDeps;
  throttle: LoginThrottle;
  /** Bounds the password-hashing work: every argon2 check and hash runs through it. */
  passwords: PasswordGate;
  /** The per-account bound on wrong second-factor codes. */
  codes: CodeBrake;
  /** The sign-in's metric and its audit rows of failures and locks. */
  events: LoginEvents;
  tickets: LoginTickets;
  /** Opens the admins' sealed TOTP secrets. */
  secrets: SecretBox;
  audit: AuditRepository;
  secureCookies: (ctx: Context) => boolean;
  clientIp: (ctx: Context) => string;
}

export const LOGIN_EXPIRED_MESSAGE = "Je inlogpoging is verlopen. Log opnieuw in.";
export const WRONG_CODE_MESSAGE = "Onjuiste code. Probeer het opnieuw.";
export const ONE_TIME_PASSWORD_EXPIRED_MESSAGE =
  "Dit eenmalige wachtwoord is verlopen (het werkt 72 uur). Vraag een andere beheerder om een nieuw wachtwoord.";
export const USED_CODE_MESSAGE = "Deze code is al gebruikt. Wacht op de volgende code.";
export const ACCOUNT_DISABLED_MESSAGE =
  "Dit account is uitgeschakeld. Vraag een andere beheerder om het weer in te schakelen.";
export const SAME_PASSWORD_MESSAGE = "Kies een ander wachtwoord dan het huidige";
export const PASSWORDS_BUSY_MESSAGE =
  "Er wordt nu erg vaak geprobeerd in te loggen. Probeer het over een paar seconden opnieuw.";

/** The password checks are saturated: nothing was checked, come back after Retry-After. */
export function passwordsBusy(retryAfterSeconds: number): HttpError {
  return new HttpError(503, "login_busy", PASSWORDS_BUSY_MESSAGE, undefined, {
    "Retry-After": String(retryAfterSeconds),
  });
}

/**
 * Password work of a signed-in admin or a sign-in ticket (a right password came before): through
 * the gate ahead of anonymous sign-ins, never refused.
 */
export function priorityPasswordWork<T>(deps: Pick<AuthDeps, "passwords">, work: () => Promise<T>) {
  return deps.passwords.run(work, { priority: true });
}

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

/**
 * Writes an audit log entry; a failure to write is logged, the change it describes stands. The
 * signed-in admin's entries are bound to their id (from the session) unless the entry names one.
 */
export async function audited(deps: Pick<AuthDeps, "audit">, ctx: Context, entry: AuditRecord) {
  const session = ctx.state.admin;
  const actorId = entry.actorId ?? (session && session.username === entry.actor ? session.id : null);
  try {
    await deps.audit.record({ ...entry, actorId });
  } catch (err) {
    ctx.state.log.error({ action: entry.action, err: (err as Error).message }, "audit log entry not written");
  }
}

const loginExpired = () => new HttpError(401, "login_expired", LOGIN_EXPIRED_MESSAGE);
const codesLocked = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    "codes_locked",
    `Te veel onjuiste codes voor dit account. Gebruik een herstelcode, of probeer het over ${minutes} ${minutes === 1 ? "minuut" : "minuten"} opnieuw met de app.`,
    undefined,
    { "Retry-After": String(seconds) },
  );
};
const accountDisabled = () => new HttpError(403, "account_disabled", ACCOUNT_DISABLED_MESSAGE);

/**
 * Spends a second factor of the admin: an app code (its step is recorded, so it never counts twice)
 * or a recovery code. Which it was, "used" for an app code already spent, or undefined when wrong.
 */
export async function useSecondFactor(
  deps: Pick<AuthDeps, "admins" | "secrets">,
  ctx: Context,
  admin: AdminRow,
  code: string,
): Promise<"totp" | "recovery" | "used" | undefined> {
  if (!admin.totpSecret) return undefined;
  if (/^\d{6}$/.test(code)) {
    const secret = deps.secrets.open(admin.totpSecret);
    if (secret === undefined) {
      ctx.state.log.error({ username: admin.username }, "TOTP secret cannot be opened");
      return undefined;
    }
    const step = checkTotp(secret, code, admin.totpLastStep);
    if (step === undefined || step === "used") return step;
    // false: the same code at the same moment in another request, which took it.
    return (await deps.admins.useTotpStep(admin.id, step)) ? "totp" : "used";
  }
  if (looksLikeRecoveryCode(code) && (await deps.admins.useRecoveryCode(admin.id, recoveryCodeHash(code))))
    return "recovery";
  return undefined;
}

/** Set ahead of the handler (and of the body's validation): a refusal is not kept either. */
async function noStore(ctx: Context, next: Next) {
  ctx.set("Cache-Control", "no-store");
  return next();
}

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
    const { token } = await issueSession(deps.session, admin, generation);
    await deps.admins.recordLogin(admin.id);
    await audited(deps, ctx, {
      actor: admin.username,
      actorId: admin.id,
      action: "login.success",
      detail: step,
    });
    setSessionCookie(ctx, deps.secureCookies(ctx), token, SESSION_TTL_SECONDS);
    ctx.state.log.info(audit(ctx, admin.username, "success", step), "admin login");
    ctx.body = AdminSession.parse({ admin: { id: admin.id, username: admin.username } });
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

  router.post("/api/admin/login", noStore, async (ctx) => {
    const body = ctx.input.body;
    const ip = deps.clientIp(ctx);
    const verdict = await deps.throttle.begin(body.username, ip);
    if (!verdict.allowed) {
      ctx.state.log.warn(audit(ctx, body.username, "locked"), "admin login");
      deps.events.count("password", "locked");
      throw tooManyAttempts(verdict.retryAfterSeconds);
    }
    // The hashing work is bounded (README, "Password guessing"): the lookup and the check wait for
    // their turn, an address the username signed in from before ahead of the anonymous ones, and a
    // full gate is a 503 with nothing checked. An unknown username takes the same turn and the
    // same check (a dummy hash), so neither the wait nor a 503 tells which usernames exist.
    let checked: { generation: number; admin: AdminRow | undefined; valid: boolean };
    try {
      checked = await deps.passwords.run(
        async () => {
          // Before the password check: a reset that lands during it then ends this session as well.
          const generation = await sessionGeneration(deps.session, body.username);
          const admin = await deps.admins.findByUsername(body.username);
          const valid = await verifyPassword(admin?.password ?? (await dummyPasswordHash()), body.password);
          return { generation, admin, valid };
        },
        { priority: verdict.knownAddress },
      );
    } catch (err) {
      if (!(err instanceof PasswordGateBusy)) throw err;
      await deps.throttle.unchecked(body.username, ip);
      // Counted, not logged one by one: a flood would otherwise write a line per attempt.
      ctx.state.log.debug(audit(ctx, body.username, "busy"), "admin login");
      deps.events.count("password", "busy");
      throw passwordsBusy(err.retryAfterSeconds);
    }
    const { generation, admin, valid } = checked;
    // A disabled account answers as a wrong password does, right password or not: the answer
    // never tells whether a password of a disabled account is right.
    if (!admin || !valid || admin.disabledAt) {
      const locked = await deps.throttle.failed(body.username, ip);
      ctx.state.log.warn(audit(ctx, body.username, admin && valid ? "disabled" : "failure"), "admin login");
      deps.events.count("password", "failure");
      if (admin) {
        await deps.events.audit(admin, "login.failed", ip, valid ? "account uitgeschakeld" : undefined);
        if (locked) await deps.events.audit(admin, "login.locked", ip, `wachtwoord; ${locked}`);
      }
      throw new HttpError(401, "invalid_credentials", LOGIN_FAILED_MESSAGE);
    }
    deps.events.count("password", "success");
    if (
      admin.mustChangePassword &&
      admin.oneTimePasswordExpiresAt &&
      admin.oneTimePasswordExpiresAt < new Date()
    ) {
      await deps.throttle.passed(body.username, ip);
      ctx.state.log.warn(audit(ctx, admin.username, "one_time_password_expired"), "admin login");
      throw new HttpError(401, "one_time_password_expired", ONE_TIME_PASSWORD_EXPIRED_MESSAGE);
    }
    if (admin.totpEnabledAt && admin.totpSecret) {
      // The password's attempt is given back, the pair's failures stay: every wrong code counts,
      // and the right password sent again in between clears nothing.
      await deps.throttle.passed(body.username, ip);
      return nextStep(ctx, admin, generation, "totp");
    }
    await deps.throttle.succeeded(body.username, ip);
    await afterSecrets(ctx, admin, generation, "password");
  });

  router.post("/api/admin/login/totp", noStore, async (ctx) => {
    const body = ctx.input.body;
    const ticket = await deps.tickets.read(body.ticket, "totp");
    if (!ticket) throw loginExpired();
    const ip = deps.clientIp(ctx);
    // The code step is braked like the password: per username and address, per address.
    const verdict = await deps.throttle.begin(ticket.username, ip);
    if (!verdict.allowed) {
      ctx.state.log.warn(audit(ctx, ticket.username, "locked", "totp"), "admin login");
      deps.events.count("code", "locked");
      throw tooManyAttempts(verdict.retryAfterSeconds);
    }
    const admin = await deps.admins.findByUsername(ticket.username);
    if (!admin?.totpEnabledAt || !admin.totpSecret) {
      await deps.tickets.spend(body.ticket);
      throw loginExpired();
    }
    const appCode = /^\d{6}$/.test(body.code);
    // And per account, from every address together: app codes rest once too many were wrong.
    const bound = await deps.codes.begin(admin.id, appCode ? "totp" : "recovery");
    if (!bound.allowed) {
      await deps.throttle.passed(ticket.username, ip);
      ctx.state.log.warn(audit(ctx, admin.username, "codes_locked", "totp"), "admin login");
      deps.events.count("code", "locked");
      throw codesLocked(bound.retryAfterSeconds);
    }
    const factor = await useSecondFactor(deps, ctx, admin, body.code);
    const accepted = factor === "used" ? undefined : factor;
    const used = factor === "used";
    if (!accepted) {
      const locked = await deps.throttle.failed(ticket.username, ip);
      const usedUp = await deps.tickets.failed(body.ticket);
      ctx.state.log.warn(audit(ctx, admin.username, used ? "used_code" : "failure", "totp"), "admin login");
      deps.events.count("code", "failure");
      await deps.events.audit(admin, "login.code_failed", ip, used ? "code al gebruikt" : undefined);
      if (locked) await deps.events.audit(admin, "login.locked", ip, `code; ${locked}`);
      if (bound.failures === deps.codes.options.maxFailures)
        await deps.events.audit(admin, "login.locked", ip, "code; account: alleen nog een herstelcode");
      if (usedUp) throw new HttpError(401, "login_expired", "Te vaak een onjuiste code. Log opnieuw in.");
      if (used) throw new HttpError(401, "used_code", USED_CODE_MESSAGE);
      throw new HttpError(401, "invalid_code", WRONG_CODE_MESSAGE);
    }
    await deps.throttle.succeeded(ticket.username, ip);
    await deps.codes.succeeded(admin.id);
    deps.events.count("code", "success");
    if (!(await deps.tickets.spend(body.ticket))) throw loginExpired();
    if (admin.disabledAt) {
      ctx.state.log.warn(audit(ctx, admin.username, "disabled", accepted), "admin login");
      throw accountDisabled();
    }
    await afterSecrets(ctx, admin, ticket.generation, accepted);
  });

  router.post("/api/admin/login/new-password", noStore, async (ctx) => {
    const body = ctx.input.body;
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
    if (await priorityPasswordWork(deps, () => verifyPassword(admin.password, body.newPassword))) {
      throw new HttpError(400, "validation_failed", SAME_PASSWORD_MESSAGE, [
        { path: "newPassword", message: SAME_PASSWORD_MESSAGE },
      ]);
    }
    if (!(await deps.tickets.spend(body.ticket))) throw loginExpired();
    const hash = await priorityPasswordWork(deps, () => hashPassword(body.newPassword));
    await deps.admins.setPassword(admin.username, hash);
    ctx.state.log.info({ username: admin.username, outcome: "password_set" }, "admin password");
    await finish(ctx, admin, ticket.generation, "new_password");
  });

  router.get("/api/admin/me", requireAdmin(deps.session), (ctx) => {
    ctx.body = AdminSession.parse({
      admin: { id: ctx.state.admin!.id, username: ctx.state.admin!.username },
    });
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
