import { randomUUID } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES as ROUTE_TABLE, type ApiRoute } from "@lease/contracts";
import { startFullStack, wsUpgradeStatus, type FullStack } from "./stack";

/** Read as the general shape: the optional keys of any route. */
const API_ROUTES: readonly ApiRoute[] = ROUTE_TABLE;

// The OpenAPI document held against what the running stack answers: every route is provoked into
// each refusal its guards make (a cross-site request 403, a body that is no JSON 415, no session 401,
// a body over the route's limit 413, broken JSON 400), and each answer's status and error code must
// be listed for that route in /api/openapi.json.

let stack: FullStack;
let cookie: string;
type Responses = Record<string, { content?: Record<string, { schema?: Schema }> }>;
type Schema = { allOf?: [unknown, { properties: { code: { enum: string[] } } }] };
let doc: { paths: Record<string, Record<string, { responses: Responses }>> };

beforeAll(async () => {
  stack = await startFullStack();
  cookie = await stack.adminCookie();
  doc = (await (await fetch(`${stack.gateway.url}/api/openapi.json`)).json()) as typeof doc;
}, 60_000);
afterAll(() => stack?.stop());

/** The route's path with each parameter filled in (an id nobody has, a secret nobody made). */
const pathOf = (route: ApiRoute) =>
  route.path.replace(/\{secret\}/g, "x".repeat(43)).replace(/\{[^}]+\}/g, () => randomUUID());

/** One request, raw: the declared Content-Length need not be the body sent (413 is answered first). */
function send(
  route: ApiRoute,
  headers: Record<string, string | number>,
  body = "",
): Promise<{ status: number; code?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${stack.gateway.url}${pathOf(route)}`, {
      method: route.method,
      headers: { "content-length": Buffer.byteLength(body), ...headers },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(text) as { code?: string }).code;
        } catch {
          code = undefined;
        }
        resolve({ status: res.statusCode!, code });
        req.destroy();
      });
    });
    req.on("error", reject);
    if (body.length > 0 || Number(headers["content-length"] ?? 0) === 0) req.end(body);
    else req.flushHeaders();
  });
}

/** The codes the document lists for a route's status (empty when the status is not listed). */
function documentedCodes(route: ApiRoute, status: number): string[] | undefined {
  const response = doc.paths[route.path]?.[route.method.toLowerCase()]?.responses[String(status)];
  if (!response) return undefined;
  return response.content?.["application/json"]?.schema?.allOf?.[1].properties.code.enum ?? [];
}

const stateChanges = API_ROUTES.filter((r) => r.method !== "GET" && !r.webhook);
const json = { "content-type": "application/json" };

describe("the OpenAPI document against the running stack", () => {
  it("lists every refusal each route really answers, with its code", async () => {
    const origin = stack.origin;
    const probes: {
      route: ApiRoute;
      probe: string;
      expected: number;
      headers: Record<string, string | number>;
      body?: string;
    }[] = [];
    for (const route of stateChanges) {
      probes.push({
        route,
        probe: "foreign Origin",
        expected: 403,
        headers: { ...json, origin: "https://evil.example" },
        body: "{}",
      });
      probes.push({
        route,
        probe: "no JSON",
        expected: 415,
        headers: { origin, "content-type": "text/plain" },
        body: "x",
      });
    }
    for (const route of API_ROUTES.filter((r) => r.auth === "admin"))
      probes.push({
        route,
        probe: "no session",
        expected: 401,
        headers: { ...json, origin },
        body: route.method === "GET" ? "" : "{}",
      });
    for (const route of API_ROUTES.filter((r) => r.request?.body || r.webhook)) {
      const session: Record<string, string> = route.auth === "admin" ? { cookie } : {};
      const limit = route.bodyLimitBytes ?? Number(stack.env.BODY_LIMIT_BYTES ?? 16 * 1024);
      probes.push({
        route,
        probe: "body over the limit",
        expected: 413,
        headers: { ...json, origin, ...session, "content-length": limit + 1 },
      });
      if (route.request?.body)
        probes.push({
          route,
          probe: "broken JSON",
          expected: 400,
          headers: { ...json, origin, ...session },
          body: "{",
        });
    }

    const wrong: string[] = [];
    for (const p of probes) {
      const { status, code } = await send(p.route, p.headers, p.body);
      const where = `${p.route.method} ${p.route.path} (${p.probe})`;
      if (status !== p.expected) wrong.push(`${where}: answered ${status} ${code}, expected ${p.expected}`);
      const listed = documentedCodes(p.route, status);
      if (!listed) wrong.push(`${where}: ${status} is not in the document`);
      else if (code && !listed.includes(code))
        wrong.push(`${where}: code ${code} of ${status} is not in the document`);
    }
    expect(wrong).toEqual([]);
    expect(probes.length).toBeGreaterThan(API_ROUTES.length);
  }, 60_000);

  it("describes the probes and the admin WebSocket, and the WebSocket's refusals are the documented ones", async () => {
    for (const path of ["/healthz", "/readyz", "/ws"]) expect(doc.paths[path]?.get, path).toBeDefined();
    expect((await fetch(`${stack.gateway.url}/healthz`)).status).toBe(200);
    const readyz = await fetch(`${stack.gateway.url}/readyz`);
    expect(doc.paths["/readyz"]!.get!.responses[String(readyz.status)]).toBeDefined();
    const upgrade = (headers: Record<string, string>) => wsUpgradeStatus(stack, headers);
    const refusals = [
      await upgrade({ origin: stack.origin }),
      await upgrade({ origin: "https://evil.example", cookie }),
      await upgrade({ origin: stack.origin, cookie }),
    ];
    expect(refusals).toEqual([401, 403, 101]);
    for (const status of refusals)
      expect(doc.paths["/ws"]!.get!.responses[String(status)], String(status)).toBeDefined();
  });
});
