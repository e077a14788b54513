import { randomBytes, randomUUID } from "node:crypto";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES, type ServiceName } from "@lease/contracts";
import { issueSession, type Redis, type RunningService, type SessionDeps } from "@lease/platform";
import { createTestDatabase, freePort, testAdmin, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startLeads } from "@lease/leads";
import { startMailer } from "@lease/mailer";
import { startSettings } from "@lease/settings";
import { startTracking } from "@lease/tracking";
import { startGateway } from "@lease/gateway";
import { startConversions } from "@lease/conversions";
import { badTokens, connectRedis, cookieFor, sessionDepsFor } from "../../services/gateway/src/testing";

// The route-table walk: every route marked auth "admin" in the contracts, and /ws, refuses every
// kind of bad session with 401 — through the gateway, and again directly at the owning service
// (all six started for real, in-process). Every contract route exists: a service without a
// handler for one does not start (contractRouter in libs/platform).

const ADMIN_ROUTES = API_ROUTES.filter((r) => r.auth === "admin");

let db: TestDatabase;
let redis: Redis;
let deps: SessionDeps;
let gateway: RunningService;
const services = {} as Record<Exclude<ServiceName, "gateway">, RunningService>;
let tokens: Record<string, string | undefined>;

beforeAll(async () => {
  db = await createTestDatabase("walk");
  const shared = testEnv({
    DATABASE_URL: db.url,
    SENDGRID_API_BASE_URL: `http://127.0.0.1:${await freePort()}`,
    SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    WEB_DIST_DIR: "/nonexistent",
  });
  // One at a time: each runs its own migrations on the shared test database. Each on a port of its
  // own choosing (PORT=0), its URL then given to those that call it.
  services.settings = await startSettings(shared);
  services.leads = await startLeads(shared);
  services.tracking = await startTracking(shared);
  Object.assign(shared, {
    LEADS_URL: services.leads.url,
    SETTINGS_URL: services.settings.url,
    TRACKING_URL: services.tracking.url,
  });
  services.mailer = await startMailer(shared);
  shared.MAILER_URL = services.mailer.url;
  services.conversions = await startConversions(shared);
  shared.CONVERSIONS_URL = services.conversions.url;
  gateway = await startGateway(shared);
  redis = await connectRedis();
  deps = sessionDepsFor(shared, redis);
  tokens = await badTokens(deps);
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  for (const svc of Object.values(services)) await svc.stop();
  redis?.disconnect();
  await db?.drop();
});

const concrete = (path: string) => path.replace(/\{[^}]+\}/g, randomUUID());

/** A same-origin JSON request, so only the session can be the reason for a refusal. */
function request(base: string, method: string, path: string, cookie?: string) {
  const headers: Record<string, string> = { origin: base, "content-type": "application/json" };
  if (cookie) headers.cookie = cookie;
  return fetch(`${base}${path}`, { method, headers, body: method === "GET" ? undefined : "{}" });
}

function upgrade(base: string, cookie?: string): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { origin: base };
    if (cookie) headers.cookie = cookie;
    const ws = new WebSocket(`${base.replace("http", "ws")}/ws`, { headers });
    ws.once("open", () => {
      ws.close();
      resolve(101);
    });
    ws.once("unexpected-response", (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once("error", () => resolve(0));
  });
}

describe("route-table walk: no admin route answers without a valid session", () => {
  it("covers the admin routes of every service", () => {
    const owners = new Set(ADMIN_ROUTES.map((r) => r.service));
    expect([...owners].sort()).toEqual(["conversions", "gateway", "leads", "mailer", "settings", "tracking"]);
  });

  // Each walk sends one request after another for every admin route and token kind: a busy host
  // needs more than the default 30 s.
  it("through the gateway: 401 for every admin route and every kind of bad token", async () => {
    for (const route of ADMIN_ROUTES) {
      for (const [kind, token] of Object.entries(tokens)) {
        const res = await request(gateway.url, route.method, concrete(route.path), cookieFor(token));
        expect(res.status, `${route.method} ${route.path} with ${kind} token`).toBe(401);
        expect(res.headers.get("cache-control")).toBe("no-store");
      }
    }
  }, 120_000);

  it("directly at each service: 401 for every admin route and every kind of bad token", async () => {
    for (const route of ADMIN_ROUTES) {
      const base = route.service === "gateway" ? gateway.url : services[route.service].url;
      for (const [kind, token] of Object.entries(tokens)) {
        const label = `${route.method} ${route.path} at ${route.service} with ${kind} token`;
        const res = await request(base, route.method, concrete(route.path), cookieFor(token));
        expect(res.status, label).toBe(401);
        expect(((await res.json()) as { code?: string }).code, label).toBe("unauthorized");
      }
    }
  }, 120_000);

  it("with a valid session the same requests get past the check (the 401s above are the session's)", async () => {
    for (const route of ADMIN_ROUTES) {
      const { token } = await issueSession(deps, testAdmin("admin"));
      const res = await request(gateway.url, route.method, concrete(route.path), cookieFor(token));
      const label = `${route.method} ${route.path}`;
      expect(res.status, label).not.toBe(401);
      if (route.service === "settings") expect(res.status, label).toBeLessThan(500);
      // Every route is there: a 404 is the record's ("not found"), never "Onbekende route".
      expect(res.status, label).not.toBe(405);
      expect(await res.text(), label).not.toContain("Onbekende route");
    }
  }, 120_000);

  it("/ws: the gateway refuses every bad token with 401, tracking never upgrades one", async () => {
    for (const [kind, token] of Object.entries(tokens)) {
      expect(await upgrade(gateway.url, cookieFor(token)), `gateway, ${kind} token`).toBe(401);
      const direct = await upgrade(services.tracking.url, cookieFor(token));
      expect(direct, `tracking, ${kind} token`).toBe(401);
    }
    const { token } = await issueSession(deps, testAdmin("admin"));
    expect(await upgrade(gateway.url, cookieFor(token))).not.toBe(401);
  });
});
