import { z } from "zod";
import * as entities from "./entities";
import * as http from "./http";
import { API_ROUTES, type ApiRoute } from "./routes";

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

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Validation failed (code validation_failed, per-field messages in fields)",
  401: "Not signed in or session expired (code unauthorized)",
  404: "Not found (code not_found)",
  413: "Body too large (code payload_too_large)",
  415: "Body is not JSON (code unsupported_media_type)",
  429: "Too many requests (code rate_limited)",
  503: "A dependency is unavailable (code service_unavailable)",
};

function operation(route: ApiRoute, components: Components): JsonObject {
  const errorRef = components.ref(http.ApiError, "output");
  const errorResponse = (description: string) => ({
    description,
    content: { "application/json": { schema: errorRef } },
  });

  const statuses = new Set<number>([503]);
  if (route.request) statuses.add(400);
  if (route.request?.body) [413, 415].forEach((status) => statuses.add(status));
  if (route.request?.params) statuses.add(404);
  if (route.auth === "admin") statuses.add(401);
  if (route.auth === "public" && route.method === "POST") statuses.add(429);
  if (route.path === "/api/admin/login") statuses.add(401);

  const responses: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const code = Number(status);
    if (code >= 400) {
      responses[status] = errorResponse(response.description);
    } else if (code === 204) {
      responses[status] = { description: response.description };
    } else {
      const schema = response.schema ? components.ref(response.schema, "output") : { type: "object" };
      responses[status] = {
        description: response.description,
        content: { [response.contentType ?? "application/json"]: { schema } },
      };
    }
  }
  for (const status of statuses) {
    if (!responses[status]) responses[status] = errorResponse(ERROR_DESCRIPTIONS[status] ?? "Error");
  }
  responses.default = errorResponse("Unexpected error (code internal)");

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

/** The whole HTTP API as an OpenAPI 3.1 document, generated from API_ROUTES and the zod schemas. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const components = new Components();
  const paths: Record<string, Record<string, JsonObject>> = {};
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
    tags: [...new Set(API_ROUTES.map((route) => route.service))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        cookieAuth: { type: "apiKey", in: "cookie", name: SESSION_COOKIE_NAME },
      },
    },
  };
}
