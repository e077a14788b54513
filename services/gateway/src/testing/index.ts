import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { SignJWT } from "jose";
import { pino, type Logger } from "pino";
import {
  SESSION_TTL_SECONDS,
  createDatabase,
  createLogger,
  createPool,
  createRedis,
  endAllSessions,
  issueSession,
  keyspace,
  revokeSession,
  sessionGeneration,
  type Redis,
  type SessionDeps,
} from "@lease/platform";
import { baseRedisUrl, freePort, testAdmin, testEnv } from "@lease/platform/testing";
import { hashPassword } from "../domain/passwords";
import { adminsRepository } from "../repositories/admins";

// Shared by the gateway's auth tests: forged session tokens, admin accounts, a Redis connection.

// Test bodies are checked field by field with expect(); typing each answer adds nothing there.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TestResponse = Omit<Response, "json"> & { json(): Promise<any> };

/** The gateway alone on a test database: every service it routes to is an address nobody answers. */
export async function gatewayOnlyEnv(
  databaseUrl: string,
  extra: Record<string, string> = {},
): Promise<NodeJS.ProcessEnv> {
  const dead = `http://127.0.0.1:${await freePort()}`;
  return testEnv({
    DATABASE_URL: databaseUrl,
    LEADS_URL: dead,
    SETTINGS_URL: dead,
    TRACKING_URL: dead,
    MAILER_URL: dead,
    WEB_DIST_DIR: "/nonexistent",
    ...extra,
  });
}

export async function connectRedis(): Promise<Redis> {
  const redis = createRedis(baseRedisUrl(), "commands", createLogger("test", "silent"));
  if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
  return redis;
}

export function sessionDepsFor(env: NodeJS.ProcessEnv, redis: Redis): SessionDeps {
  return { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! };
}

export async function createAdmin(databaseUrl: string, username: string, password: string): Promise<void> {
  const pool = createPool(databaseUrl, createLogger("test", "silent"), 1);
  try {
    await adminsRepository(createDatabase(pool)).create(username, await hashPassword(password));
  } finally {
    await pool.end();
  }
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Signs claims like issueSession does, with the jti recorded, so only the twisted part is wrong. */
async function forge(
  deps: SessionDeps,
  opts: { secret?: string; alg?: string; expiresAt?: number; username?: string; subject?: string },
): Promise<string> {
  const jti = randomUUID();
  const username = opts.username ?? "admin";
  const now = Math.floor(Date.now() / 1000);
  await deps.redis.set(deps.keys("session", jti), username, "EX", SESSION_TTL_SECONDS);
  return new SignJWT({ username })
    .setProtectedHeader({ alg: opts.alg ?? "HS256", typ: "JWT" })
    .setSubject(opts.subject ?? testAdmin(username).id)
    .setJti(jti)
    .setIssuedAt(now - 60)
    .setExpirationTime(opts.expiresAt ?? now + 3600)
    .sign(new TextEncoder().encode(opts.secret ?? deps.jwtSecret));
}

/**
 * Every way a session cookie can be wrong: absent, expired, revoked (logged out), ended by a
 * password reset, tampered,
 * `alg: none`, another algorithm with the right secret, signed with another secret, garbage.
 */
export async function badTokens(deps: SessionDeps): Promise<Record<string, string | undefined>> {
  const now = Math.floor(Date.now() / 1000);
  const valid = (await issueSession(deps, testAdmin("admin"))).token;
  const [header, payload, signature] = valid.split(".") as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
  const revoked = await issueSession(deps, testAdmin("admin"));
  await revokeSession(deps, revoked.claims.jti);
  // Another admin's sessions end (password reset): one issued before, and one whose generation
  // was read before the reset but issued after it (a sign-in racing the reset).
  const ended = await issueSession(deps, testAdmin("reset-admin"));
  const racing = await sessionGeneration(deps, "reset-admin");
  await endAllSessions(deps, "reset-admin", createLogger("test", "silent"));
  return {
    missing: undefined,
    expired: await forge(deps, { expiresAt: now - 10 }),
    revoked: revoked.token,
    "issued before a password reset": ended.token,
    "signed in while the password was reset": (await issueSession(deps, testAdmin("reset-admin"), racing))
      .token,
    tampered: `${header}.${b64({ ...claims, username: "root" })}.${signature}`,
    "alg none": `${b64({ alg: "none", typ: "JWT" })}.${payload}.`,
    "alg none with signature": `${b64({ alg: "none", typ: "JWT" })}.${payload}.${signature}`,
    "HS512 with the right secret": await forge(deps, { alg: "HS512" }),
    "another secret": await forge(deps, { secret: "another-secret-0123456789-abcdefghijklmnopq" }),
    "a username as subject (issued before ids)": await forge(deps, { subject: "admin" }),
    garbage: "not.a.token",
  };
}

export const cookieFor = (token: string | undefined) =>
  token === undefined ? undefined : `admin_session=${token}`;

/** A logger at info level whose JSON lines land, parsed, in `lines` (for tests that read the logs). */
export function loggerInto(lines: Record<string, unknown>[]): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return pino({ level: "info" }, sink);
}
