import type { Context, Next } from "koa";
import { AdminSession, LOGIN_FAILED_MESSAGE, LoginBody } from "@lease/contracts";
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
import type { AdminsRepository } from "../repositories/admins";
import { dummyPasswordHash, verifyPassword } from "../domain/passwords";
import type { LoginThrottle } from "../domain/login-throttle";

export interface AuthDeps {
  admins: AdminsRepository;
  session: SessionDeps;
  throttle: LoginThrottle;
  secureCookies: (ctx: Context) => boolean;
  clientIp: (ctx: Context) => string;
}

function setSessionCookie(ctx: Context, secure: boolean, token: string, maxAge: number) {
  const name = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const attrs = [`${name}=${token}`, "Path=/", "HttpOnly", "SameSite=Strict", `Max-Age=${maxAge}`];
  if (secure) attrs.push("Secure");
  ctx.append("Set-Cookie", attrs.join("; "));
}

function tooManyAttempts(seconds: number): HttpError {
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    "rate_limited",
    `Te veel mislukte pogingen. Probeer het over ${minutes} ${minutes === 1 ? "minuut" : "minuten"} opnieuw.`,
    undefined,
    { "Retry-After": String(seconds) },
  );
}

export function authRoutes(deps: AuthDeps): ContractRouter {
  const router = contractRouter("gateway");

  router.post("/api/admin/login", async (ctx) => {
    const body = parseOr400(LoginBody, ctx.request.body);
    const ip = deps.clientIp(ctx);
    // Never the password: only who tried, from where, and how it ended.
    const audit = (outcome: string) => ({ username: body.username, ip, outcome });
    const verdict = await deps.throttle.begin(body.username, ip);
    if (!verdict.allowed) {
      ctx.state.log.warn(audit("locked"), "admin login");
      throw tooManyAttempts(verdict.retryAfterSeconds);
    }
    // Before the password check: a reset that lands during it then ends this session as well.
    const generation = await sessionGeneration(deps.session, body.username);
    const admin = await deps.admins.findByUsername(body.username);
    // Verify against a dummy hash for unknown users too, so timing does not reveal which exist.
    const valid = await verifyPassword(admin?.password ?? (await dummyPasswordHash()), body.password);
    if (!admin || !valid) {
      await deps.throttle.failed(body.username, ip);
      ctx.state.log.warn(audit("failure"), "admin login");
      throw new HttpError(401, "invalid_credentials", LOGIN_FAILED_MESSAGE);
    }
    await deps.throttle.succeeded(body.username, ip);
    const { token } = await issueSession(deps.session, admin.username, generation);
    setSessionCookie(ctx, deps.secureCookies(ctx), token, SESSION_TTL_SECONDS);
    ctx.state.log.info(audit("success"), "admin login");
    ctx.set("Cache-Control", "no-store");
    ctx.body = AdminSession.parse({ admin: { username: admin.username } });
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
