import { WebSocket } from "ws";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { issueSession, keyspace, type Logger, type RunningService } from "@lease/platform";
import { createTestDatabase, freePort, testAdmin, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startConversions } from "@lease/conversions";
import { startGateway } from "@lease/gateway";
import { startLeads } from "@lease/leads";
import { startMailer } from "@lease/mailer";
import { startSettings } from "@lease/settings";
import { startTracking } from "@lease/tracking";

/** The whole backend in this process: five services and the gateway, each with its own kit. */
export interface FullStack {
  gateway: RunningService;
  services: Record<"leads" | "settings" | "tracking" | "mailer" | "conversions", RunningService>;
  env: NodeJS.ProcessEnv;
  db: TestDatabase;
  redis: Redis;
  /** A Cookie header value for a fresh, valid admin session. */
  adminCookie(): Promise<string>;
  /** Headers a same-origin page would send. */
  origin: string;
  stop(): Promise<void>;
}

export async function startFullStack(
  overrides: Record<string, string> = {},
  opts: {
    /** e.g. route the services' Postgres traffic through a cuttable proxy */ rewriteDatabaseUrl?: (
      url: string,
    ) => string;
    /** Changes the gateway's environment alone (e.g. a service URL through an observing proxy). */
    gatewayEnv?: (env: NodeJS.ProcessEnv) => Promise<NodeJS.ProcessEnv>;
    /** The time tracking records visits at (e.g. a visit of days ago); the system clock otherwise. */
    trackingClock?: { now(): number };
    /** The log of the gateway and leads (e.g. one a test reads); each service's own otherwise. */
    logger?: Logger;
  } = {},
): Promise<FullStack> {
  const db = await createTestDatabase("stack");
  const base = testEnv({
    DATABASE_URL: opts.rewriteDatabaseUrl ? opts.rewriteDatabaseUrl(db.url) : db.url,
    SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    SENDGRID_API_BASE_URL: `http://127.0.0.1:${await freePort()}`,
    // The ad platforms: nothing listens unless a test starts a receiver there.
    META_API_BASE_URL: `http://127.0.0.1:${await freePort()}`,
    TIKTOK_API_BASE_URL: `http://127.0.0.1:${await freePort()}`,
    SNAPCHAT_API_BASE_URL: `http://127.0.0.1:${await freePort()}`,
    GOOGLE_CONVERSIONS_API_BASE_URL: `http://127.0.0.1:${await freePort()}`,
    GOOGLE_OAUTH_TOKEN_URL: `http://127.0.0.1:${await freePort()}/token`,
    WEB_DIST_DIR: "web/dist",
    ...overrides,
  });
  // Each service binds a port of its own choosing (testEnv's PORT=0) and the ones that call it are
  // told its URL: a port found free beforehand can be taken by another process (a connection's
  // local port) before the service binds it, as happened with the browser tests running beside.
  const leads = await startLeads(base, { logger: opts.logger });
  const settings = await startSettings(base);
  const tracking = await startTracking(base, { clock: opts.trackingClock });
  const called = { LEADS_URL: leads.url, SETTINGS_URL: settings.url, TRACKING_URL: tracking.url };
  const mailer = await startMailer({ ...base, ...called });
  const conversions = await startConversions({ ...base, ...called });
  const env: NodeJS.ProcessEnv = {
    ...base,
    ...called,
    MAILER_URL: mailer.url,
    CONVERSIONS_URL: conversions.url,
  };
  const gateway = await startGateway(
    { ...((await opts.gatewayEnv?.(env)) ?? env), PORT: "0" },
    { logger: opts.logger },
  );
  const redis = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: 1 });
  redis.on("error", () => undefined); // tests stop Redis on purpose
  const session = { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! };
  return {
    gateway,
    services: { leads, settings, tracking, mailer, conversions },
    env,
    db,
    redis,
    origin: gateway.url,
    async adminCookie() {
      const { token } = await issueSession(session, testAdmin("admin"));
      return `admin_session=${token}`;
    },
    async stop() {
      await gateway.stop();
      await Promise.all([leads.stop(), settings.stop(), tracking.stop(), mailer.stop(), conversions.stop()]);
      redis.disconnect();
      await db.drop();
    },
  };
}

/** A request to the stack's gateway as the signed-in admin: same origin, JSON when it has a body. */
export function adminFetch(
  stack: FullStack,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${stack.gateway.url}${path}`, {
    method,
    headers: {
      origin: stack.origin,
      cookie,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The status a /ws upgrade to the stack's gateway gets: 101 when it opens, else the refusal's. */
export function wsUpgradeStatus(stack: FullStack, headers: Record<string, string>): Promise<number> {
  return new Promise<number>((resolve) => {
    const ws = new WebSocket(`${stack.gateway.url.replace("http", "ws")}/ws`, { headers });
    ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.once("open", () => {
      ws.close();
      resolve(101);
    });
    ws.once("error", () => resolve(0));
  });
}
