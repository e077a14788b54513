import type { z } from "zod";
import { CONVERSIONS_ROUTES } from "./routes/conversions";
import { GATEWAY_ROUTES } from "./routes/gateway";
import { INTERNAL_ROUTES } from "./routes/internal";
import { LEADS_ROUTES } from "./routes/leads";
import { MAILER_ROUTES } from "./routes/mailer";
import { SETTINGS_ROUTES } from "./routes/settings";
import { TRACKING_ROUTES } from "./routes/tracking";

// The contract's route tables and what is read from them. Each service's routes are declared in
// a file of their own, routes/<service>.ts (GATEWAY_ROUTES, LEADS_ROUTES, ...), and the calls
// between services in routes/internal.ts; API_ROUTES joins them, keeping every entry's literal
// path and schemas (route-input.ts in libs/platform and the admin panel's client type from them).

export { INTERNAL_ROUTES };

export const SERVICES = ["gateway", "leads", "settings", "tracking", "mailer", "conversions"] as const;
export type ServiceName = (typeof SERVICES)[number];
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type RouteAuth = "public" | "admin";

export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

/**
 * What a route takes: its router validates each part before the handler runs (400 with the
 * fields' messages) and hands the handler the parsed values.
 */
export interface RouteRequest {
  body?: z.ZodType;
  query?: z.ZodObject;
  params?: z.ZodObject;
  /** A request without a body reads as `{}` (every field of the body is optional). */
  bodyOptional?: true;
}

export interface ApiRoute {
  method: HttpMethod;
  /** OpenAPI style: "/api/admin/lease-requests/{id}/status". */
  path: string;
  service: ServiceName;
  auth: RouteAuth;
  summary: string;
  request?: RouteRequest;
  responses: Record<number, RouteResponse>;
  /** A larger JSON body than the services' default (BODY_LIMIT_BYTES) this route takes, e.g. an uploaded export. */
  bodyLimitBytes?: number;
  /** The path itself is a secret (a URL that works without a cookie): logs name the route's template instead. */
  secretPath?: true;
  /**
   * Posted by a provider's servers (SendGrid's webhooks): no Origin and not necessarily JSON, so the
   * gateway's cross-site check does not apply, and the body reaches the service byte for byte,
   * streamed. The route proves the sender itself (a secret path or a signature).
   */
  webhook?: true;
  /**
   * The handler reads the body itself, and why (multipart, bytes a signature covers, forwarded
   * unparsed): its router is mounted ahead of the JSON reader, and a declared body schema is for
   * the handler to apply to what it read.
   */
  ownBody?: string;
}

/** The public API: every route a browser or a provider may call, as the gateway routes them. */
export const API_ROUTES = [
  ...GATEWAY_ROUTES,
  ...LEADS_ROUTES,
  ...SETTINGS_ROUTES,
  ...CONVERSIONS_ROUTES,
  ...TRACKING_ROUTES,
  ...MAILER_ROUTES,
] as const satisfies readonly ApiRoute[];

/** One route of the public API, with its literal path and schemas. */
export type ApiRouteEntry = (typeof API_ROUTES)[number];

/** The public API's route answering `method` at `path`, with its literal schemas. */
export type ApiRouteAt<M extends HttpMethod, P extends string> = Extract<
  ApiRouteEntry,
  { method: M; path: P }
>;

/** The paths of the public API under `method`. */
export type ApiPath<M extends HttpMethod> = Extract<ApiRouteEntry, { method: M }>["path"];

/** The contract's entry for `method` and `path` (a path the API does not have fails to compile). */
export function apiRoute<M extends HttpMethod, P extends ApiPath<M>>(method: M, path: P): ApiRouteAt<M, P> {
  const route = API_ROUTES.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`${method} ${path} is no route of API_ROUTES`);
  return route as ApiRouteAt<M, P>;
}

/**
 * A route the public never reaches (INTERNAL_ROUTES, routes/internal.ts): a service-to-service call
 * (/internal/*, with the internal token) or a probe every service answers. With API_ROUTES they are
 * every route a service has, and so every value a metric's `route` label can take (besides
 * "unmatched").
 */
export interface InternalRoute {
  method: HttpMethod;
  path: string;
  service: ServiceName | "all";
  request?: RouteRequest;
  /** As ApiRoute's: what it answers, held against every answer in tests. */
  responses: Record<number, RouteResponse>;
  /** As ApiRoute's: the handler reads the body itself, and why. */
  ownBody?: string;
}

/** A path template in the form metrics use: "/api/admin/lease-requests/{id}" → "/api/admin/lease-requests/:id". */
export const metricRoute = (openApiPath: string): string => openApiPath.replace(/\{([^}]+)\}/g, ":$1");

/** The value of a metric's `route` label for anything that is no known route. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * Maps a request path (without query string) to the route template it matches, or "unmatched":
 * labels are then bounded by the route table, whatever paths clients make up. Literal paths are
 * one map lookup; templates with parameters are tried after, fewest parameters first (so
 * "/export.csv" wins over "/{id}").
 */
export function createRouteMatcher(
  paths: readonly string[] = [...API_ROUTES, ...INTERNAL_ROUTES].map((r) => r.path),
): (path: string) => string {
  const literal = new Map<string, string>();
  const patterns: { re: RegExp; label: string; params: number }[] = [];
  for (const path of new Set(paths)) {
    const label = metricRoute(path);
    const params = (path.match(/\{/g) ?? []).length;
    if (params === 0) literal.set(path, label);
    else {
      const source = path
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
        .join("[^/]+");
      patterns.push({ re: new RegExp(`^${source}$`), label, params });
    }
  }
  patterns.sort((a, b) => a.params - b.params);
  return (path) => {
    const hit = literal.get(path);
    if (hit !== undefined) return hit;
    for (const p of patterns) if (p.re.test(path)) return p.label;
    return UNMATCHED_ROUTE;
  };
}

/**
 * The service owning a public request path (without query string): the service of the API_ROUTES
 * entry whose path template it matches, or undefined when none does. The gateway routes on this, so
 * a route is reachable as soon as it is in API_ROUTES; paths of no route are refused at the edge.
 */
export function createServiceMatcher(
  routes: readonly Pick<ApiRoute, "path" | "service">[] = API_ROUTES,
): (path: string) => ServiceName | undefined {
  const owner = new Map(routes.map((r) => [metricRoute(r.path), r.service]));
  const match = createRouteMatcher(routes.map((r) => r.path));
  return (path) => owner.get(match(path));
}

export const serviceForPath = createServiceMatcher();

/**
 * The body limit of the route a path belongs to when it takes more than the default (undefined:
 * the default applies). The gateway and every service read it, so both let such a body through.
 */
export function createBodyLimitMatcher(
  routes: readonly Pick<ApiRoute, "path" | "bodyLimitBytes">[] = API_ROUTES,
): (path: string) => number | undefined {
  const limits = new Map(
    routes.filter((r) => r.bodyLimitBytes !== undefined).map((r) => [metricRoute(r.path), r.bodyLimitBytes]),
  );
  const match = createRouteMatcher(routes.map((r) => r.path));
  return (path) => (limits.size === 0 ? undefined : limits.get(match(path)));
}

export const bodyLimitForPath = createBodyLimitMatcher();

/**
 * A request path as logs may show it: a path under a route whose path is a secret (`secretPath`,
 * e.g. "/api/google-ads/conversions/{secret}.csv") is shown as that route's template, whatever
 * follows its fixed start and in any letter case (a mistyped secret may still be nearly right).
 */
export function createLoggedPath(
  routes: readonly Pick<ApiRoute, "path" | "secretPath">[] = API_ROUTES,
): (path: string) => string {
  const secret = routes
    .filter((r) => r.secretPath)
    .map((r) => ({ start: r.path.slice(0, r.path.indexOf("{")).toLowerCase(), template: r.path }));
  if (secret.length === 0) return (path) => path;
  return (path) => {
    const lower = path.toLowerCase();
    return secret.find((r) => lower.startsWith(r.start))?.template ?? path;
  };
}

export const loggedPath = createLoggedPath();

/** Whether a request path belongs to a provider's webhook (`webhook` in API_ROUTES). */
export function createWebhookMatcher(
  routes: readonly Pick<ApiRoute, "path" | "webhook">[] = API_ROUTES,
): (path: string) => boolean {
  const hooks = new Set(routes.filter((r) => r.webhook).map((r) => metricRoute(r.path)));
  const match = createRouteMatcher(routes.map((r) => r.path));
  return (path) => hooks.size > 0 && hooks.has(match(path));
}

export const isWebhookPath = createWebhookMatcher();
