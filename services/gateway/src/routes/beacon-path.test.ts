import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InternalTrackBatch, TRACK_BATCH_PATH, type InternalTrackHit } from "@lease/contracts";
import { INTERNAL_TOKEN_HEADER, createLogger, type RunningService } from "@lease/platform";
import { createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import { beaconPath } from "./beacon-path";
import { createUpstream } from "./proxy";
import { startGateway } from "../service";
import { createTrackBatcher } from "../domain/track-batcher";

// The gateway's beacon routes against a stand-in for tracking's ingest route that records each
// hit and answers like it (204 for a "/ok" page, 400 otherwise, or a refusal of the whole batch).
// What tracking does with a hit is tested in services/tracking; both together in tests/system.

const hits: InternalTrackHit[] = [];
let batchStatus = 200;
let tracking: http.Server;
let db: TestDatabase;
const gateways: RunningService[] = [];

async function gateway(overrides: Record<string, string> = {}): Promise<RunningService> {
  const url = `http://127.0.0.1:${(tracking.address() as AddressInfo).port}`;
  const gw = await startGateway(
    testEnv({
      DATABASE_URL: db.url,
      LEADS_URL: url,
      SETTINGS_URL: url,
      TRACKING_URL: url,
      MAILER_URL: url,
      WEB_DIST_DIR: "/nonexistent",
      ...overrides,
    }),
  );
  gateways.push(gw);
  return gw;
}

let gw: RunningService;
beforeAll(async () => {
  tracking = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url !== TRACK_BATCH_PATH || !req.headers[INTERNAL_TOKEN_HEADER]) {
        res.writeHead(404).end();
        return;
      }
      if (batchStatus !== 200) {
        res.writeHead(batchStatus).end();
        return;
      }
      const batch = InternalTrackBatch.parse(JSON.parse(body));
      hits.push(...batch.hits);
      const results = batch.hits.map((h) =>
        (JSON.parse(h.body) as { page?: string }).page === "/ok"
          ? { status: 204 }
          : {
              status: 400,
              error: { code: "validation_failed", message: "De invoer is ongeldig" },
              headers: { "X-Test": "1" },
            },
      );
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ results }));
    });
  });
  await new Promise<void>((r) => tracking.listen(0, "127.0.0.1", r));
  db = await createTestDatabase("gateway");
  gw = await gateway({ TRUSTED_PROXIES: "127.0.0.1" });
});

afterAll(async () => {
  for (const g of gateways) await g.stop();
  await new Promise((r) => tracking.close(r));
  await db?.drop();
});

const beacon = (
  base: string,
  kind: "visit" | "heartbeat",
  body: string,
  headers: Record<string, string> = {},
) =>
  fetch(`${base}/api/track/${kind}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

describe("visit beacons at the gateway", () => {
  it("answers a beacon with the service's answer and sends its body, address, user agent, cookie and request id", async () => {
    hits.length = 0;
    const body = JSON.stringify({ sessionId: "s", page: "/ok" });
    const res = await beacon(gw.url, "visit", body, {
      "user-agent": "Mozilla/5.0 test",
      cookie: "a=b",
      "x-forwarded-for": "145.53.1.1",
      "x-request-id": "req-beacon-1",
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(res.headers.get("x-request-id")).toBe("req-beacon-1");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(hits).toEqual([
      {
        kind: "visit",
        body,
        ip: "145.53.1.1",
        userAgent: "Mozilla/5.0 test",
        cookie: "a=b",
        requestId: "req-beacon-1",
      },
    ]);
    const beat = await beacon(gw.url, "heartbeat", JSON.stringify({ sessionId: "s", page: "/ok" }));
    expect(beat.status).toBe(204);
    expect(hits[1]).toMatchObject({ kind: "heartbeat" });
  });

  it("passes a hit's error through with its body and headers", async () => {
    const res = await beacon(gw.url, "visit", JSON.stringify({ page: "no-slash" }));
    expect(res.status).toBe(400);
    expect(res.headers.get("x-test")).toBe("1");
    expect(await res.json()).toEqual({ code: "validation_failed", message: "De invoer is ongeldig" });
  });

  it("believes X-Forwarded-For only from a trusted proxy", async () => {
    const untrusting = await gateway({ TRUSTED_PROXIES: "10.0.0.0/8" });
    hits.length = 0;
    expect(
      (
        await beacon(untrusting.url, "visit", JSON.stringify({ page: "/ok" }), {
          "x-forwarded-for": "145.53.1.1",
        })
      ).status,
    ).toBe(204);
    expect(hits.map((h) => h.ip)).toEqual(["127.0.0.1"]);
  });

  it("refuses what is not a JSON beacon before it reaches tracking: 415, 413, 403", async () => {
    hits.length = 0;
    const text = await fetch(`${gw.url}/api/track/visit`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ page: "/ok" }),
    });
    expect(text.status).toBe(415);
    const large = await beacon(gw.url, "visit", JSON.stringify({ page: "/ok", pad: "x".repeat(17_000) }));
    expect(large.status).toBe(413);
    expect(((await large.json()) as { message: string }).message).toContain("te groot");
    const crossSite = await beacon(gw.url, "visit", JSON.stringify({ page: "/ok" }), {
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect(hits).toEqual([]);
  });

  it("answers 503 with Retry-After while tracking is unavailable, 502 when it refuses the batch", async () => {
    try {
      batchStatus = 503;
      const unavailable = await beacon(gw.url, "visit", JSON.stringify({ page: "/ok" }));
      expect(unavailable.status).toBe(503);
      expect(unavailable.headers.get("retry-after")).toBe("5");
      expect(((await unavailable.json()) as { message: string }).message).not.toMatch(/tracking/);
      batchStatus = 403;
      expect((await beacon(gw.url, "visit", JSON.stringify({ page: "/ok" }))).status).toBe(502);
    } finally {
      batchStatus = 200;
    }
  });

  it("takes a beacon with a query string or a chunked body the same way", async () => {
    hits.length = 0;
    const withQuery = await fetch(`${gw.url}/api/track/visit?utm_source=x`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ page: "/ok" }),
    });
    expect(withQuery.status).toBe(204);
    const body = JSON.stringify({ page: "/ok", n: 2 });
    const chunked = await fetch(`${gw.url}/api/track/heartbeat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(body.slice(0, 5)));
          c.enqueue(new TextEncoder().encode(body.slice(5)));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(204);
    expect(hits.map((h) => [h.kind, h.body])).toEqual([
      ["visit", JSON.stringify({ page: "/ok" })],
      ["heartbeat", body],
    ]);
    const chunkedLarge = await fetch(`${gw.url}/api/track/visit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 20; i++) c.enqueue(new TextEncoder().encode("x".repeat(1024)));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit).catch(() => undefined);
    if (chunkedLarge) expect(chunkedLarge.status).toBe(413);
    expect(hits).toHaveLength(2);
  });

  it("counts beacons in the request metrics under their route", async () => {
    await beacon(gw.url, "visit", JSON.stringify({ page: "/ok" }));
    const metrics = await (await fetch(gw.metricsUrl)).text();
    expect(metrics).toMatch(
      /http_requests_total\{[^}]*route="\/api\/track\/visit"[^}]*status="204"[^}]*\} \d+/,
    );
  });

  it("answers the same as a contract route in Koa, for a request the fast path did not take", async () => {
    const upstream = createUpstream(
      "tracking",
      `http://127.0.0.1:${(tracking.address() as AddressInfo).port}`,
    );
    const logger = createLogger("test", "silent");
    const batcher = createTrackBatcher(upstream, {
      internalToken: "internal-token-0123456789-abcdefghijklmnop",
      timeoutMs: 2000,
      logger,
    });
    const { routes } = beaconPath({ batcher, trusted: () => false, httpsOnly: false, logger });
    const visitRoute = routes.routes.find((r) => r.path === "/api/track/visit")!;
    const server = http.createServer((req, res) => {
      // What Koa hands the handler: the request and response and the request's id.
      const ctx = { req, res, respond: true, state: { requestId: "koa-req-1" } };
      void (visitRoute.middleware.at(-1) as (c: unknown) => Promise<void>)(ctx);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      hits.length = 0;
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const ok = await beacon(url, "visit", JSON.stringify({ page: "/ok" }));
      expect(ok.status).toBe(204);
      expect(ok.headers.get("x-request-id")).toBe("koa-req-1");
      const bad = await beacon(url, "visit", JSON.stringify({ page: "nee" }));
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ code: "validation_failed", message: "De invoer is ongeldig" });
      expect(hits.map((h) => h.requestId)).toEqual(["koa-req-1", "koa-req-1"]);
    } finally {
      await new Promise((r) => server.close(r));
      await upstream.close();
    }
  });
});
