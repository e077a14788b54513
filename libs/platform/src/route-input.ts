import type { Middleware, Next, ParameterizedContext } from "koa";
import type { z } from "zod";
import type { API_ROUTES, HttpMethod, INTERNAL_ROUTES, RouteRequest, ServiceName } from "@lease/contracts";
import { parseOr400 } from "./validate";

/**
 * What a handler is given from its contract route (libs/contracts/src/routes/<service>.ts): the params,
 * query and body parsed with the route's schemas before the handler runs. A part the route does
 * not declare is undefined.
 */

/** Every route a service answers: the public API and the internal calls. */
export type ContractRouteEntry = (typeof API_ROUTES)[number] | (typeof INTERNAL_ROUTES)[number];

/** The route of `service` answering `method` at `path` (its literal entry). */
export type RouteAt<S extends ServiceName, M extends HttpMethod, P extends string> = Extract<
  ContractRouteEntry,
  { service: S; method: M; path: P }
>;

/** The paths `service` answers under `method`, in the contract's OpenAPI form. */
export type PathOf<S extends ServiceName, M extends HttpMethod> = Extract<
  ContractRouteEntry,
  { service: S; method: M }
>["path"];

type Part = "params" | "query" | "body";
/** The parsed value of one part of a route's request (z.output: defaults applied, transforms run). */
export type RoutePart<R, K extends Part> = R extends { readonly request: { readonly [P in K]: infer Z } }
  ? Z extends z.ZodType
    ? z.output<Z>
    : undefined
  : undefined;

export interface RouteInput<R> {
  params: RoutePart<R, "params">;
  query: RoutePart<R, "query">;
  /** Undefined for a route that reads its body itself (`ownBody`): see parseBody. */
  body: RoutePart<R, "body">;
  /** For a route that reads its body itself: the value it read, checked with the route's body schema. */
  parseBody(value: unknown): RoutePart<R, "body">;
}

export type RouteContext<R> = ParameterizedContext & { input: RouteInput<R> };
export type RouteHandler<R> = (ctx: RouteContext<R>, next: Next) => unknown;

interface InputRoute {
  method: HttpMethod;
  path: string;
  request?: RouteRequest;
  ownBody?: string;
}

/**
 * The middleware that parses a route's declared parts, in the order handlers always read them
 * (params, query, body), each failure a 400 with every field's Dutch message (validate.ts). It runs
 * right before the handler, after the guard and any route-level middleware (a rate limit, a
 * Cache-Control header), so a refusal keeps its order and headers.
 */
export function routeInput(route: InputRoute): Middleware {
  const { params, query, body, bodyOptional } = route.request ?? {};
  const parseBody = (value: unknown) => {
    if (!body) throw new Error(`${route.method} ${route.path} declares no body schema in the contract`);
    return parseOr400(body, value);
  };
  return async function contractInput(ctx, next) {
    const raw = ctx.request.body;
    const input: { [K in keyof RouteInput<unknown>]: unknown } = {
      params: params ? parseOr400(params, ctx.params) : undefined,
      query: query ? parseOr400(query, ctx.query) : undefined,
      body:
        body && !route.ownBody ? parseOr400(body, raw === undefined && bodyOptional ? {} : raw) : undefined,
      parseBody,
    };
    (ctx as { input?: unknown }).input = input;
    return next();
  };
}

/** A route's body checked with its schema, for a value read elsewhere (a beacon forwarded unparsed). */
export function parseRouteBody<R extends { readonly request: { readonly body: z.ZodType } }>(
  route: R,
  value: unknown,
): z.output<R["request"]["body"]> {
  return parseOr400(route.request.body, value) as z.output<R["request"]["body"]>;
}
