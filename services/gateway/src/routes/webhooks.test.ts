import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningService } from "@lease/platform";
import { createTestDatabase, inboundParseForm, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";

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
    testEnv({ DATABASE_URL: db.url, LEADS_URL: url, SETTINGS_URL: url, TRACKING_URL: url, MAILER_URL: url }),
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
