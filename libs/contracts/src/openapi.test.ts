import { describe, expect, it } from "vitest";
import { JOBS, JOB_NAMES, QUEUES } from "./jobs";
import { ErrorCode } from "./http/errors";
import { buildOpenApiDocument, codesNamedIn } from "./openapi";
import { API_ROUTES, serviceForPath } from "./routes";

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

describe("route table", () => {
  it("has each method and path once", () => {
    const keys = API_ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("sends every route to the service that owns it", () => {
    for (const route of API_ROUTES) {
      expect(serviceForPath(route.path.replace(/\{[^}]+\}/g, "x")), route.path).toBe(route.service);
    }
  });

  it("gives each path template one service", () => {
    const owners = new Map<string, string>();
    for (const route of API_ROUTES) {
      expect(owners.get(route.path) ?? route.service, route.path).toBe(route.service);
      owners.set(route.path, route.service);
    }
  });

  it("matches whole templates only: no prefix, no extra segment, no empty parameter", () => {
    expect(serviceForPath("/api/contactx")).toBeUndefined();
    expect(serviceForPath("/api/contact/x")).toBeUndefined();
    expect(serviceForPath("/api/admin/unknown")).toBeUndefined();
    expect(serviceForPath("/api/admin/lease-requests/x/y")).toBeUndefined();
    expect(serviceForPath("/api/admin/emails/")).toBeUndefined();
    expect(serviceForPath("/ws")).toBeUndefined();
    expect(serviceForPath("/api/admin/lease-requests/export.csv")).toBe("leads");
  });
});

describe("buildOpenApiDocument", () => {
  const doc = buildOpenApiDocument() as Doc;

  it("is an OpenAPI 3.1 document that survives JSON", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it("documents every route, admin routes behind the session cookie", () => {
    for (const route of API_ROUTES) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation!.security).toEqual(route.auth === "admin" ? [{ cookieAuth: [] }] : []);
      if (route.auth === "admin") expect(operation!.responses["401"]).toBeDefined();
    }
    expect(doc.components.securitySchemes.cookieAuth).toEqual({
      type: "apiKey",
      in: "cookie",
      name: "admin_session",
    });
  });

  it("names the shared schemas and points every $ref at one", () => {
    expect(doc.components.schemas.ApiError).toBeDefined();
    expect(doc.components.schemas.CreateLeaseRequestBody).toBeDefined();
    const refs = JSON.stringify(doc).match(/"\$ref":"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of refs) {
      const name = ref.split("/").pop()!.replace('"', "");
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });
});

describe("error codes in the document", () => {
  const doc = buildOpenApiDocument() as Doc;
  const known = new Set<string>(ErrorCode.options);

  it("names only codes of the ErrorCode union, on every route's error answers", () => {
    const named: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(methods))
        for (const [status, response] of Object.entries(operation.responses)) {
          const schema = (response as { content?: Record<string, { schema?: unknown }> }).content?.[
            "application/json"
          ]?.schema as { allOf?: [unknown, { properties?: { code?: { enum?: string[] } } }] } | undefined;
          for (const code of schema?.allOf?.[1].properties?.code?.enum ?? [])
            named.push(`${method.toUpperCase()} ${path} ${status} ${code}`);
        }
    expect(named.length).toBeGreaterThan(API_ROUTES.length);
    expect(named.filter((entry) => !known.has(entry.split(" ").pop()!))).toEqual([]);
  });

  it("finds every code a route's description names in the union", () => {
    const unknown = API_ROUTES.flatMap((route) =>
      Object.values(route.responses).flatMap((response) =>
        codesNamedIn(response.description)
          .filter((code) => !known.has(code))
          .map((code) => `${route.method} ${route.path}: ${code}`),
      ),
    );
    expect(unknown).toEqual([]);
  });

  it("types the error body's code with the union", () => {
    const code = (doc.components.schemas.ApiError as { properties: { code: { enum: string[] } } }).properties
      .code;
    expect(code.enum).toEqual(ErrorCode.options);
  });
});

describe("job catalog", () => {
  it("puts every job on a known queue with retries", () => {
    for (const name of JOB_NAMES) {
      expect(Object.values(QUEUES)).toContain(JOBS[name].queue);
      expect(JOBS[name].attempts).toBeGreaterThan(1);
    }
  });

  it("carries ids only", () => {
    const id = "7f1c1e1a-4a7e-4c3e-9a59-3b7e3f1d2c4b";
    expect(JOBS["mail.send"].schema.parse({ outgoingEmailId: id })).toEqual({ outgoingEmailId: id });
    expect(JOBS["inbox.log"].schema.safeParse({ source: "lease_request", sourceId: "x" }).success).toBe(
      false,
    );
  });
});
