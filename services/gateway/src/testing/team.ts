// The team's stack over HTTP against real Postgres and Redis, for the tests of users.ts and
// account.ts (routes/users.test.ts, routes/account.test.ts): a gateway of its own with one admin
// signed in, its log lines kept, and the calls those tests make. The bindings are live: they hold
// the stack of the file that called useTeamStack(), from its beforeAll on.
import pg from "pg";
import { afterAll, beforeAll, expect } from "vitest";
import type { Redis, RunningService, SessionDeps } from "@lease/platform";
import { createTestDatabase, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";
import { totpCode } from "../domain/totp";
import { connectRedis, createAdmin, gatewayOnlyEnv, loggerInto, sessionDepsFor, type TestResponse } from ".";

export const UUID = /^[0-9a-f-]{36}$/;
export const PASSWORD = "correct horse battery staple";
export const logLines: Record<string, unknown>[] = [];
export let db: TestDatabase;
export let gw: RunningService;
export let env: NodeJS.ProcessEnv;
export let redis: Redis;
export let deps: SessionDeps;
export let sql: pg.Pool;
export let origin: string;
export let adminCookie: string;

export function call(
  path: string,
  init: {
    method?: string;
    body?: unknown;
    cookie?: string;
    ip?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { origin, "content-type": "application/json", ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  headers["x-forwarded-for"] = init.ip ?? "192.0.2.10";
  return fetch(`${gw.url}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}
export const cookieOf = (res: TestResponse) => {
  const token = /admin_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  return token ? `admin_session=${token}` : undefined;
};
export const login = (username: string, password: string, ip?: string) =>
  call("/api/admin/login", { method: "POST", body: { username, password }, ip });

/** Signs in with the password alone (no second step expected); the session cookie. */
export async function signIn(username: string, password: string, ip?: string): Promise<string> {
  const res = await login(username, password, ip);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ admin: { id: expect.stringMatching(UUID), username } });
  return cookieOf(res)!;
}

export async function createUser(username: string): Promise<{ id: string; oneTimePassword: string }> {
  const res = await call("/api/admin/users", { method: "POST", body: { username }, cookie: adminCookie });
  expect(res.status).toBe(201);
  const body = await res.json();
  return { id: body.user.id, oneTimePassword: body.oneTimePassword };
}

/** A new admin through the panel, signed in once with their own password. */
export async function activeUser(
  username: string,
  password: string,
): Promise<{ id: string; cookie: string }> {
  const { id, oneTimePassword } = await createUser(username);
  const first = await (await login(username, oneTimePassword)).json();
  const res = await call("/api/admin/login/new-password", {
    method: "POST",
    body: { ticket: first.ticket, newPassword: password },
  });
  expect(res.status).toBe(200);
  return { id, cookie: cookieOf(res)! };
}

/** Turns it on (password, then a first code); the session is renewed: the new cookie. */
export async function enable(
  cookie: string,
  currentPassword: string,
): Promise<{ secret: string; codes: string[]; cookie: string }> {
  const setup = await call("/api/admin/account/totp/setup", {
    method: "POST",
    body: { currentPassword },
    cookie,
  });
  expect(setup.status).toBe(200);
  const { secret, uri } = await setup.json();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const url = new URL(uri);
  expect(url.protocol).toBe("otpauth:");
  expect(url.searchParams.get("secret")).toBe(secret);
  const confirm = await call("/api/admin/account/totp/confirm", {
    method: "POST",
    body: { code: totpCode(secret) },
    cookie,
  });
  expect(confirm.status).toBe(200);
  return { secret, codes: (await confirm.json()).codes, cookie: cookieOf(confirm)! };
}

/** Starts the team's stack before the calling file's tests and stops it after them. */
export function useTeamStack(): void {
  beforeAll(async () => {
    logLines.length = 0;
    db = await createTestDatabase("gwteam");
    env = await gatewayOnlyEnv(db.url, {
      TRUSTED_PROXIES: "127.0.0.1",
      TOTP_ISSUER: "Zakelijk Lease Centrum",
    });
    gw = await startGateway(env, { logger: loggerInto(logLines) });
    origin = gw.url;
    redis = await connectRedis();
    deps = sessionDepsFor(env, redis);
    sql = new pg.Pool({ connectionString: db.url, max: 2 });
    await createAdmin(db.url, "admin", PASSWORD);
    adminCookie = await signIn("admin", PASSWORD, "192.0.2.1");
  });
  afterAll(async () => {
    await gw.stop();
    await sql.end();
    redis.disconnect();
    await db.drop();
  });
}
