import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { issueSession, keyspace, type RunningService } from "@lease/platform";
import { createTestDatabase, freePort, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "@lease/gateway";
import { startLeads } from "@lease/leads";
import { startMailer } from "@lease/mailer";
import { startSettings } from "@lease/settings";
import { startTracking } from "@lease/tracking";

/** The whole backend in this process: four services and the gateway, each with its own kit. */
export interface FullStack {
  gateway: RunningService;
  services: Record<"leads" | "settings" | "tracking" | "mailer", RunningService>;
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
  } = {},
): Promise<FullStack> {
  const db = await createTestDatabase("stack");
  const ports = {
    leads: await freePort(),
    settings: await freePort(),
    tracking: await freePort(),
    mailer: await freePort(),
  };
  const url = (p: number) => `http://127.0.0.1:${p}`;
  const env = testEnv({
    DATABASE_URL: opts.rewriteDatabaseUrl ? opts.rewriteDatabaseUrl(db.url) : db.url,
    SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    LEADS_URL: url(ports.leads),
    SETTINGS_URL: url(ports.settings),
    TRACKING_URL: url(ports.tracking),
    MAILER_URL: url(ports.mailer),
    SENDGRID_API_BASE_URL: url(await freePort()),
    WEB_DIST_DIR: "web/dist",
    ...overrides,
  });
  const at = (port: number) => ({ ...env, PORT: String(port) });
  const leads = await startLeads(at(ports.leads));
  const settings = await startSettings(at(ports.settings));
  const tracking = await startTracking(at(ports.tracking), { clock: opts.trackingClock });
  const mailer = await startMailer(at(ports.mailer));
  const gateway = await startGateway({ ...((await opts.gatewayEnv?.(env)) ?? env), PORT: "0" });
  const redis = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: 1 });
  redis.on("error", () => undefined); // tests stop Redis on purpose
  const session = { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! };
  return {
    gateway,
    services: { leads, settings, tracking, mailer },
    env,
    db,
    redis,
    origin: gateway.url,
    async adminCookie() {
      const { token } = await issueSession(session, "admin");
      return `admin_session=${token}`;
    },
    async stop() {
      await gateway.stop();
      await Promise.all([leads.stop(), settings.stop(), tracking.stop(), mailer.stop()]);
      redis.disconnect();
      await db.drop();
    },
  };
}
