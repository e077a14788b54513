import http from "node:http";
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningService } from "@lease/platform";
import { createTestDatabase, freePort, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "@lease/gateway";
import { startTracking } from "@lease/tracking";

// Visit beacons cross the gateway in batches (one call to tracking for all that arrive together).
// Seen from outside nothing changes: every visitor gets the answer of its own hit, and exactly the
// valid, human visits are counted.

const BROWSER = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

let db: TestDatabase;
let env: NodeJS.ProcessEnv;
let tracking: RunningService;
let gateway: RunningService;
let sql: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase("beacons");
  const dead = `http://127.0.0.1:${await freePort()}`;
  const trackingPort = await freePort();
  env = testEnv({
    DATABASE_URL: db.url,
    FLUSH_INTERVAL_MS: "100",
    LEADS_URL: dead,
    SETTINGS_URL: dead,
    MAILER_URL: dead,
    TRACKING_URL: `http://127.0.0.1:${trackingPort}`,
  });
  tracking = await startTracking({ ...env, PORT: String(trackingPort) });
  gateway = await startGateway(env);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await gateway?.stop();
  await tracking?.stop();
  await db?.drop();
});

let n = 0;
const visit = (base: string, body: unknown, userAgent = BROWSER) =>
  fetch(`${base}/api/track/visit`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, "user-agent": userAgent },
    body: JSON.stringify(body),
  });
/** Session ids handed out per tag, to find their page views (stored by the key of the id). */
const sessionsByTag = new Map<string, string[]>();
const session = (tag: string) => {
  const id = `session-${tag}${++n}-${Date.now()}`;
  sessionsByTag.set(tag, [...(sessionsByTag.get(tag) ?? []), id]);
  return id;
};

async function persisted(tag: string, expected: number, waitMs = 10_000): Promise<number> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM tracking.page_views
       WHERE session_key IN (SELECT tracking.key64(s) FROM unnest($1::text[]) AS s)`,
      [sessionsByTag.get(tag) ?? []],
    );
    if (rows[0]!.n >= expected || Date.now() > deadline) return rows[0]!.n;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Beacons that reach the gateway at the same moment: every connection is open first, then all
 * requests are written in one go (as a campaign burst looks to the gateway).
 */
async function burst(
  base: string,
  hits: { body: string; userAgent: string }[],
): Promise<{ status: number; body: string }[]> {
  const port = Number(new URL(base).port);
  const sockets = await Promise.all(
    hits.map(
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const s = net.connect(port, "127.0.0.1", () => resolve(s));
          s.once("error", reject);
        }),
    ),
  );
  const answers = sockets.map(
    (s) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        let text = "";
        s.setEncoding("utf8");
        s.on("data", (d: string) => (text += d));
        s.once("error", reject);
        s.once("end", () =>
          resolve({
            status: Number(text.split(" ")[1]),
            body: text.slice(text.indexOf("\r\n\r\n") + 4),
          }),
        );
      }),
  );
  sockets.forEach((s, i) => {
    const { body, userAgent } = hits[i]!;
    s.write(
      `POST /api/track/visit HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${base}\r\n` +
        `Content-Type: application/json\r\nUser-Agent: ${userAgent}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return Promise.all(answers);
}

describe("visit beacons through the gateway", () => {
  it("under a burst, each visitor gets the answer of its own hit and only real visits count", async () => {
    const kinds = Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? "bad" : i % 10 === 1 ? "bot" : "ok"));
    const answers = await burst(
      gateway.url,
      kinds.map((kind) => ({
        body: JSON.stringify({
          sessionId: session("burst"),
          page: kind === "bad" ? "zonder-slash" : "/zakelijke-lease",
        }),
        userAgent: kind === "bot" ? GOOGLEBOT : BROWSER,
      })),
    );
    answers.forEach((a, i) => {
      if (kinds[i] === "bad") {
        expect(a.status).toBe(400);
        expect(JSON.parse(a.body)).toMatchObject({ code: "validation_failed", fields: [{ path: "page" }] });
      } else {
        expect(a.status, a.body).toBe(204);
        expect(a.body).toBe("");
      }
    });
    const valid = kinds.filter((k) => k === "ok").length;
    expect(await persisted("burst", valid)).toBe(valid);
  });

  it("answers a lone beacon at once, with the security headers of any gateway answer", async () => {
    const res = await visit(gateway.url, { sessionId: session("lone"), page: "/" });
    expect(res.status).toBe(204);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await persisted("lone", 1)).toBe(1);
  });

  it("answers a beacon the same with or without a query string, each through a batch", async () => {
    const send = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${gateway.url}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: gateway.url,
          "user-agent": BROWSER,
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const shape = async (res: Response) => ({
      status: res.status,
      headers: [...res.headers.entries()]
        .filter(
          ([name]) => !["date", "x-request-id", "content-length", "keep-alive", "connection"].includes(name),
        )
        .sort(),
      body: await res.text(),
    });
    const batches = async () =>
      Number(
        /gateway_beacon_batch_hits_count(?:\{[^}]*\})? (\d+)/.exec(
          await (await fetch(gateway.metricsUrl)).text(),
        )?.[1] ?? 0,
      );
    const b0 = await batches();
    const plain = await shape(await send("/api/track/visit", { sessionId: session("same"), page: "/" }));
    const b1 = await batches();
    const query = await shape(
      await send("/api/track/visit?via=query", { sessionId: session("same"), page: "/" }),
    );
    const b2 = await batches();
    expect([b1 - b0, b2 - b1]).toEqual([1, 1]); // one path: both went in a batch
    expect(plain).toEqual(query);
    expect(plain.status).toBe(204);
    const bad = { sessionId: "nee", page: "/" };
    const plainBad = await shape(await send("/api/track/visit", bad));
    expect(plainBad).toEqual(await shape(await send("/api/track/visit?via=query", bad)));
    expect(plainBad.status).toBe(400);
    expect(JSON.parse(plainBad.body)).toMatchObject({ code: "validation_failed" });

    // The caller's request id comes back; a cross-site beacon is refused exactly as before.
    const withId = await send(
      "/api/track/heartbeat",
      { sessionId: session("id") },
      { "x-request-id": "beacon-42" },
    );
    expect(withId.status).toBe(204);
    expect(withId.headers.get("x-request-id")).toBe("beacon-42");
    const crossSite = await send(
      "/api/track/visit",
      { sessionId: session("x"), page: "/" },
      { origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { code: string }).code).toBe("forbidden");

    // Counted in the gateway's request metrics like any other request.
    const metrics = await (await fetch(gateway.metricsUrl)).text();
    expect(metrics).toMatch(
      /http_requests_total\{[^}]*route="\/api\/track\/visit"[^}]*status="204"[^}]*\} [1-9]/,
    );
  });

  it("answers 502 without recording when tracking refuses the batch (e.g. a token mismatch mid-rollout)", async () => {
    const other = await startGateway({ ...env, INTERNAL_TOKEN: "another-internal-token-0123456789-abcdef" });
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => visit(other.url, { sessionId: session("refused"), page: "/" })),
      );
      expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 502));
      const body = (await answers[0]!.json()) as { code: string; message: string };
      expect(body.code).toBe("bad_gateway");
      expect(body.message).not.toMatch(/tracking|token/i);
      // Nothing reached tracking: after a flush interval and more, not one page view.
      expect(await persisted("refused", 1, 1500)).toBe(0);
    } finally {
      await other.stop();
    }
  });

  it("finishes a beacon in flight when the gateway is stopped (graceful shutdown)", async () => {
    // A tracking stand-in that takes 500 ms to answer a batch.
    const slow = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const { hits } = JSON.parse(body) as { hits: unknown[] };
        setTimeout(() => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ results: hits.map(() => ({ status: 204 })) }));
        }, 500);
      });
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    const other = await startGateway({
      ...env,
      TRACKING_URL: `http://127.0.0.1:${(slow.address() as net.AddressInfo).port}`,
    });
    try {
      const pending = visit(other.url, { sessionId: session("drain"), page: "/" });
      await new Promise((r) => setTimeout(r, 150));
      const stopped = other.stop();
      expect((await pending).status).toBe(204);
      await stopped;
    } finally {
      await other.stop();
      await new Promise((r) => slow.close(r));
    }
  });

  it("answers 503 with Retry-After when the tracking service is unreachable", async () => {
    const other = await startGateway({ ...env, TRACKING_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      const res = await visit(other.url, { sessionId: session("down"), page: "/" });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBeTruthy();
      expect(((await res.json()) as { code: string }).code).toBe("service_unavailable");
    } finally {
      await other.stop();
    }
  });

  it("refuses what is no beacon before it is batched: not JSON (415), oversized (413)", async () => {
    const notJson = await fetch(`${gateway.url}/api/track/visit`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: gateway.url, "user-agent": BROWSER },
      body: "hallo",
    });
    expect(notJson.status).toBe(415);
    const big = await visit(gateway.url, {
      sessionId: session("big"),
      page: "/",
      referrer: "x".repeat(17 * 1024),
    });
    expect(big.status).toBe(413);
  });
});
