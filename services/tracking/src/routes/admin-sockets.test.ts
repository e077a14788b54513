// The admin socket (admin-sockets.ts) at /ws: the live visitor feed, its sessions and limits, and
// the mail outcomes relayed on it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { Redis } from "ioredis";
import { VisitorUpdateMessage, CHANNELS, ServerWsMessage, type MailOutcomeMessage } from "@lease/contracts";
import {
  createLogger,
  endAllSessions,
  issueSession,
  keyspace,
  revokeSession,
  sessionTokenFromCookieHeader,
  verifySession,
} from "@lease/platform";
import { testAdmin, waitFor } from "@lease/platform/testing";
import { ManualClock, startHarness, sessionId, type Harness } from "../testing";
import { randomUUID } from "node:crypto";

let a: Harness;
let b: Harness;
beforeAll(async () => {
  a = await startHarness({ WS_SESSION_RECHECK_MS: "200" });
  // A second replica: same Redis prefix and database, its own HTTP server and sockets.
  b = await startHarness({}, a.clock, { env: a.env, db: a.db });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

interface Client {
  ws: WebSocket;
  messages: VisitorUpdateMessage[];
  next(predicate: (m: VisitorUpdateMessage) => boolean, ms?: number): Promise<VisitorUpdateMessage>;
  closed: Promise<number>;
}

function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const host = new URL(url).host;
  const ws = new WebSocket(`${url.replace("http", "ws")}/ws`, {
    headers: { origin: `http://${host}`, ...headers },
  });
  const messages: VisitorUpdateMessage[] = [];
  const waiters: Array<() => void> = [];
  ws.on("message", (raw) => {
    messages.push(VisitorUpdateMessage.parse(JSON.parse(String(raw))));
    waiters.splice(0).forEach((w) => w());
  });
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  const client: Client = {
    ws,
    messages,
    closed,
    next(predicate, ms = 2000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no matching visitor-update in time")), ms);
        const check = () => {
          const found = messages.find(predicate);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(check);
        };
        check();
      });
    },
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(client));
    ws.once("unexpected-response", (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once("error", reject);
  });
}

describe("/ws live visitor feed", () => {
  it("sends the current state right after connecting and an update within 2 s of a visit", async () => {
    const client = await connect(a.svc.url, { cookie: await a.adminCookie() });
    try {
      const first = await client.next(() => true);
      expect(first.type).toBe("visitor-update");
      const id = sessionId();
      const sent = Date.now();
      await a.visit({ sessionId: id, page: "/operationele-lease" }, { "x-forwarded-for": "145.53.1.1" });
      const update = await client.next((m) => m.data.activeVisitors.some((v) => v.id === id), 2000);
      expect(Date.now() - sent).toBeLessThan(2000);
      expect(update.data.activeVisitors.find((v) => v.id === id)).toMatchObject({
        page: "/operationele-lease",
        city: "Weert",
        country: "NL",
      });
      // The day's top pages come from the rollups: pushed again once the writer has stored the visit.
      const counted = await client.next(
        (m) => m.data.stats.topPages.some((p) => p.page === "/operationele-lease" && p.views === 1),
        2000,
      );
      expect(Date.now() - sent).toBeLessThan(2000);
      expect(counted.data.stats.todayTotal).toBeGreaterThanOrEqual(1);
      // The dashboards see the open socket and how long the push took.
      const metrics = await (await fetch(a.svc.metricsUrl)).text();
      expect(metrics).toMatch(/^tracking_admin_sockets(\{[^}]*\})? 1$/m);
      const pushes = /^tracking_ws_fanout_seconds_count(?:\{[^}]*\})? (\d+)/m.exec(metrics)?.[1];
      expect(Number(pushes)).toBeGreaterThanOrEqual(1);
      expect(metrics).toMatch(/^tracking_ws_fanout_seconds_bucket\{le="2.5"[^}]*\} [1-9]/m);
    } finally {
      client.ws.close();
    }
  });

  it("feeds the sockets of both replicas from one visit", async () => {
    const onA = await connect(a.svc.url, { cookie: await a.adminCookie() });
    const onB = await connect(b.svc.url, { cookie: await b.adminCookie() });
    try {
      await Promise.all([onA.next(() => true), onB.next(() => true)]);
      const id = sessionId();
      await a.visit({ sessionId: id, page: "/over-ons" });
      const seen = (m: VisitorUpdateMessage) => m.data.activeVisitors.some((v) => v.id === id);
      await Promise.all([onA.next(seen), onB.next(seen)]);
      expect(b.svc.sockets()).toBe(1);
    } finally {
      onA.ws.close();
      onB.ws.close();
    }
  });

  it("coalesces a burst: few publishes per replica, at most one message per second per socket", async () => {
    const client = await connect(a.svc.url, { cookie: await a.adminCookie() });
    const listener = new Redis(a.env.REDIS_URL!);
    let published = 0;
    listener.on("message", () => published++);
    await listener.subscribe(`${a.env.REDIS_PREFIX}:events:visitor-update`);
    try {
      await client.next(() => true);
      const start = client.messages.length;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 60 }, () => a.visit({ sessionId: sessionId(), page: "/voorwaarden" })),
      );
      // The day's counts come with the push after the writer's flush: soon, not at once.
      await client.next(
        (m) => m.data.stats.topPages.some((p) => p.page === "/voorwaarden" && p.views === 60),
        6000,
      );
      await new Promise((r) => setTimeout(r, 1000));
      const elapsed = Date.now() - started;
      const received = client.messages.length - start;
      expect(received).toBeGreaterThanOrEqual(1);
      expect(received).toBeLessThanOrEqual(Math.ceil(elapsed / 1000) + 1);
      // PUBLISH_MIN_INTERVAL_MS is 250: one on the leading edge plus at most one per 250 ms, from
      // the hits and from the writer's flushes after them alike.
      expect(published).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 1);
      expect(published).toBeLessThan(60 / 4);
      expect(client.messages.at(-1)!.data.stats.topPages).toContainEqual({ page: "/voorwaarden", views: 60 });
    } finally {
      client.ws.close();
      listener.disconnect();
    }
  });

  it("refuses an upgrade without a valid session or from another origin", async () => {
    await expect(connect(a.svc.url, {})).rejects.toThrow("refused 401");
    await expect(connect(a.svc.url, { cookie: "admin_session=forged.token.value" })).rejects.toThrow(
      "refused 401",
    );
    await expect(
      connect(a.svc.url, { cookie: await a.adminCookie(), origin: "https://evil.example" }),
    ).rejects.toThrow("refused 403");
    const noOrigin = new WebSocket(`${a.svc.url.replace("http", "ws")}/ws`, {
      headers: { cookie: await a.adminCookie() },
    });
    const status = await new Promise<number>((resolve) =>
      noOrigin.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(403);
  });

  it("closes a socket once its session is revoked", async () => {
    const cookie = await a.adminCookie();
    const client = await connect(a.svc.url, { cookie });
    await client.next(() => true);
    const redis = new Redis(a.env.REDIS_URL!);
    try {
      const deps = { redis, keys: keyspace(a.env.REDIS_PREFIX!), jwtSecret: a.env.JWT_SECRET! };
      const claims = await verifySession(deps, sessionTokenFromCookieHeader(cookie));
      await revokeSession(deps, claims!.jti);
    } finally {
      redis.disconnect();
    }
    const code = await Promise.race([
      client.closed,
      new Promise<number>((r) => setTimeout(() => r(-1), 2000)),
    ]);
    expect(code).toBe(4401);
  });

  it("closes every socket of an admin at once when all its sessions end, and no one else's", async () => {
    // A periodic re-check far away: only the announcement can close the sockets in time.
    const c = await startHarness({}, a.clock, {
      env: { ...a.env, WS_SESSION_RECHECK_MS: "60000" },
      db: a.db,
    });
    const redis = new Redis(a.env.REDIS_URL!);
    try {
      const deps = { redis, keys: keyspace(a.env.REDIS_PREFIX!), jwtSecret: a.env.JWT_SECRET! };
      const colleague = `admin_session=${(await issueSession(deps, testAdmin("collega"))).token}`;
      const own = await Promise.all([c.adminCookie(), c.adminCookie()]);
      const clients = await Promise.all([...own, colleague].map((cookie) => connect(c.svc.url, { cookie })));
      await Promise.all(clients.map((client) => client.next(() => true)));
      const started = Date.now();
      await endAllSessions(deps, "admin", createLogger("test", "silent"));
      expect(await Promise.all([clients[0]!.closed, clients[1]!.closed])).toEqual([4401, 4401]);
      expect(Date.now() - started).toBeLessThan(1000);
      // The colleague's socket stays open.
      expect(clients[2]!.ws.readyState).toBe(WebSocket.OPEN);
      clients[2]!.ws.close();
    } finally {
      redis.disconnect();
      await c.svc.stop();
    }
  });

  it("drops a socket that stops answering pings, and one that sends more than 1 KB", async () => {
    const c = await startHarness({}, a.clock, {
      env: { ...a.env, WS_PING_INTERVAL_MS: "100", FEED_REFRESH_MS: "100" },
      db: a.db,
    });
    try {
      const dead = await connect(c.svc.url, { cookie: await c.adminCookie() });
      await dead.next(() => true);
      // A paused socket reads nothing, so it never answers a ping.
      (dead.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      await waitFor(() => c.svc.sockets() === 0, 2000, "the silent socket closed", 50);
      expect(c.svc.sockets()).toBe(0);
      dead.ws.terminate();
    } finally {
      await c.svc.stop();
    }
    // The chatty socket on a service with its usual ping interval: at 100 ms, a busy machine can
    // let a ping go unanswered first, and the socket is dropped for that (1006), not for its size.
    const d = await startHarness({}, a.clock, { env: a.env, db: a.db });
    try {
      const chatty = await connect(d.svc.url, { cookie: await d.adminCookie() });
      chatty.ws.send("x".repeat(2048));
      expect(await chatty.closed).toBe(1009);
    } finally {
      await d.svc.stop();
    }
  });

  it("refreshes the admin's view when sessions age out, without any new visit", async () => {
    const clock = new ManualClock(a.clock.ms);
    const c = await startHarness({}, clock, { env: { ...a.env, FEED_REFRESH_MS: "100" }, db: a.db });
    try {
      const id = sessionId();
      // Seen after the earlier tests' visitors (same manual time otherwise): on the push's first page.
      clock.advance(1);
      await c.visit({ sessionId: id, page: "/" });
      const client = await connect(c.svc.url, { cookie: await c.adminCookie() });
      await client.next((m) => m.data.activeVisitors.some((v) => v.id === id));
      clock.advance(5 * 60_000 + 1);
      const aged = await client.next((m) => !m.data.activeVisitors.some((v) => v.id === id), 2500);
      expect(aged.data.activeVisitors.some((v) => v.id === id)).toBe(false);
      client.ws.close();
    } finally {
      await c.svc.stop();
    }
  });
});

describe("/ws", () => {
  // The mailer publishes each provider answer for an e-mail the admin sent; tracking relays it on
  // the admin socket it already serves, so the compose window and sent mail update without polling.

  let h: Harness;
  let redis: Redis;
  beforeAll(async () => {
    h = await startHarness();
    redis = new Redis(h.env.REDIS_URL!);
  });
  afterAll(async () => {
    redis?.disconnect();
    await h?.close();
  });

  async function adminSocket(): Promise<{ ws: WebSocket; messages: ServerWsMessage[] }> {
    const host = new URL(h.svc.url).host;
    const ws = new WebSocket(`${h.svc.url.replace("http", "ws")}/ws`, {
      headers: { origin: `http://${host}`, cookie: await h.adminCookie() },
    });
    const messages: ServerWsMessage[] = [];
    ws.on("message", (raw) => messages.push(ServerWsMessage.parse(JSON.parse(String(raw)))));
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    return { ws, messages };
  }

  const channel = () => keyspace(h.env.REDIS_PREFIX!)("events", CHANNELS.mailOutcome);

  describe("mail outcomes on /ws", () => {
    it("relays a mail-outcome event to every admin socket as a typed message", async () => {
      const [one, two] = [await adminSocket(), await adminSocket()];
      try {
        const event = {
          emailId: randomUUID(),
          status: "failed",
          reason: "SendGrid weigerde de e-mail (400).",
          at: new Date().toISOString(),
        };
        await redis.publish(channel(), "not json");
        await redis.publish(channel(), JSON.stringify({ ...event, status: "lost" }));
        await redis.publish(channel(), JSON.stringify(event));
        for (const socket of [one, two]) {
          await expect
            .poll(() => socket.messages.filter((m): m is MailOutcomeMessage => m.type === "mail-outcome"))
            .toEqual([{ type: "mail-outcome", data: event }]);
        }
      } finally {
        one.ws.close();
        two.ws.close();
      }
    });
  });
});
