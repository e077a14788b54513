import { randomUUID, timingSafeEqual } from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import type { Context, Next } from "koa";
import type { Redis } from "./redis";
import type { Keyspace } from "./redis";
import { HttpError, unauthorized } from "./errors";

export const SESSION_COOKIE = "admin_session";
export const SECURE_SESSION_COOKIE = "__Host-admin_session";
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

export interface AdminClaims {
  username: string;
  jti: string;
  exp: number;
}

export interface SessionDeps {
  redis: Redis;
  keys: Keyspace;
  jwtSecret: string;
}

const secretKey = (secret: string) => new TextEncoder().encode(secret);
const sessionKey = (keys: Keyspace, jti: string) => keys("session", jti);

/** Issues a 12-hour HS256 token and records its jti in Redis, so logout can revoke it. */
export async function issueSession(
  deps: SessionDeps,
  username: string,
): Promise<{ token: string; claims: AdminClaims }> {
  const jti = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  const exp = now + SESSION_TTL_SECONDS;
  const token = await new SignJWT({ username })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(username)
    .setJti(jti)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .sign(secretKey(deps.jwtSecret));
  await deps.redis.set(sessionKey(deps.keys, jti), username, "EX", SESSION_TTL_SECONDS);
  return { token, claims: { username, jti, exp } };
}

export async function revokeSession(deps: SessionDeps, jti: string): Promise<void> {
  await deps.redis.del(sessionKey(deps.keys, jti));
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
 * expiry, and that its jti is still recorded (not logged out). Returns undefined when invalid.
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
  const stored = await deps.redis.get(sessionKey(deps.keys, payload.jti));
  if (stored !== username) return undefined;
  return { username, jti: payload.jti, exp: payload.exp };
}

declare module "koa" {
  interface DefaultState {
    admin?: AdminClaims;
  }
}

/** Koa middleware: 401 without a valid admin session; admin answers are never cached. */
export function requireAdmin(deps: SessionDeps) {
  return async function adminOnly(ctx: Context, next: Next) {
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
    if (!claims) throw unauthorized("Log opnieuw in om verder te gaan");
    ctx.state.admin = claims;
    await next();
  };
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
  return async function internalOnly(ctx: Context, next: Next) {
    const given = Buffer.from(ctx.get(INTERNAL_TOKEN_HEADER));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new HttpError(403, "forbidden", "Alleen voor interne diensten");
    }
    await next();
  };
}
