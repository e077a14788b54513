// A gateway in front of an echo upstream, for the tests of proxy.ts, ws-proxy.ts and the web app's
// serving (routes/proxy.test.ts, ws-proxy.test.ts, static.test.ts). The bindings are live: they
// hold the stack of whoever called useEchoStack(), from its beforeAll on.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { WebSocketServer } from "ws";
import { afterAll, beforeAll } from "vitest";
import type { RunningService } from "@lease/platform";
import { createTestDatabase, freePort, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";

// The upstream here is a plain HTTP + WebSocket echo server: it stands in for "a service" so the
// proxy itself (method, status, headers, body, request id, upgrade) can be observed exactly.
export let echo: http.Server;
export let echoUrl: string;
export const seen: { method?: string; url?: string; headers?: http.IncomingHttpHeaders; body?: string }[] =
  [];
export const wsSeen: http.IncomingHttpHeaders[] = [];
/** What a client may send but no service may ever receive from it (values the gateway sets are fine). */
export const OUTSIDER_HEADERS = {
  "x-internal-token": "internal-token-0123456789-abcdefghijklmnop",
  "x-forwarded-proto": "https",
  "x-forwarded-host": "intranet.example",
  "x-forwarded-port": "443",
  "x-real-ip": "10.0.0.1",
  forwarded: "for=10.0.0.1;proto=https",
};

export let db: TestDatabase;
export let gw: RunningService;
export let env: NodeJS.ProcessEnv;
export let redis: Redis;
export let dist: string;

/** Starts the echo upstream and a gateway before the calling file's (or describe's) tests; stops both after. */
export function useEchoStack(): void {
  beforeAll(async () => {
    seen.length = 0;
    wsSeen.length = 0;
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
}

/**
 * A POST as curl sends a large body: `Expect: 100-continue`, the body written only once the server
 * answered 100 Continue (node's 'continue' event). Says whether it came, and the final answer.
 */
export function sendAfterContinue(
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
