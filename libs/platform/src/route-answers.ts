import type { Middleware } from "koa";
import type { z } from "zod";
import { routeErrors, type ApiRoute, type HttpMethod, type RouteResponse } from "@lease/contracts";
import { HttpError } from "./errors";

/**
 * In tests (NODE_ENV=test), every answer of a contract route is held against the route's declared
 * responses: a success status the route does not declare, a body its schema refuses, a field the
 * schema does not name (one zod would strip), or a refusal (4xx) whose status and code the OpenAPI
 * document does not list for the route (routeErrors) turns the answer into a 500 that says which,
 * so the test that provoked it fails. Production never pays for the check.
 */

interface AnsweringRoute {
  method: HttpMethod;
  path: string;
  responses?: Record<number, RouteResponse>;
  api?: ApiRoute;
}

/** Also written to stderr: the service's log is silent in most tests, and the 500 names nothing. */
export class UndeclaredAnswer extends Error {
  override name = "UndeclaredAnswer";
  constructor(message: string) {
    super(message);
    process.stderr.write(`UndeclaredAnswer: ${message}\n`);
  }
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value));

/** The dotted paths of the keys in `sent` the schema's output dropped. */
function dropped(sent: unknown, kept: unknown, at: string, found: string[]): string[] {
  if (Array.isArray(sent) && Array.isArray(kept)) {
    sent.forEach((item, i) => dropped(item, kept[i], `${at}[${i}]`, found));
  } else if (isPlain(sent) && isPlain(kept)) {
    for (const [key, value] of Object.entries(sent)) {
      const path = at ? `${at}.${key}` : key;
      if (!(key in kept)) found.push(path);
      else dropped(value, kept[key], path, found);
    }
  }
  return found;
}

/** What is wrong with `body` as the answer `schema` declares, as the client reads it (JSON). */
export function answerProblem(schema: z.ZodType, body: unknown): string | undefined {
  const sent: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
  const result = schema.safeParse(sent);
  if (!result.success) {
    return result.error.issues
      .map((issue) => `${issue.path.map(String).join(".") || "(body)"}: ${issue.message}`)
      .join("; ");
  }
  const extra = dropped(sent, result.data, "", []);
  return extra.length > 0 ? `fields the contract does not declare: ${extra.join(", ")}` : undefined;
}

const isJson = (response: RouteResponse) => (response.contentType ?? "application/json").includes("json");
const streamed = (body: unknown) =>
  Buffer.isBuffer(body) || (typeof body === "object" && body !== null && "pipe" in body);

/**
 * The check in front of one route's chain, public or internal. Refusals are held against the
 * OpenAPI document's for public routes only (`api`): an internal route's callers read its status.
 */
export function answerCheck(route: AnsweringRoute): Middleware {
  const name = `${route.method} ${route.path}`;
  const refusals = route.api ? routeErrors(route.api) : undefined;
  return async function contractAnswer(ctx, next) {
    try {
      await next();
    } catch (err) {
      if (
        refusals &&
        err instanceof HttpError &&
        err.status < 500 &&
        !refusals.get(err.status)?.codes.has(err.code)
      )
        throw new UndeclaredAnswer(
          `${name} refused with ${err.status} ${err.code}, which the OpenAPI document does not list for it ` +
            `(declare it in the route's responses, "(code ${err.code})" in the description)`,
        );
      throw err;
    }
    if (!route.responses || ctx.respond === false) return;
    const status = ctx.status;
    const declared = route.responses[status];
    if (!declared) {
      // Refusals are the guards' and the OpenAPI document's (routeErrors); 304 answers a conditional GET.
      if (status >= 400 || status === 304) return;
      throw new UndeclaredAnswer(`${name} answered ${status}, a status its contract entry does not declare`);
    }
    if (!declared.schema || !isJson(declared) || status === 204 || streamed(ctx.body)) return;
    // A body kept as its JSON text (a cached snapshot) is checked as the client will read it.
    const body: unknown = typeof ctx.body === "string" ? JSON.parse(ctx.body) : ctx.body;
    const problem = answerProblem(declared.schema, body);
    if (problem) throw new UndeclaredAnswer(`${name} answered ${status} unlike its contract: ${problem}`);
  };
}
