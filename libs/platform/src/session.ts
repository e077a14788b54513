import { randomUUID, timingSafeEqual } from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import type { Context, Next } from "koa";
import { CHANNELS, SessionsEndedEvent } from "@lease/contracts";
import type { Logger } from "./logger";
import type { Redis } from "./redis";
import type { Keyspace } from "./redis";
import { HttpError, unauthorized } from "./errors";
import { publishEvent } from "./pubsub";
import { markGuard } from "./routes";

export const SESSION_COOKIE = "admin_session";
export const SECURE_SESSION_COOKIE = "__Host-admin_session";
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

/** Who a session is for: the admin's immutable id and the username it signs in with. */
export interface AdminIdentity {
  id: string;
  username: string;
}

export interface AdminClaims {
  /** The admin's immutable id (the token's subject): authorship and audit entries are bound to it. */
  id: string;
  username: string;
  jti: string;
  exp: number;
  /** The admin's session generation when the token was issued (see endAllSessions). */
  gen: number;
}

export interface SessionDeps {
  redis: Redis;
  keys: Keyspace;
  jwtSecret: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const secretKey = (secret: string) => new TextEncoder().encode(secret);
const sessionKey = (keys: Keyspace, jti: string) => keys("session", jti);
// One counter per admin that ever had all its sessions ended: a handful of keys, created only by a
// password reset or a removal, never by an anonymous request. Kept without expiry: were
// it to vanish, the tokens of generation 0 issued before the first reset would be valid again.
const generationKey = (keys: Keyspace, username: string) => keys("session-generation", username);

/**
 * The admin's current session generation (0 until the first reset). Read it before checking a
 * password and pass it to issueSession: a reset that lands in between then ends that session too.
 */
export async function sessionGeneration(deps: Pick<SessionDeps, "redis" | "keys">, username: string) {
  return Number((await deps.redis.get(generationKey(deps.keys, username))) ?? 0);
}

/**
 * Issues a 12-hour HS256 token carrying the admin's session generation and records its jti in
 * Redis, so logout can revoke it and endAllSessions can end it with all the others.
 */
export async function issueSession(
  deps: SessionDeps,
  admin: AdminIdentity,
  generation?: number,
): Promise<{ token: string; claims: AdminClaims }> {
  const { id, username } = admin;
  const gen = generation ?? (await sessionGeneration(deps, username));
  const jti = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  const exp = now + SESSION_TTL_SECONDS;
  const token = await new SignJWT({ username, gen })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(id)
    .setJti(jti)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .sign(secretKey(deps.jwtSecret));
  await deps.redis.set(sessionKey(deps.keys, jti), username, "EX", SESSION_TTL_SECONDS);
  return { token, claims: { id, username, jti, exp, gen } };
}

/** Logout: ends one session (open sockets of it close at once when `announce` is given). */
export async function revokeSession(
  deps: SessionDeps,
  jti: string,
  announce?: { username: string; logger: Logger },
): Promise<void> {
  await deps.redis.del(sessionKey(deps.keys, jti));
  if (announce) await announceSessionsEnded(deps, announce.username, announce.logger);
}

/**
 * Ends every session of an admin at once (password reset or change, removal): the generation goes
 * up, so every token issued before fails verifySession in every service, and open admin sockets
 * are told to re-check now rather than at their next periodic check.
 */
export async function endAllSessions(
  deps: Pick<SessionDeps, "redis" | "keys">,
  username: string,
  logger: Logger,
  /** Why, when another admin ended them: the ended sessions' 401 then says so. */
  reason?: SessionEndReason,
): Promise<void> {
  // One key per admin another admin disabled, removed or reset (never an anonymous request's), kept as
  // long as a session of theirs could live. Written in one step with the new generation: a request
  // of the ended session between the two would otherwise get a 401 without its reason, and the
  // panel would read "Sessie verlopen" instead of why.
  if (reason)
    await deps.redis.eval(
      END_WITH_REASON_LUA,
      2,
      generationKey(deps.keys, username),
      endReasonKey(deps.keys, username),
      reason,
      SESSION_TTL_SECONDS,
    );
  else await deps.redis.incr(generationKey(deps.keys, username));
  await announceSessionsEnded(deps, username, logger);
}

// KEYS[1] the generation, KEYS[2] the reason marker; ARGV[1] the reason, ARGV[2] its TTL in seconds.
const END_WITH_REASON_LUA = `
local generation = redis.call("INCR", KEYS[1])
redis.call("SET", KEYS[2], ARGV[1] .. ":" .. generation, "EX", ARGV[2])
return generation`;

export type SessionEndReason = "disabled" | "removed" | "totp_reset";
const endReasonKey = (keys: Keyspace, username: string) => keys("session-end-reason", username);
export const SESSION_END_MESSAGES: Record<SessionEndReason, string> = {
  disabled:
    "Je account is uitgeschakeld door een andere beheerder. Vraag een beheerder om het weer in te schakelen.",
  removed: "Je account is verwijderd door een andere beheerder.",
  totp_reset:
    "Je tweestapsverificatie is gereset door een andere beheerder. Log opnieuw in met je wachtwoord en stel hem daarna opnieuw in.",
};

/**
 * Why a validly signed, unexpired token no longer counts: another admin disabled or removed its
 * admin, or reset their second factor, after it was issued. Undefined for any other reason
 * (logout, expiry, a password reset).
 */
async function sessionEndReason(
  deps: SessionDeps,
  token: string | undefined,
): Promise<SessionEndReason | undefined> {
  if (!token || token.length > 4096) return undefined;
  let payload;
  try {
    ({ payload } = await jwtVerify(token, secretKey(deps.jwtSecret), { algorithms: ["HS256"] }));
  } catch {
    return undefined;
  }
  if (typeof payload.username !== "string") return undefined;
  const marker = await deps.redis.get(endReasonKey(deps.keys, payload.username));
  const [reason, generation] = (marker ?? "").split(":");
  const gen = typeof payload.gen === "number" ? payload.gen : 0;
  if ((reason === "disabled" || reason === "removed" || reason === "totp_reset") && gen < Number(generation))
    return reason;
  return undefined;
}

function announceSessionsEnded(deps: Pick<SessionDeps, "redis" | "keys">, username: string, logger: Logger) {
  const event = { username, at: new Date().toISOString() };
  return publishEvent(deps.redis, deps.keys, CHANNELS.sessionsEnded, SessionsEndedEvent, event, logger);
}

/** Reads the session cookie from a raw Cookie header (used by the WebSocket upgrade too). */
export function sessionTokenFromCookieHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let plain: string | undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === SECURE_SESSION_COOKIE) return decodeURIComponent(value);
    if (name === SESSION_COOKIE) plain = decodeURIComponent(value);
  }
  return plain;
}

/**
 * Verifies a token: signature with HS256 only (so `alg: none` and other algorithms are refused),
 * expiry, that its jti is still recorded (not logged out) and that it belongs to the admin's
 * current session generation (no password reset or removal since). Undefined when invalid.
 */
export async function verifySession(
  deps: SessionDeps,
  token: string | undefined,
): Promise<AdminClaims | undefined> {
  if (!token || token.length > 4096) return undefined;
  let payload;
  try {
    ({ payload } = await jwtVerify(token, secretKey(deps.jwtSecret), { algorithms: ["HS256"] }));
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return undefined;
    throw err;
  }
  const username = typeof payload.username === "string" ? payload.username : undefined;
  if (!username || typeof payload.jti !== "string" || typeof payload.exp !== "number") return undefined;
  // The subject is the admin's id; a token from before ids were in it (its subject the username)
  // is refused, so that admin signs in once more.
  const id = payload.sub;
  if (typeof id !== "string" || !UUID.test(id)) return undefined;
  // Tokens from before generations existed count as generation 0.
  const gen = typeof payload.gen === "number" ? payload.gen : 0;
  const [stored, current] = await deps.redis.mget(
    sessionKey(deps.keys, payload.jti),
    generationKey(deps.keys, username),
  );
  if (stored !== username || gen !== Number(current ?? 0)) return undefined;
  return { id, username, jti: payload.jti, exp: payload.exp, gen };
}

declare module "koa" {
  interface DefaultState {
    admin?: AdminClaims;
  }
}

/** Koa middleware: 401 without a valid admin session; admin answers are never cached. */
export function requireAdmin(deps: SessionDeps) {
  return markGuard(async function adminOnly(ctx: Context, next: Next) {
    ctx.set("Cache-Control", "no-store");
    const token = sessionTokenFromCookieHeader(ctx.get("cookie"));
    let claims: AdminClaims | undefined;
    try {
      claims = await verifySession(deps, token);
    } catch {
      throw new HttpError(
        503,
        "service_unavailable",
        "Sessies kunnen nu niet worden gecontroleerd. Probeer het zo opnieuw.",
        undefined,
        {
          "Retry-After": "5",
        },
      );
    }
    if (!claims) {
      const reason = await sessionEndReason(deps, token).catch(() => undefined);
      if (reason) throw new HttpError(401, `account_${reason}`, SESSION_END_MESSAGES[reason]);
      throw unauthorized("Log opnieuw in om verder te gaan");
    }
    ctx.state.admin = claims;
    await next();
  }, "admin");
}

export const INTERNAL_TOKEN_HEADER = "x-internal-token";

/**
 * Headers only our own hops may set: the service-to-service token and the forwarding headers the
 * gateway writes itself (client address, scheme, host, request id). The gateway drops every one a
 * client sent before it forwards a request or a WebSocket upgrade, so no service ever reads a
 * value an outsider chose. Lower case, as Node names incoming headers.
 */
export const INTERNAL_HEADERS: ReadonlySet<string> = new Set([
  INTERNAL_TOKEN_HEADER,
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-forwarded-port",
  "x-forwarded-prefix",
  "x-real-ip",
  "forwarded",
  "x-request-id",
]);

/** Service-to-service routes (/internal/*) need the shared internal token. */
export function requireInternal(token: string) {
  const expected = Buffer.from(token);
  return markGuard(async function internalOnly(ctx: Context, next: Next) {
    const given = Buffer.from(ctx.get(INTERNAL_TOKEN_HEADER));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new HttpError(403, "forbidden", "Alleen voor interne diensten");
    }
    await next();
  }, "internal");
}
