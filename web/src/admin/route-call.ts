// A call of the panel made from its contract entry (libs/contracts/src/routes/<service>.ts): the method and
// path template, the path's parameters filled in, and the answer parsed with the route's declared
// success schema. A path the API does not have, or a missing parameter, fails to compile.
import { apiRoute, type ApiPath, type ApiRoute, type ApiRouteAt, type HttpMethod } from "@lease/contracts";
import type { z } from "zod";
import { apiExchange } from "../api/client";

type Schema<R, K extends "params" | "body"> = R extends { readonly request: { readonly [P in K]: infer Z } }
  ? Z extends z.ZodType
    ? Z
    : never
  : never;

/** The lowest success status of a route with a JSON schema; its parsed value is the call's answer. */
type SuccessOf<R> = R extends { readonly responses: infer Rs }
  ? {
      [S in keyof Rs]: S extends 200 | 201 | 202
        ? Rs[S] extends { readonly schema: infer Z extends z.ZodType }
          ? z.output<Z>
          : never
        : never;
    }[keyof Rs]
  : never;
export type RouteAnswer<R> = [SuccessOf<R>] extends [never] ? void : SuccessOf<R>;

type QueryValue = string | number | boolean | null | undefined;
type PathParams<R> = [Schema<R, "params">] extends [never]
  ? { params?: never }
  : { params: { [K in keyof z.input<Schema<R, "params">>]: string } };
/** A route without a body schema may still be sent an empty object (as a state change's JSON). */
type Body<R> = [Schema<R, "body">] extends [never]
  ? { body?: Record<string, never> }
  : { body?: z.input<Schema<R, "body">> };

/** What a call sends: the path's parameters, a query (empty values left out) and the body. */
export type RouteCall<R> = PathParams<R> & Body<R> & { query?: Record<string, QueryValue> };

const SUCCESS = [200, 201, 202];

type Loose = { params?: Record<string, string>; query?: Record<string, QueryValue>; body?: unknown };

function fill(method: string, path: string, call: Loose): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = call.params?.[name];
    if (value === undefined) throw new Error(`${method} ${path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query ?? {}))
    if (value !== undefined && value !== null && value !== "") query.set(key, String(value));
  const search = query.toString();
  return search ? `${filled}?${search}` : filled;
}

/** The route's path with its parameters filled in, and the query's non-empty values. */
export function routeUrl<M extends HttpMethod, P extends ApiPath<M>>(
  method: M,
  path: P,
  call: Pick<RouteCall<ApiRouteAt<M, P>>, "params" | "query">,
): string {
  return fill(method, path, call as Loose);
}

/** The schema a route declares for its first JSON success answer, if any. */
function successSchema(method: HttpMethod, path: string): z.ZodType | undefined {
  const route = (apiRoute as (m: string, p: string) => ApiRoute)(method, path);
  for (const status of SUCCESS) {
    const response = route.responses[status];
    if (response?.schema && !response.contentType) return response.schema;
  }
  return undefined;
}

async function send(method: HttpMethod, path: string, call: Loose = {}) {
  const { data, headers } = await apiExchange<unknown>(method, fill(method, path, call), call.body);
  const schema = successSchema(method, path);
  return { data: schema ? schema.parse(data) : undefined, headers };
}

type CallArgs<R> = object extends RouteCall<R> ? [call?: RouteCall<R>] : [call: RouteCall<R>];

/** Calls a contract route; the answer is parsed with its declared schema, its headers alongside. */
export async function exchangeRoute<M extends HttpMethod, P extends ApiPath<M>>(
  method: M,
  path: P,
  ...[call]: CallArgs<ApiRouteAt<M, P>>
): Promise<{ data: RouteAnswer<ApiRouteAt<M, P>>; headers: Headers }> {
  return (await send(method, path, call as Loose)) as {
    data: RouteAnswer<ApiRouteAt<M, P>>;
    headers: Headers;
  };
}

/** As exchangeRoute, the answer only. */
export async function callRoute<M extends HttpMethod, P extends ApiPath<M>>(
  method: M,
  path: P,
  ...[call]: CallArgs<ApiRouteAt<M, P>>
): Promise<RouteAnswer<ApiRouteAt<M, P>>> {
  return (await send(method, path, call as Loose)).data as RouteAnswer<ApiRouteAt<M, P>>;
}
