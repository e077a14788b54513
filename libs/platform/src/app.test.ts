import http from "node:http";
import Router from "@koa/router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { INTERNAL_ROUTES } from "@lease/contracts";
import { createApp } from "./app";
import { createLogger } from "./logger";
import { startMetricsServer, type MetricsServer } from "./metrics";
import { answerProblem } from "./route-answers";
import { startHttpServer, type RunningServer } from "./server";
import { parseOr400 } from "./validate";

const Body = z.strictObject({ name: z.string().min(1, "Naam is verplicht"), age: z.number().int() });

let server: RunningServer;
let metrics: MetricsServer;
let dependencyPings = 0;
beforeAll(async () => {
  const router = new Router();
  router.post("/echo", (ctx) => {
    ctx.body = parseOr400(Body, ctx.request.body);
  });
  router.get("/boom", () => {
    throw new Error("secret internals at /srv/app.ts:12");
  });
  router.get("/pg-down", () => {
    throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  });
  const app = createApp({
    service: "test",
    logger: createLogger("test", "silent"),
    routes: router,
    readiness: {
      dependency: async () => {
        dependencyPings++;
      },
    },
    bodyLimitBytes: 1024,
    // Answers any path under /proxied/ itself, as the gateway's proxy does.
    before: [
      async (ctx, next) => {
        if (!ctx.path.startsWith("/proxied/")) return next();
        ctx.body = { proxied: true };
      },
    ],
  });
  const logger = createLogger("test", "silent");
  server = await startHttpServer(app, { host: "127.0.0.1", port: 0, logger });
  metrics = await startMetricsServer(app.metrics.registry, {
    host: "127.0.0.1",
    port: 0,
    logger,
    service: "test",
    readiness: () => app.readiness(),
  });
});
afterAll(async () => {
  await server.close(1000);
  await metrics.close();
});

const seriesCount = async () =>
  (await (await fetch(metrics.url)).text()).split("\n").filter((l) => l.startsWith("http_request")).length;

const post = (
  path: string,
  body: string,
  headers: Record<string, string> = { "content-type": "application/json" },
) => fetch(`${server.url}${path}`, { method: "POST", body, headers });

describe("the Koa app factory", () => {
  it("answers a zod failure with 400 listing each field and its message", async () => {
    const res = await post("/echo", JSON.stringify({ name: "", age: 1.5, extra: 1 }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.code).toBe("validation_failed");
    expect(body.fields).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Naam is verplicht" },
        { path: "age", message: expect.any(String) },
        { path: "(body)", message: "Onbekend veld: extra" },
      ]),
    );
  });

  it("accepts valid JSON", async () => {
    const res = await post("/echo", JSON.stringify({ name: "Jan", age: 40 }));
    expect(res.status).toBe(200);
    expect((await res.json()) as any).toEqual({ name: "Jan", age: 40 });
  });

  it("answers malformed JSON with 400", async () => {
    const res = await post("/echo", "{nope");
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).code).toBe("invalid_json");
  });

  it("answers an unknown route with a JSON 404", async () => {
    const res = await fetch(`${server.url}/nothing-here`);
    expect(res.status).toBe(404);
    expect((await res.json()) as any).toMatchObject({ code: "not_found" });
  });

  it("refuses a body over the limit with 413, by Content-Length and when chunked", async () => {
    const big = JSON.stringify({ name: "x".repeat(5000), age: 1 });
    const res = await post("/echo", big);
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).code).toBe("payload_too_large");

    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${server.url}/echo`,
        { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      for (let i = 0; i < 10; i++) req.write("x".repeat(500));
      req.end();
    });
    expect(chunked).toBe(413);
  });

  it("refuses a non-JSON content type with 415", async () => {
    const res = await post("/echo", "name=x", { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(415);
    expect(((await res.json()) as any).code).toBe("unsupported_media_type");
  });

  it("never sends a stack trace: an unexpected error is a generic 500", async () => {
    const res = await fetch(`${server.url}/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/secret internals|app\.ts|at /);
    expect(JSON.parse(text).code).toBe("internal");
  });

  it("maps an unreachable database to 503 with Retry-After", async () => {
    const res = await fetch(`${server.url}/pg-down`);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
  });

  it("keeps a caller's request id and makes one when missing", async () => {
    const given = await fetch(`${server.url}/healthz`, { headers: { "x-request-id": "abc-123" } });
    expect(given.headers.get("x-request-id")).toBe("abc-123");
    const made = await fetch(`${server.url}/healthz`, { headers: { "x-request-id": "bad id with spaces" } });
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("exposes request counts by route and status and process metrics on the metrics listener", async () => {
    await fetch(`${server.url}/nothing-here`);
    const text = await (await fetch(metrics.url)).text();
    expect(text).toMatch(/http_requests_total\{[^}]*route="unmatched"[^}]*status="404"[^}]*\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_bucket/);
    expect(text).toMatch(/http_requests_in_flight/);
    expect(text).toMatch(/process_resident_memory_bytes/);
    expect((await fetch(metrics.url.replace("/metrics", "/healthz"))).status).toBe(404);
  });

  it("answers /readyz on its port with up or down only, and pings the dependencies at most once a second for it", async () => {
    const before = dependencyPings;
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const res = await fetch(`${server.url}/readyz`);
        return JSON.stringify([res.status, await res.json()]);
      }),
    );
    expect(new Set(answers)).toEqual(new Set([JSON.stringify([200, { status: "ready" }])]));
    const seconds = Math.ceil((Date.now() - started) / 1000);
    expect(dependencyPings - before).toBeLessThanOrEqual(seconds + 1);
    expect(dependencyPings - before).toBeLessThan(answers.length / 10);
    // The probe on the metrics port checks afresh and names each check.
    const probe = await fetch(metrics.url.replace("/metrics", "/readyz"));
    expect(await probe.json()).toEqual({ status: "ready", service: "test", checks: { dependency: "ok" } });
    expect(dependencyPings - before).toBeLessThanOrEqual(seconds + 2);
  });

  it("answers the probes as their INTERNAL_ROUTES entries declare", async () => {
    for (const path of ["/healthz", "/readyz"]) {
      const res = await fetch(`${server.url}${path}`);
      const declared = INTERNAL_ROUTES.find((r) => r.path === path)!.responses;
      const response = (declared as Record<number, { schema: z.ZodType }>)[res.status];
      expect(response, `${path} ${res.status}`).toBeDefined();
      expect(answerProblem(response!.schema, await res.json()), path).toBeUndefined();
    }
  });

  it("answers /metrics on the public port with 404", async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/http_requests_total|process_/);
  });

  it("labels paths no route template knows as one 'unmatched' route, however many there are", async () => {
    await fetch(`${server.url}/proxied/${crypto.randomUUID()}`);
    const before = await seriesCount();
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${server.url}/proxied/${crypto.randomUUID()}`);
      expect(res.status).toBe(200);
    }
    expect(await seriesCount()).toBe(before);
    const text = await (await fetch(metrics.url)).text();
    expect(text).not.toMatch(/route="\/proxied/);
    expect(text).toMatch(/http_requests_total\{[^}]*route="unmatched"[^}]*status="200"[^}]*\} 21/);
  });
});
