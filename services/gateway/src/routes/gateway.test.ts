import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { WebSocket, WebSocketServer } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueSession, keyspace, type RunningService } from "@lease/platform";
import { createTestDatabase, freePort, testAdmin, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";

// The upstream here is a plain HTTP + WebSocket echo server: it stands in for "a service" so the
// proxy itself (method, status, headers, body, request id, upgrade) can be observed exactly.
let echo: http.Server;
let echoUrl: string;
const seen: { method?: string; url?: string; headers?: http.IncomingHttpHeaders; body?: string }[] = [];
const wsSeen: http.IncomingHttpHeaders[] = [];
/** What a client may send but no service may ever receive from it (values the gateway sets are fine). */
const OUTSIDER_HEADERS = {
  "x-internal-token": "internal-token-0123456789-abcdefghijklmnop",
  "x-forwarded-proto": "https",
  "x-forwarded-host": "intranet.example",
  "x-forwarded-port": "443",
  "x-real-ip": "10.0.0.1",
  forwarded: "for=10.0.0.1;proto=https",
};

let db: TestDatabase;
let gw: RunningService;
let env: NodeJS.ProcessEnv;
let redis: Redis;
let dist: string;

beforeAll(async () => {
  echo = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(req.url?.includes("teapot") ? 418 : 201, {
        "content-type": "application/json",
        "x-upstream": "yes",
      });
      res.end(JSON.stringify({ method: req.method, url: req.url, body }));
    });
  });
  const wss = new WebSocketServer({ server: echo });
  wss.on("connection", (socket, req) => {
    wsSeen.push(req.headers);
    socket.send(JSON.stringify({ hello: req.headers["x-forwarded-for"] }));
    socket.on("message", (m) => socket.send(`echo:${m.toString()}`));
  });
  await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;

  dist = mkdtempSync(path.join(tmpdir(), "dist-"));
  mkdirSync(path.join(dist, "assets"));
  mkdirSync(path.join(dist, "financiele-lease"));
  writeFileSync(path.join(dist, "index.html"), "<html>home</html>");
  writeFileSync(path.join(dist, "app.html"), "<html>app shell</html>");
  writeFileSync(path.join(dist, "404.html"), "<html>404 Page Not Found</html>");
  writeFileSync(path.join(dist, "financiele-lease", "index.html"), "<html>financiele lease</html>");
  writeFileSync(
    path.join(dist, "assets", "app-abc123.js"),
    `console.log(${JSON.stringify("x".repeat(2000))});`,
  );

  db = await createTestDatabase("gateway");
  const dead = `http://127.0.0.1:${await freePort()}`;
  env = testEnv({
    DATABASE_URL: db.url,
    LEADS_URL: echoUrl,
    SETTINGS_URL: `${dead},${echoUrl}`, // two replicas, one of them down
    TRACKING_URL: echoUrl,
    MAILER_URL: dead,
    WEB_DIST_DIR: dist,
  });
  gw = await startGateway(env);
  redis = new Redis(env.REDIS_URL!);
});

afterAll(async () => {
  await gw.stop();
  redis.disconnect();
  await new Promise((r) => echo.close(r));
  await db.drop();
});

/**
 * A POST as curl sends a large body: `Expect: 100-continue`, the body written only once the server
 * answered 100 Continue (node's 'continue' event). Says whether it came, and the final answer.
 */
function sendAfterContinue(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ continued: boolean; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = http.request(url, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        expect: "100-continue",
      },
    });
    req.on("continue", () => {
      continued = true;
      req.end(body);
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ continued, status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.flushHeaders();
  });
}

describe("gateway routing", () => {
  it("forwards method, path, query, headers, body and request id, and returns status, headers and body", async () => {
    const res = await fetch(`${gw.url}/api/lease-requests?x=1`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-request-id": "req-42",
        "x-custom": "kept",
        origin: gw.url,
      },
      body: JSON.stringify({ a: 1 }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-upstream")).toBe("yes");
    expect(res.headers.get("x-request-id")).toBe("req-42");
    expect((await res.json()) as any).toEqual({
      method: "POST",
      url: "/api/lease-requests?x=1",
      body: '{"a":1}',
    });
    const last = seen.at(-1)!;
    expect(last.headers?.["x-request-id"]).toBe("req-42");
    expect(last.headers?.["x-custom"]).toBe("kept");
    expect(last.headers?.["x-forwarded-for"]).toBe("127.0.0.1");
  });

  it("drops every internal header a client sends and sets the forwarding headers itself", async () => {
    const res = await fetch(`${gw.url}/api/lease-requests`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: gw.url,
        "x-forwarded-for": "10.9.9.9",
        ...OUTSIDER_HEADERS,
      },
      body: "{}",
    });
    expect(res.status).toBe(201);
    const received = seen.at(-1)!.headers!;
    expect(received["x-internal-token"]).toBeUndefined();
    expect(received["x-real-ip"]).toBeUndefined();
    expect(received.forwarded).toBeUndefined();
    expect(received["x-forwarded-port"]).toBeUndefined();
    // The gateway's own values, not the client's.
    expect(received["x-forwarded-for"]).toBe("127.0.0.1");
    expect(received["x-forwarded-proto"]).toBe("http");
    expect(received["x-forwarded-host"]).toBe(new URL(gw.url).host);
  });

  it("proxies a body sent after 'Expect: 100-continue' (as curl sends an upload over 1 MB), on a service's route and its own", async () => {
    const { token } = await issueSession(
      { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! },
      testAdmin("admin"),
    );
    const csv = JSON.stringify({ platform: "meta", csv: `${"x".repeat(1_500_000)}` });
    const before = seen.length;
    const upload = await sendAfterContinue(`${gw.url}/api/admin/ad-spend/import`, csv, {
      cookie: `admin_session=${token}`,
      origin: gw.url,
    });
    expect(upload.continued).toBe(true);
    expect(upload.status).toBe(201);
    expect(seen.length).toBe(before + 1);
    expect(seen.at(-1)!.body).toBe(csv);
    expect(seen.at(-1)!.headers!.expect).toBeUndefined();
    // The gateway's own route reads the body after the same handshake.
    const login = await sendAfterContinue(
      `${gw.url}/api/admin/login`,
      JSON.stringify({ username: "nobody", password: "not the password" }),
      { origin: gw.url },
    );
    expect(login.continued).toBe(true);
    expect(login.status).toBe(401);
    expect(JSON.parse(login.body)).toMatchObject({ code: "invalid_credentials" });
  });

  it("passes an upstream's status through unchanged", async () => {
    const res = await fetch(`${gw.url}/api/company-settings?teapot`);
    expect(res.status).toBe(418);
  });

  it("answers an unknown /api path with a JSON 404, not the web app", async () => {
    const res = await fetch(`${gw.url}/api/does-not-exist`);
    expect(res.status).toBe(404);
    expect((await res.json()) as any).toMatchObject({ code: "not_found" });
  });

  it("answers quickly with 503 and Retry-After when a service is unreachable", async () => {
    const { token } = await issueSession(
      { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! },
      testAdmin("admin"),
    );
    const started = Date.now();
    const res = await fetch(`${gw.url}/api/admin/emails`, { headers: { cookie: `admin_session=${token}` } });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBeTruthy();
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe("service_unavailable");
    // Dutch, and no internal service name for visitors and staff to puzzle over.
    expect(body.message).toBe(
      "Dit onderdeel is tijdelijk niet bereikbaar. Probeer het over een paar seconden opnieuw.",
    );
    expect(body.message).not.toMatch(/mailer|leads|settings|tracking/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("balances over a service's replicas and skips one that refuses connections", async () => {
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${gw.url}/api/theme-settings`);
      expect(res.status).toBe(201);
      await res.text();
    }
  });

  it("refuses an admin route without a session before it reaches the service", async () => {
    const before = seen.length;
    const res = await fetch(`${gw.url}/api/admin/company-settings`);
    expect(res.status).toBe(401);
    expect(seen.length).toBe(before);
  });

  it("serves the OpenAPI document generated from the contracts", async () => {
    const doc = (await (await fetch(`${gw.url}/api/openapi.json`)).json()) as any as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toContain("/api/lease-requests");
  });
});

describe("gateway web app serving", () => {
  it("serves pre-rendered pages uncached and hashed assets immutable and compressed", async () => {
    const page = await fetch(`${gw.url}/financiele-lease`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(await page.text()).toContain("financiele lease");
    const asset = await fetch(`${gw.url}/assets/app-abc123.js`, { headers: { "accept-encoding": "gzip" } });
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect(asset.headers.get("content-encoding")).toBe("gzip");
    expect(await asset.text()).toContain("console.log");
  });

  it("gives client routes the app shell and unknown paths the 404 page with status 404", async () => {
    const admin = await fetch(`${gw.url}/admin`);
    expect(admin.status).toBe(200);
    expect(await admin.text()).toContain("app shell");
    const missing = await fetch(`${gw.url}/bestaat-niet`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("404 Page Not Found");
    const traversal = await fetch(`${gw.url}/assets/..%2f..%2fetc/passwd`);
    expect(traversal.status).toBe(404);
  });

  it("sets the security headers on every kind of answer", async () => {
    for (const p of ["/", "/api/does-not-exist", "/healthz"]) {
      const res = await fetch(`${gw.url}${p}`);
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });
});

describe("gateway WebSocket tunnel", () => {
  const open = (headers: Record<string, string>) =>
    new Promise<{ ws?: WebSocket; status?: number; first?: string }>((resolve) => {
      const ws = new WebSocket(`${gw.url.replace("http", "ws")}/ws`, { headers });
      ws.once("message", (m) => resolve({ ws, first: m.toString() }));
      ws.once("unexpected-response", (_req, res) => resolve({ status: res.statusCode }));
      ws.once("error", () => resolve({}));
    });

  it("proxies an admin's upgrade to tracking, both ways", async () => {
    const { token } = await issueSession(
      { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! },
      testAdmin("admin"),
    );
    const host = new URL(gw.url).host;
    const { ws, first } = await open({
      cookie: `admin_session=${token}`,
      origin: `http://${host}`,
      "x-forwarded-for": "10.9.9.9",
      "x-request-id": "ws-7",
      ...OUTSIDER_HEADERS,
    });
    expect(JSON.parse(first!)).toEqual({ hello: "127.0.0.1" });
    const upgrade = wsSeen.at(-1)!;
    for (const name of [
      "x-internal-token",
      "x-forwarded-proto",
      "x-forwarded-host",
      "x-real-ip",
      "forwarded",
    ])
      expect(upgrade[name], name).toBeUndefined();
    expect(upgrade["x-request-id"]).toBe("ws-7");
    const reply = new Promise<string>((r) => ws!.once("message", (m) => r(m.toString())));
    ws!.send("ping-1");
    expect(await reply).toBe("echo:ping-1");
    ws!.close();
  });

  it("refuses an upgrade without a session (401) or from another origin (403)", async () => {
    const host = new URL(gw.url).host;
    expect((await open({ origin: `http://${host}` })).status).toBe(401);
    const { token } = await issueSession(
      { redis, keys: keyspace(env.REDIS_PREFIX!), jwtSecret: env.JWT_SECRET! },
      testAdmin("admin"),
    );
    expect((await open({ cookie: `admin_session=${token}`, origin: "https://evil.example" })).status).toBe(
      403,
    );
  });
});
