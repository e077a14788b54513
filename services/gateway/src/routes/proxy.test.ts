// The gateway's proxy (proxy.ts): every /api path to the service its route names, with the
// headers a service may trust and none a client made up, 503 for a service that cannot be reached.
// Last, SendGrid's Inbound Parse posts, which pass far over the JSON limit, on a stack of their own.
import { issueSession, keyspace, type RunningService } from "@lease/platform";
import {
  testAdmin,
  createTestDatabase,
  inboundParseForm,
  testEnv,
  type TestDatabase,
} from "@lease/platform/testing";
import { describe, expect, it, afterAll, beforeAll } from "vitest";
import {
  seen,
  gw,
  env,
  redis,
  sendAfterContinue,
  OUTSIDER_HEADERS,
  useEchoStack,
} from "../testing/echo-stack";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startGateway } from "../service";

useEchoStack();

describe("/api/* → the route's service", () => {
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
      const res = await fetch(`${gw.url}/api/admin/emails`, {
        headers: { cookie: `admin_session=${token}` },
      });
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
});

describe("POST /api/inbound/sendgrid/{secret}", () => {
  // SendGrid's webhooks come from SendGrid's servers: no Origin, a form (Inbound Parse) or a signed
  // JSON batch whose signature covers the exact bytes. The gateway lets them past its cross-site
  // check and streams the body to the mailer (here a stand-in that records the bytes it got).

  let upstream: http.Server;
  const seen: { url?: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  let db: TestDatabase;
  let gw: RunningService;

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      // A wrong secret is answered before the body is read, as the mailer does (Node discards the rest).
      if (req.url?.endsWith("/wrong")) {
        res.writeHead(404, { "content-type": "application/json" });
        return res.end(JSON.stringify({ code: "not_found", message: "Dit adres bestaat niet." }));
      }
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "00000000-0000-4000-8000-000000000000", status: "stored" }));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    db = await createTestDatabase("gwhooks");
    gw = await startGateway(
      testEnv({
        DATABASE_URL: db.url,
        LEADS_URL: url,
        SETTINGS_URL: url,
        TRACKING_URL: url,
        MAILER_URL: url,
      }),
    );
  });
  afterAll(async () => {
    await gw?.stop();
    await new Promise<void>((r) => upstream.close(() => r()));
    await db?.drop();
  });

  const SECRET = "q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c";

  describe("SendGrid's Inbound Parse through the gateway", () => {
    it("reaches the mailer byte for byte: a 3 MB form without an Origin, far over the JSON limit", async () => {
      const { body, contentType } = inboundParseForm({
        from: "jan@klant.nl",
        to: "antwoord@reply.example.nl",
        subject: "Met bijlage",
        attachments: [
          { filename: "scan.pdf", type: "application/pdf", content: Buffer.alloc(3 * 1024 * 1024, 9) },
        ],
      });
      const res = await fetch(`${gw.url}/api/inbound/sendgrid/${SECRET}`, {
        method: "POST",
        headers: { "content-type": contentType },
        body,
      });
      expect(res.status).toBe(200);
      const got = seen.at(-1)!;
      expect(got.url).toBe(`/api/inbound/sendgrid/${SECRET}`);
      expect(got.headers["content-type"]).toBe(contentType);
      expect(Buffer.compare(got.body, body)).toBe(0);
    });

    it("passes the mailer's early refusal of a wrong secret back, whatever the body still held", async () => {
      const { body, contentType } = inboundParseForm({
        from: "jan@klant.nl",
        to: "antwoord@reply.example.nl",
        subject: "x",
        attachments: [
          { filename: "a.bin", type: "application/octet-stream", content: Buffer.alloc(4 * 1024 * 1024) },
        ],
      });
      const before = seen.length;
      const res = await fetch(`${gw.url}/api/inbound/sendgrid/wrong`, {
        method: "POST",
        headers: { "content-type": contentType },
        body,
      });
      expect(res.status).toBe(404);
      expect(seen.length).toBe(before);
    });

    it("refuses a declared body over SendGrid's 30 MB (and the form around it) before forwarding a byte", async () => {
      const before = seen.length;
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${gw.url}/api/inbound/sendgrid/${SECRET}`, {
          method: "POST",
          headers: {
            "content-type": "multipart/form-data; boundary=xYzZY",
            "content-length": 33 * 1024 * 1024,
          },
        });
        req.on("response", (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
          req.destroy();
        });
        req.on("error", reject);
        req.write("--xYzZY\r\n");
      });
      expect(status).toBe(413);
      expect(seen.length).toBe(before);
    });

    it("keeps the cross-site check on every other public route (a form is no JSON: 415)", async () => {
      const res = await fetch(`${gw.url}/api/lease-requests`, {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=xYzZY" },
        body: "--xYzZY--\r\n",
      });
      expect(res.status).toBe(415);
    });
  });
});
