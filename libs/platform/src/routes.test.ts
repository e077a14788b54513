import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Context, Middleware } from "koa";
import { API_ROUTES, INTERNAL_ROUTES, QUEUES, type ServiceName } from "@lease/contracts";
import { createApp } from "./app";
import { StartupError } from "./errors";
import { createLogger } from "./logger";
import { checkJobHandlers } from "./queue";
import { contractRouter, contractRoutesOf, mountContractRoutes, type ContractRouter } from "./routes";
import { startHttpServer, type RunningServer } from "./server";
import { requireAdmin, requireInternal, type SessionDeps } from "./session";

// Guards are only inspected, never run, except in the last block where the checks answer for real.
const session = { jwtSecret: "x".repeat(32) } as unknown as SessionDeps;
const adminOnly = requireAdmin(session);
const internalOnly = requireInternal("i".repeat(32));

/** Every contract route of a service, each answered with its own method and template. */
function fullGroups(service: ServiceName): ContractRouter[] {
  const groups = new Map<string, ContractRouter>();
  const guards = { public: undefined, admin: adminOnly, internal: internalOnly };
  for (const route of contractRoutesOf(service)) {
    const kind = `${route.access}${route.ownBody ? " raw" : ""}`;
    if (!groups.has(kind))
      groups.set(kind, contractRouter(service, guards[route.access], { rawBody: Boolean(route.ownBody) }));
    const verb = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
    // Paths read from the contract at run time: the compile-time check of literal paths does not apply.
    const mount = groups.get(kind)![verb] as unknown as (path: string, handler: Middleware) => void;
    mount(route.path, (ctx) => {
      ctx.body = { route: `${route.method} ${route.path}` };
    });
  }
  return [...groups.values()];
}

const ok = (ctx: Context) => void (ctx.body = {});
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StartupError);
    return (err as Error).message;
  }
  throw new Error("expected a StartupError");
};

describe("contractRouter refuses at startup", () => {
  it("a handler for a path that is no route of the service's contract", () => {
    // @ts-expect-error a path the contract does not have fails to compile as well
    const message = refusal(() => contractRouter("leads").post("/api/lease-request", ok));
    expect(message).toContain("POST /api/lease-request, which is not a leads route of the contract");
    expect(message).toContain("libs/contracts/src/routes/leads.ts");
  });

  it("a contract path under the wrong method, another service's route, or a Koa-style path", () => {
    // @ts-expect-error POST only
    expect(refusal(() => contractRouter("leads").get("/api/lease-requests", ok))).toContain(
      "GET /api/lease-requests",
    );
    // @ts-expect-error a mailer route
    expect(refusal(() => contractRouter("leads").get("/api/admin/emails", ok))).toContain(
      "not a leads route",
    );
    expect(
      // @ts-expect-error Koa's form
      refusal(() => contractRouter("leads", adminOnly).get("/api/admin/lease-requests/:id", ok)),
    ).toContain("OpenAPI form");
  });

  it("an admin route without requireAdmin, an internal one without requireInternal, a public one behind a check", () => {
    expect(refusal(() => contractRouter("settings").get("/api/admin/company-settings", ok))).toMatch(
      /"admin" in the contract but its handler is behind no check; mount it in a router with requireAdmin/,
    );
    expect(refusal(() => contractRouter("settings", adminOnly).get("/internal/mail-settings", ok))).toMatch(
      /"internal" in the contract but its handler is behind admin/,
    );
    expect(refusal(() => contractRouter("settings", adminOnly).get("/api/theme-settings", ok))).toContain(
      '"public" in the contract',
    );
    // A route-level check counts as well (the gateway's logout clears the cookie first).
    expect(() =>
      contractRouter("gateway").post("/api/admin/logout", async (_ctx, next) => next(), adminOnly, ok),
    ).not.toThrow();
  });

  it("a contract route of the service without a handler, naming each one", () => {
    const groups = fullGroups("mailer");
    const partial = groups.map((g) =>
      g.routes.some((r) => r.path === "/api/admin/emails/{id}/retry")
        ? { ...g, routes: g.routes.filter((r) => r.path !== "/api/admin/emails/{id}/retry") }
        : g,
    );
    const message = refusal(() => mountContractRoutes("mailer", partial));
    expect(message).toContain("mailer: contract routes without a handler: POST /api/admin/emails/{id}/retry");
    expect(refusal(() => mountContractRoutes("mailer", []))).toContain("GET /api/admin/emails,");
  });

  it("two handlers for one route, a router of another service, a service the contract does not know", () => {
    const twice = [...fullGroups("settings"), contractRouter("settings").get("/api/theme-settings", ok)];
    expect(refusal(() => mountContractRoutes("settings", twice))).toContain(
      "GET /api/theme-settings has two handlers",
    );
    expect(refusal(() => mountContractRoutes("settings", fullGroups("leads")))).toContain(
      "a router of leads was given to settings",
    );
    expect(refusal(() => mountContractRoutes("billing", []))).toContain("billing is no service");
  });

  it("mounts every service of the contract when each route has its handler", () => {
    for (const service of ["gateway", "leads", "settings", "tracking", "mailer"] as const) {
      const { parsed, raw } = mountContractRoutes(service, fullGroups(service));
      const expected =
        API_ROUTES.filter((r) => r.service === service).length +
        INTERNAL_ROUTES.filter((r) => r.service === service).length;
      expect(parsed.stack.length + raw.stack.length, service).toBe(expected);
    }
  });
});

describe("job handlers", () => {
  const noop = async () => undefined;
  it("refuse a queue with a job that has no handler", () => {
    expect(refusal(() => checkJobHandlers(QUEUES.mail, { "inbox.log": noop, "mail.send": noop }))).toBe(
      'queue "mail": jobs without a handler: lead.received, mail.notify-company, mail.lead-activity, mail.contact-answered, mail.lead-overdue, mail.weekly-summary',
    );
  });

  it("refuse a handler for a job the catalog does not put on the queue, and a queue without jobs", () => {
    const all = {
      "lead.received": noop,
      "inbox.log": noop,
      "mail.notify-company": noop,
      "mail.send": noop,
      "mail.lead-activity": noop,
      "mail.lead-overdue": noop,
      "mail.weekly-summary": noop,
      "mail.contact-answered": noop,
    };
    expect(() => checkJobHandlers(QUEUES.mail, all)).not.toThrow();
    expect(refusal(() => checkJobHandlers(QUEUES.mail, { ...all, "mail.bogus": noop } as never))).toContain(
      "not on this queue in the catalog: mail.bogus",
    );
    expect(refusal(() => checkJobHandlers("nothing", {}))).toContain('queue "nothing" has no jobs');
  });
});

describe("mounted contract routes answer", () => {
  let server: RunningServer;
  beforeAll(async () => {
    const { parsed, raw } = mountContractRoutes("leads", fullGroups("leads"));
    const logger = createLogger("test", "silent");
    const app = createApp({ service: "leads", logger, routes: parsed, rawRoutes: raw });
    server = await startHttpServer(app, { host: "127.0.0.1", port: 0, logger });
  });
  afterAll(() => server?.close(0));

  it("literal paths before templates, 405 for a known path's other method, 404 for the rest", async () => {
    // Registered in contract order, "/{id}" would shadow "/export.csv"; literal paths go first.
    const { parsed } = mountContractRoutes("leads", fullGroups("leads"));
    const paths = parsed.stack.map((layer) => layer.path);
    expect(paths.indexOf("/api/admin/lease-requests/export.csv")).toBeLessThan(
      paths.indexOf("/api/admin/lease-requests/:id"),
    );
    const noSession = await fetch(`${server.url}/api/admin/lease-requests/export.csv`);
    expect(noSession.status).toBe(401);
    const id = "9b2f1c1e-0a4e-4d57-9d38-8c1f3e0a7b21";
    const internal = await fetch(`${server.url}/internal/lease-requests/${id}`, {
      headers: { "x-internal-token": "i".repeat(32) },
    });
    expect(await internal.json()).toEqual({ route: "GET /internal/lease-requests/{id}" });
    expect((await fetch(`${server.url}/internal/lease-requests/abc`)).status).toBe(403);
    const wrongMethod = await fetch(`${server.url}/api/contact`, { method: "GET" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toContain("POST");
    expect((await fetch(`${server.url}/api/contact/extra`, { method: "POST" })).status).toBe(404);
  });
});
