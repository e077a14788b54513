import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  createLogger,
  createRedis,
  issueSession,
  keyspace,
  type RunningService,
  type SessionDeps,
} from "@lease/platform";
import { baseRedisUrl, createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startSettings } from "./service";

// Shared by the settings tests: the real service on a database of its own, and a stand-in for the
// mailer's /internal/test-email (the mailer itself is tested by its owner).

export interface FakeMailer {
  url: string;
  calls: { token: string | undefined; body: unknown }[];
  /** Status the next calls answer with (200 by default). */
  status: number;
  /** The provider's verdict the next calls report (a sent test e-mail by default). */
  verdict: { status: "sent" | "failed"; reason: string | null };
  close(): Promise<void>;
}

export async function startFakeMailer(internalToken: string): Promise<FakeMailer> {
  const mailer: FakeMailer = {
    url: "",
    calls: [],
    status: 200,
    verdict: { status: "sent", reason: null },
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      const token = req.headers["x-internal-token"] as string | undefined;
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      mailer.calls.push({ token, body });
      res.setHeader("content-type", "application/json");
      if (req.method !== "POST" || req.url !== "/internal/test-email" || token !== internalToken) {
        res.statusCode = 403;
        res.end(JSON.stringify({ code: "forbidden", message: "Alleen voor interne diensten" }));
        return;
      }
      res.statusCode = mailer.status;
      const to = (body as { to?: string }).to;
      res.end(JSON.stringify({ id: "8d4c2a53-0a52-4d5e-9b8e-0c2f3b8d9a11", to, ...mailer.verdict }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  mailer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mailer.close = () => new Promise((resolve) => server.close(() => resolve()));
  return mailer;
}

// Test bodies are checked field by field with expect(); typing each answer adds nothing there.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TestResponse = Omit<Response, "json"> & { json(): Promise<any> };

export interface SettingsHarness {
  svc: RunningService;
  db: TestDatabase;
  env: NodeJS.ProcessEnv;
  mailer: FakeMailer;
  sessionDeps: SessionDeps;
  /** A valid admin_session cookie header value. */
  adminCookie(): Promise<string>;
  api(
    path: string,
    init?: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> },
  ): Promise<TestResponse>;
  close(): Promise<void>;
}

export async function startSettingsHarness(): Promise<SettingsHarness> {
  const db = await createTestDatabase("settings");
  const internalToken = `internal-${randomBytes(24).toString("hex")}`;
  const mailer = await startFakeMailer(internalToken);
  const env = testEnv({
    DATABASE_URL: db.url,
    INTERNAL_TOKEN: internalToken,
    SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    MAILER_URL: mailer.url,
  });
  const svc = await startSettings(env);
  const redis = createRedis(baseRedisUrl(), "commands", createLogger("test", "silent"));
  if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
  const sessionDeps: SessionDeps = { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! };
  return {
    svc,
    db,
    env,
    mailer,
    sessionDeps,
    async adminCookie() {
      const { token } = await issueSession(sessionDeps, "admin");
      return `admin_session=${token}`;
    },
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
      await svc.stop();
      redis.disconnect();
      await mailer.close();
      await db.drop();
    },
  };
}
