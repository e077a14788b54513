import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import {
  createLogger,
  createRedis,
  issueSession,
  keyspace,
  type RunningService,
  type SessionDeps,
} from "@lease/platform";
import { baseRedisUrl, startTestService, testAdmin, type TestDatabase } from "@lease/platform/testing";
import { startSettings } from "../service";

// Shared by the settings tests: the real service on a database of its own.

// Test bodies are checked field by field with expect(); typing each answer adds nothing there.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TestResponse = Omit<Response, "json"> & { json(): Promise<any> };

export interface SettingsHarness {
  svc: RunningService;
  db: TestDatabase;
  env: NodeJS.ProcessEnv;
  sessionDeps: SessionDeps;
  /** A valid admin_session cookie header value, made at the start. */
  cookie: string;
  /** Another valid admin_session cookie header value (a session of its own). */
  adminCookie(): Promise<string>;
  api(
    path: string,
    init?: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> },
  ): Promise<TestResponse>;
  close(): Promise<void>;
}

export async function startSettingsHarness(): Promise<SettingsHarness> {
  const { svc, db, env, stop } = await startTestService(startSettings, {
    label: "settings",
    env: {
      INTERNAL_TOKEN: `internal-${randomBytes(24).toString("hex")}`,
      SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    },
  });
  const redis = createRedis(baseRedisUrl(), "commands", createLogger("test", "silent"));
  if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
  const sessionDeps: SessionDeps = { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! };
  const adminCookie = async () => {
    const { token } = await issueSession(sessionDeps, testAdmin("admin"));
    return `admin_session=${token}`;
  };
  return {
    svc,
    db,
    env,
    sessionDeps,
    cookie: await adminCookie(),
    adminCookie,
    api(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.cookie) headers.cookie = init.cookie;
      if (init.body !== undefined) headers["content-type"] = "application/json";
      return fetch(`${svc.url}${path}`, {
        method: init.method ?? "GET",
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
    },
    async close() {
      redis.disconnect();
      await stop();
    },
  };
}

/**
 * A harness for the tests of one file (or describe block): started before them, closed after. The
 * object is filled in by the beforeAll hook, so its fields are there once the tests run.
 */
export function useSettingsHarness(): SettingsHarness {
  const h = {} as SettingsHarness;
  beforeAll(async () => {
    Object.assign(h, await startSettingsHarness());
  });
  afterAll(async () => {
    await h.close?.();
  });
  return h;
}
