import { z } from "zod";
import * as entities from "./entities";
import * as http from "./http";
import { ErrorCode } from "./http/errors";
import { API_ROUTES, INTERNAL_ROUTES, type ApiRoute, type InternalRoute } from "./routes";
import { ServerWsMessage, WS_PATH } from "./ws";

type Io = "input" | "output";
type JsonObject = Record<string, unknown>;

export const SESSION_COOKIE_NAME = "admin_session";

/** Exported schema → its export name, so documented schemas become named components. */
const SCHEMA_NAMES = new Map<z.ZodType, string>();
for (const [name, value] of [...Object.entries(entities), ...Object.entries(http)]) {
  if (value instanceof z.ZodType && !SCHEMA_NAMES.has(value)) SCHEMA_NAMES.set(value, name);
}

function toJsonSchema(schema: z.ZodType, io: Io): JsonObject {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonObject;
  delete json.$schema;
  return json;
}

class Components {
  readonly schemas: Record<string, JsonObject> = {};
  private readonly ioOf = new Map<string, Io>();

  /** A $ref to the named component for an exported schema; anonymous schemas are inlined. */
  ref(schema: z.ZodType, io: Io): JsonObject {
    const name = SCHEMA_NAMES.get(schema);
    if (!name) return toJsonSchema(schema, io);
    // A schema used both ways gets a second component: input and output may differ (defaults, transforms).
    const key =
      this.ioOf.has(name) && this.ioOf.get(name) !== io
        ? `${name}${io === "input" ? "Input" : "Output"}`
        : name;
    if (!this.schemas[key]) {
      this.ioOf.set(key, io);
      this.schemas[key] = toJsonSchema(schema, io);
    }
    return { $ref: `#/components/schemas/${key}` };
  }
}

function operationId(route: ApiRoute): string {
  const words = route.path
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word && word !== "api")
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  return route.method.toLowerCase() + words.join("");
}

function parameters(schema: z.ZodObject, location: "query" | "path"): JsonObject[] {
  const json = toJsonSchema(schema, "input") as {
    properties?: Record<string, JsonObject>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: location,
      required: location === "path" || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/**
 * What a status means wherever the platform or the gateway answers it, and its error codes
 * (README, "Security"): the guards in front of every route (the gateway's cross-site check and
 * session check, the JSON body reader, the proxy) answer these whatever the route's own handler does.
 */
const GENERIC_ERRORS: Record<number, { description: string; codes: ErrorCode[] }> = {
  400: {
    description:
      "Invalid input: a field fails validation (per-field messages in fields), the body is no JSON, nests deeper than 64 levels or holds a NUL character",
    codes: ["validation_failed", "invalid_json", "too_deep", "invalid_character"],
  },
  401: {
    description:
      "Not signed in, the session expired or ended, or another admin disabled or removed the account or reset its second factor",
    codes: ["unauthorized", "account_disabled", "account_removed", "account_totp_reset"],
  },
  403: {
    description:
      "A cross-site request: a foreign Origin or Sec-Fetch-Site, or (admin routes) a missing Origin",
    codes: ["forbidden"],
  },
  404: { description: "No such item", codes: ["not_found"] },
  409: { description: "Conflicts with the current state", codes: ["conflict"] },
  413: { description: "The body is larger than the route takes", codes: ["payload_too_large"] },
  415: {
    description: "A state change whose body is not declared as application/json",
    codes: ["unsupported_media_type"],
  },
  422: { description: "Refused as it stands", codes: [] },
  429: {
    description: "Too many requests from this address; wait Retry-After seconds",
    codes: ["rate_limited"],
  },
  502: { description: "The service behind the gateway answered nothing usable", codes: ["bad_gateway"] },
  503: {
    description: "A dependency is unavailable just now; see Retry-After",
    codes: ["service_unavailable"],
  },
  504: { description: "The service behind the gateway did not answer in time", codes: ["gateway_timeout"] },
};

/** The sign-in routes' own answers beside the generic ones. */
const LOGIN_ERRORS: Record<string, Record<number, ErrorCode[]>> = {
  "/api/admin/login": {
    401: ["invalid_credentials", "one_time_password_expired"],
    429: ["rate_limited"],
    503: ["login_busy"],
  },
  "/api/admin/login/totp": {
    401: ["login_expired", "invalid_code", "used_code"],
    429: ["rate_limited", "codes_locked"],
  },
  "/api/admin/login/new-password": { 401: ["login_expired"] },
};

/**
 * The words a route's own description names as error codes: "(code a, b or c)",
 * "(privacy_staff_address)". Only those in ErrorCode reach the document; openapi.test.ts fails on any other.
 */
export function codesNamedIn(description: string): string[] {
  const codes = new Set<string>();
  for (const m of description.matchAll(/\(codes? ([^)]*)\)/g))
    for (const word of m[1]!.split(/,|\bor\b/))
      if (/^[a-z][a-z_]*$/.test(word.trim())) codes.add(word.trim());
  for (const m of description.matchAll(/\(([a-z]+_[a-z_]+)\)/g)) codes.add(m[1]!);
  return [...codes];
}

const isErrorCode = (word: string): word is ErrorCode => ErrorCode.safeParse(word).success;

/**
 * Every error status a route can answer, with its codes: what the guards in front of it do (by
 * method, auth, request parts and owner), the sign-in's own, and what the route declares.
 * tests/system/openapi-errors.test.ts provokes them against the running stack.
 */
export function routeErrors(route: ApiRoute): Map<number, { descriptions: string[]; codes: Set<ErrorCode> }> {
  const errors = new Map<number, { descriptions: string[]; codes: Set<ErrorCode> }>();
  const add = (status: number, description: string, codes: readonly ErrorCode[]) => {
    const entry = errors.get(status) ?? { descriptions: [], codes: new Set<ErrorCode>() };
    if (!entry.descriptions.includes(description)) entry.descriptions.push(description);
    for (const code of codes) entry.codes.add(code);
    errors.set(status, entry);
  };
  const generic = (status: number) =>
    add(status, GENERIC_ERRORS[status]!.description, GENERIC_ERRORS[status]!.codes);
  const stateChange = route.method !== "GET";
  if (stateChange && !route.webhook) [403, 415].forEach(generic);
  if (route.auth === "admin") generic(401);
  if (route.request?.body) [400, 413].forEach(generic);
  else if (route.webhook) generic(413);
  if (route.request?.query)
    add(400, GENERIC_ERRORS[400]!.description, ["validation_failed", "invalid_character"]);
  if (route.request?.params) {
    add(400, GENERIC_ERRORS[400]!.description, ["validation_failed"]);
    generic(404);
  }
  if (route.auth === "public" && route.method === "POST" && !route.path.startsWith("/api/track/"))
    generic(429);
  for (const [status, codes] of Object.entries(LOGIN_ERRORS[route.path] ?? {}))
    add(Number(status), GENERIC_ERRORS[Number(status)]!.description, codes);
  if (route.service !== "gateway") [502, 504].forEach(generic);
  generic(503);
  for (const [status, response] of Object.entries(route.responses)) {
    const code = Number(status);
    if (code < 400) continue;
    const named = codesNamedIn(response.description).filter(isErrorCode);
    add(code, response.description, named.length > 0 ? named : (GENERIC_ERRORS[code]?.codes ?? []));
  }
  return errors;
}

function operation(route: ApiRoute, components: Components): JsonObject {
  const errorRef = components.ref(http.ApiError, "output");
  const errorResponse = (description: string, codes: Set<ErrorCode>) => ({
    description: codes.size > 0 ? `${description} (code ${[...codes].join(", ")})` : description,
    content: {
      "application/json": {
        schema:
          codes.size > 0
            ? { allOf: [errorRef, { type: "object", properties: { code: { enum: [...codes] } } }] }
            : errorRef,
      },
    },
  });

  const responses: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const code = Number(status);
    if (code >= 400) continue;
    if (code === 204) {
      responses[status] = { description: response.description };
    } else {
      const schema = response.schema ? components.ref(response.schema, "output") : { type: "object" };
      responses[status] = {
        description: response.description,
        content: { [response.contentType ?? "application/json"]: { schema } },
      };
    }
  }
  for (const [status, { descriptions, codes }] of [...routeErrors(route)].sort(([a], [b]) => a - b))
    responses[status] = errorResponse(descriptions.join("; or: "), codes);
  responses.default = errorResponse("Unexpected error", new Set<ErrorCode>(["internal"]));

  const { body, query, params } = route.request ?? {};
  return {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.service],
    security: route.auth === "admin" ? [{ cookieAuth: [] }] : [],
    ...(query || params
      ? {
          parameters: [
            ...(params ? parameters(params, "path") : []),
            ...(query ? parameters(query, "query") : []),
          ],
        }
      : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: components.ref(body, "input") } },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The probes (their answers as INTERNAL_ROUTES declares them) and the admin WebSocket: answered by
 * every service or the gateway, not in API_ROUTES.
 */
function outsideTheApi(components: Components): Record<string, Record<string, JsonObject>> {
  const json = (description: string, schema: JsonObject) => ({
    description,
    content: { "application/json": { schema } },
  });
  const probes: readonly InternalRoute[] = INTERNAL_ROUTES;
  const probeResponses = (path: "/healthz" | "/readyz") =>
    Object.fromEntries(
      Object.entries(probes.find((r) => r.path === path)!.responses).map(([status, r]) => [
        status,
        json(r.description, r.schema ? components.ref(r.schema, "output") : { type: "object" }),
      ]),
    );
  // The upgrade is refused with a bare HTTP answer (no body) before any WebSocket exists.
  const bare = (description: string) => ({ description });
  return {
    "/healthz": {
      get: {
        operationId: "getHealthz",
        summary: "Liveness: the process answers (every service, on its port)",
        tags: ["probes"],
        security: [],
        responses: probeResponses("/healthz"),
      },
    },
    "/readyz": {
      get: {
        operationId: "getReadyz",
        summary:
          "Readiness, up or down only (a result at most a second old); which check failed is answered on the metrics port only",
        tags: ["probes"],
        security: [],
        responses: probeResponses("/readyz"),
      },
    },
    [WS_PATH]: {
      get: {
        operationId: "getWs",
        summary:
          "The admin WebSocket (an upgrade): the live visitors, new leads and mail outcomes as ServerWsMessage; origin and session checked at the upgrade",
        tags: ["tracking"],
        security: [{ cookieAuth: [] }],
        responses: {
          101: {
            description: "Switching protocols; the server sends JSON text messages",
            content: { "application/json": { schema: components.ref(ServerWsMessage, "output") } },
          },
          401: bare("No valid admin session (no body)"),
          403: bare("A foreign Origin (no body)"),
          503: bare("Sessions cannot be checked or tracking is unreachable just now (no body)"),
        },
      },
    },
  };
}

/** The whole HTTP API as an OpenAPI 3.1 document, generated from API_ROUTES and the zod schemas. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const components = new Components();
  const paths: Record<string, Record<string, JsonObject>> = outsideTheApi(components);
  for (const route of API_ROUTES) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Lease broker API",
      version: "1.0.0",
      description:
        "Public website and admin panel API. Every error body is an ApiError. Admin routes need the admin_session cookie set by POST /api/admin/login.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: "/" }],
    tags: [...new Set([...API_ROUTES.map((route) => route.service), "probes"])].map((name) => ({ name })),
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        cookieAuth: { type: "apiKey", in: "cookie", name: SESSION_COOKIE_NAME },
      },
    },
  };
}
