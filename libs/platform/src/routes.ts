import Router from "@koa/router";
import type { Middleware } from "koa";
import {
  API_ROUTES,
  INTERNAL_ROUTES,
  SERVICES,
  type ApiRoute,
  type HttpMethod,
  type InternalRoute,
  type RouteAuth,
  type RouteRequest,
  type RouteResponse,
  type ServiceName,
} from "@lease/contracts";
import { StartupError } from "./errors";
import { answerCheck } from "./route-answers";
import { routeInput, type PathOf, type RouteAt, type RouteHandler } from "./route-input";

/**
 * The one way a service mounts its HTTP handlers. Every handler is registered under the path of its
 * route in the contracts (its service's file libs/contracts/src/routes/<service>.ts, or
 * routes/internal.ts for INTERNAL_ROUTES), in
 * the same OpenAPI form ("/api/admin/lease-requests/{id}"), so searching a route's path finds its
 * contract entry and its handler. The service refuses to start when a handler has no contract route
 * (at registration) or a contract route of the service has no handler (`mountContractRoutes`, called
 * by `startService`). Adding a route is one contract entry plus one handler.
 *
 * The admin and internal checks are part of the contract too: a route marked `auth: "admin"` must
 * have `requireAdmin` in its chain, an internal one `requireInternal`, a public one neither.
 *
 * The handler parses nothing itself: the router validates the params, query and body the entry
 * declares (route-input.ts) and hands them over as `ctx.input`, typed from the entry. In tests
 * every answer is held against the entry's responses (route-answers.ts).
 */

/** What a route's chain must hold: the contract's `auth`, and "internal" for INTERNAL_ROUTES. */
export type RouteAccess = RouteAuth | "internal";

const GUARDS = new WeakMap<Middleware, Exclude<RouteAccess, "public">>();

/** Marks a middleware as the check of an access level (requireAdmin, requireInternal). */
export function markGuard<M extends Middleware>(mw: M, access: Exclude<RouteAccess, "public">): M {
  GUARDS.set(mw, access);
  return mw;
}

interface ContractRoute {
  method: HttpMethod;
  path: string;
  access: RouteAccess;
  request?: RouteRequest;
  ownBody?: string;
  responses: Record<number, RouteResponse>;
  /** The public API's entry itself (its refusals are held against the OpenAPI document's). */
  api?: ApiRoute;
}

/** Every route a service must answer: its API routes and its internal ones (not the probes). */
export function contractRoutesOf(service: ServiceName): ContractRoute[] {
  const api: readonly ApiRoute[] = API_ROUTES;
  const internal: readonly InternalRoute[] = INTERNAL_ROUTES;
  return [
    ...api
      .filter((r) => r.service === service)
      .map((r) => ({
        method: r.method,
        path: r.path,
        access: r.auth as RouteAccess,
        request: r.request,
        ownBody: r.ownBody,
        responses: r.responses,
        api: r,
      })),
    ...internal
      .filter((r) => r.service === service)
      .map((r) => ({
        method: r.method,
        path: r.path,
        access: "internal" as const,
        request: r.request,
        ownBody: r.ownBody,
        responses: r.responses,
      })),
  ];
}

const CONTRACT_FILE = "libs/contracts/src/routes.ts";
/** Where a service's routes are declared: its public ones in its own file, the internal calls together. */
const routesFile = (service: string) =>
  `libs/contracts/src/routes/${service}.ts (public) or routes/internal.ts (/internal/*)`;
const key = (method: string, path: string) => `${method} ${path}`;

export interface MountedRoute {
  method: HttpMethod;
  path: string;
  middleware: Middleware[];
  /** The contract entry the handler answers (its responses are checked in tests). */
  contract: ContractRoute;
}

/**
 * Mounts a handler for a contract route: any route-level middleware first (a rate limit, a
 * header), the handler last. The handler's `ctx.input` holds the params, query and body parsed
 * with the route's schemas; a path that is no such route of the service does not compile.
 */
type Mount<S extends ServiceName, M extends HttpMethod> = <P extends PathOf<S, M>>(
  path: P,
  ...chain: [...Middleware[], RouteHandler<RouteAt<S, M, P>>]
) => ContractRouter<S>;

export interface ContractRouter<S extends ServiceName = ServiceName> {
  readonly service: S;
  /** Mounted before the JSON body parser: the handlers read the body themselves. */
  readonly rawBody: boolean;
  readonly routes: readonly MountedRoute[];
  get: Mount<S, "GET">;
  post: Mount<S, "POST">;
  put: Mount<S, "PUT">;
  patch: Mount<S, "PATCH">;
  delete: Mount<S, "DELETE">;
}

export interface ContractRouterOptions {
  /**
   * The group's handlers read the body themselves (its routes say why: `ownBody` in the
   * contract): no JSON parser.
   */
  rawBody?: boolean;
}

/**
 * A group of handlers of one service, all behind the same guard (`requireAdmin(session)`,
 * `requireInternal(token)` or none for public routes); route-level middleware may add its own.
 * Throws a StartupError at once for a path and method that is not a contract route of the service,
 * and for a route that reads its own body outside a rawBody group (or the other way round).
 */
export function contractRouter<S extends ServiceName>(
  service: S,
  guard?: Middleware,
  opts: ContractRouterOptions = {},
): ContractRouter<S> {
  const contract = new Map(contractRoutesOf(service).map((r) => [key(r.method, r.path), r]));
  const rawBody = opts.rawBody ?? false;
  const routes: MountedRoute[] = [];
  const add =
    (method: HttpMethod) =>
    (path: string, ...middleware: Middleware[]) => {
      const route = contract.get(key(method, path));
      if (!route) {
        throw new StartupError(
          `${service}: a handler is mounted for ${method} ${path}, which is not a ${service} route of the contract; ` +
            `add it to ${routesFile(service)} with service "${service}", ` +
            `or mount the handler under the contract's path (OpenAPI form, e.g. "/api/admin/lease-requests/{id}")`,
        );
      }
      const handler = middleware.at(-1);
      if (!handler) throw new StartupError(`${service}: ${method} ${path} has no handler`);
      if (Boolean(route.ownBody) !== rawBody) {
        throw new StartupError(
          route.ownBody
            ? `${service}: ${method} ${path} reads its own body (ownBody in ${routesFile(service)}); mount it in a contractRouter with { rawBody: true }`
            : `${service}: ${method} ${path} is in a rawBody group, but its contract entry has no ownBody saying why it reads the body itself`,
        );
      }
      const chain = [...(guard ? [guard] : []), ...middleware.slice(0, -1), routeInput(route), handler];
      const guards = new Set(chain.map((mw) => GUARDS.get(mw)).filter(Boolean));
      const wanted = route.access === "public" ? [] : [route.access];
      if (guards.size !== wanted.length || !wanted.every((g) => guards.has(g))) {
        throw new StartupError(
          `${service}: ${method} ${path} is "${route.access}" in the contract but its handler is behind ` +
            `${guards.size === 0 ? "no check" : [...guards].join(" and ")}; mount it in a router with ` +
            (route.access === "admin"
              ? "requireAdmin(session)"
              : route.access === "internal"
                ? "requireInternal(token)"
                : "no admin or internal check"),
        );
      }
      routes.push({ method, path, middleware: chain, contract: route });
      return router;
    };
  const router = {
    service,
    rawBody,
    routes,
    get: add("GET"),
    post: add("POST"),
    put: add("PUT"),
    patch: add("PATCH"),
    delete: add("DELETE"),
  } as unknown as ContractRouter<S>;
  return router;
}

/** "/api/admin/lease-requests/{id}" → "/api/admin/lease-requests/:id" (Koa's form). */
const koaPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

export function isServiceName(name: string): name is ServiceName {
  return (SERVICES as readonly string[]).includes(name);
}

/**
 * One Koa router for the JSON routes and one for those that read their body themselves, after
 * checking that the groups together answer every contract route of the service exactly once.
 * Literal paths come before templates (fewest parameters first: "/export.csv" before "/{id}").
 * With `checkAnswers` (tests), every answer is held against the route's declared responses.
 */
export function mountContractRoutes(
  service: string,
  groups: readonly ContractRouter[],
  opts: { checkAnswers?: boolean } = {},
): { parsed: Router; raw: Router } {
  if (!isServiceName(service)) {
    throw new StartupError(`${service} is no service of the contract (SERVICES in ${CONTRACT_FILE})`);
  }
  const mounted = new Map<string, MountedRoute & { raw: boolean }>();
  for (const group of groups) {
    if (group.service !== service) {
      throw new StartupError(`${service}: a router of ${group.service} was given to ${service}`);
    }
    for (const route of group.routes) {
      const k = key(route.method, route.path);
      if (mounted.has(k)) throw new StartupError(`${service}: ${k} has two handlers; keep one`);
      mounted.set(k, { ...route, raw: group.rawBody });
    }
  }
  const missing = contractRoutesOf(service)
    .map((r) => key(r.method, r.path))
    .filter((k) => !mounted.has(k));
  if (missing.length > 0) {
    throw new StartupError(
      `${service}: contract routes without a handler: ${missing.join(", ")}; ` +
        `mount a handler for each (contractRouter("${service}", ...)) or remove the route from ${routesFile(service)}`,
    );
  }
  const params = (path: string) => (path.match(/\{/g) ?? []).length;
  const ordered = [...mounted.values()].sort((a, b) => params(a.path) - params(b.path));
  // One spelling per route: case-sensitive, no trailing slash. "/API/ADMIN/LOGOUT" is no route, so
  // no guard keyed on the path's spelling (the CSRF check) can be stepped around.
  const parsed = new Router({ sensitive: true, strict: true });
  const raw = new Router({ sensitive: true, strict: true });
  for (const route of ordered) {
    const target = route.raw ? raw : parsed;
    const chain = opts.checkAnswers ? [answerCheck(route.contract), ...route.middleware] : route.middleware;
    target.register(koaPath(route.path), [route.method], chain);
  }
  return { parsed, raw };
}
