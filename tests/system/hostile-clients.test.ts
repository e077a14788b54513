import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFullStack, type FullStack } from "./stack";

// Clients that misbehave on the wire: slow headers and huge bodies must not hurt anyone else.

let stack: FullStack;
let host: string;
let port: number;
beforeAll(async () => {
  stack = await startFullStack({ HEADERS_TIMEOUT_MS: "1000" });
  const u = new URL(stack.gateway.url);
  host = u.hostname;
  port = Number(u.port);
}, 60_000);
afterAll(() => stack?.stop());

const connect = () =>
  new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect(port, host, () => resolve(s));
    s.once("error", reject);
  });

describe("hostile clients", () => {
  it("cuts off clients that send headers slowly, and stays responsive meanwhile", async () => {
    const started = Date.now();
    const sockets = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const s = await connect();
        s.write("GET / HTTP/1.1\r\n");
        return s;
      }),
    );
    // The server answers 408/400 and closes: whichever the client notices first ends its wait.
    const closed = sockets.map(
      (s) =>
        new Promise<number>((resolve) => {
          const done = () => resolve(Date.now());
          s.once("data", done).once("end", done).once("close", done).on("error", done);
        }),
    );
    let drip = 0;
    const timer = setInterval(() => {
      for (const s of sockets) if (!s.destroyed) s.write(`X-Slow-${drip}: 1\r\n`);
      drip++;
    }, 200);
    try {
      for (let i = 0; i < 5; i++) {
        const t0 = Date.now();
        const res = await fetch(`${stack.gateway.url}/healthz`);
        expect(res.status).toBe(200);
        expect(Date.now() - t0).toBeLessThan(500);
      }
      const times = await Promise.all(closed);
      // Node checks the headers timeout on an interval, so allow some slack over the 1 s limit.
      for (const t of times) expect(t - started).toBeLessThan(5000);
    } finally {
      clearInterval(timer);
      for (const s of sockets) s.destroy();
    }
  });

  it("answers a declared 10 MB body with 413 without reading it", async () => {
    const socket = await connect();
    const head = [
      "POST /api/lease-requests HTTP/1.1",
      `Host: ${host}:${port}`,
      "Content-Type: application/json",
      `Content-Length: ${10 * 1024 * 1024}`,
      "",
      "",
    ].join("\r\n");
    const answer = new Promise<string>((resolve) => {
      let data = "";
      socket.on("data", (d) => {
        data += d.toString();
        if (data.includes("\r\n\r\n")) resolve(data);
      });
    });
    socket.write(head);
    socket.write("{");
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    socket.destroy();
  });

  it("answers a chunked body that passes the limit with 413 and keeps serving", async () => {
    const res = await fetch(`${stack.gateway.url}/api/lease-requests`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
          for (let i = 0; i < 160; i++) controller.enqueue(chunk);
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await fetch(`${stack.gateway.url}/healthz`)).status).toBe(200);
  });
});
