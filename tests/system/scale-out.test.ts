import { Redis } from "ioredis";
import pg from "pg";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueSession, keyspace } from "@lease/platform";
import { createTestDatabase, testAdmin, waitFor, type TestDatabase } from "@lease/platform/testing";
import { buildServicesUnlessBuilt } from "../../scripts/build.mjs";
import { startStack, type Stack } from "../../scripts/lib/stack.mjs";

// Two gateways and two tracking processes, one of every other service, one Postgres, one Redis:
// what SREs rely on when they scale out (issue: deploy each service on its own).

let db: TestDatabase;
let stack: Stack;
let redis: Redis;
let cookie: string;

beforeAll(async () => {
  await buildServicesUnlessBuilt();
  db = await createTestDatabase("scale");
  stack = await startStack({
    databaseUrl: db.url,
    redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    replicas: { gateway: 2, tracking: 2, leads: 2 },
    env: { LOG_LEVEL: "warn", LEAD_RATE_LIMIT: "100000", SENDGRID_API_BASE_URL: "http://127.0.0.1:9" },
    logDir: ".tmp/stack-scale",
  });
  redis = new Redis(stack.env.REDIS_URL!);
  const { token } = await issueSession(
    { redis, keys: keyspace(stack.env.REDIS_PREFIX!), jwtSecret: stack.env.JWT_SECRET! },
    testAdmin("admin"),
  );
  cookie = `admin_session=${token}`;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  redis?.disconnect();
  await db?.drop();
});

const sessionId = (n: number | string) => `session-scale${n}-${Date.now()}`;
const visit = (gatewayUrl: string, sid: string, page = "/financiele-lease") =>
  fetch(`${gatewayUrl}/api/track/visit`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0",
    },
    body: JSON.stringify({ sessionId: sid, page, referrer: "" }),
  });

describe("scale-out", () => {
  it("a visit sent to one gateway reaches an admin socket connected through the other", async () => {
    const [gwA, gwB] = stack.urls.gateway as [string, string];
    const ws = new WebSocket(`${gwB.replace("http", "ws")}/ws`, { headers: { cookie, origin: gwB } });
    const messages: { type: string; data: { activeVisitors: { page: string; id: string }[] } }[] = [];
    ws.on("message", (m) => messages.push(JSON.parse(m.toString())));
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("unexpected-response", (_q, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once("error", reject);
    });
    const sid = sessionId("ws");
    expect((await visit(gwA, sid, "/fleet-management")).status).toBe(204);
    await waitFor(
      () => messages.some((m) => m.data?.activeVisitors?.some((v) => v.page === "/fleet-management")),
      5000,
      "the visit on the other gateway's socket",
      50,
    );
    ws.close();
    expect(
      messages.some(
        (m) =>
          m.type === "visitor-update" && m.data.activeVisitors.some((v) => v.page === "/fleet-management"),
      ),
    ).toBe(true);
  });

  it("two leads processes relay each outbox row once: exactly one inbox entry per lead", async () => {
    const [gwA, gwB] = stack.urls.gateway as [string, string];
    const posts = Array.from({ length: 40 }, (_, i) =>
      fetch(`${i % 2 ? gwA : gwB}/api/lease-requests`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: i % 2 ? gwA : gwB },
        body: JSON.stringify({
          carUrl: `https://auto.example.nl/${i}`,
          contactNumber: "0612345678",
          email: `klant${i}@example.nl`,
        }),
      }),
    );
    const statuses = (await Promise.all(posts)).map((r) => r.status);
    expect(statuses.every((s) => s === 201)).toBe(true);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      let pending = -1;
      for (let i = 0; i < 100 && pending !== 0; i++) {
        pending = Number(
          (await client.query("SELECT count(*) FROM leads.outbox WHERE published_at IS NULL")).rows[0].count,
        );
        if (pending) await new Promise((r) => setTimeout(r, 100));
      }
      expect(pending).toBe(0);
      // Each lead became exactly one inbox entry, though two relays raced for the rows.
      let inbox = 0;
      for (let i = 0; i < 100 && inbox < 40; i++) {
        inbox = Number(
          (
            await client.query(
              "SELECT count(*) FROM mailer.email_messages WHERE message_type = 'lease_request'",
            )
          ).rows[0].count,
        );
        if (inbox < 40) await new Promise((r) => setTimeout(r, 200));
      }
      expect(inbox).toBe(40);
      const jobs = Number((await client.query("SELECT count(DISTINCT id) FROM leads.outbox")).rows[0].count);
      expect(jobs).toBe(80); // per lead: lead.received (inbox entry and notification) and its conversion
    } finally {
      await client.end();
    }
  });

  it("a rolling restart of one tracking replica under steady visits loses no request (one retry allowed)", async () => {
    const [gwA, gwB] = stack.urls.gateway as [string, string];
    let sent = 0;
    let failed = 0;
    let running = true;
    const load = (async () => {
      let n = 0;
      while (running) {
        const gw = n++ % 2 ? gwA : gwB;
        const sid = sessionId(`r${n}`);
        sent++;
        let ok = false;
        for (let attempt = 0; attempt < 2 && !ok; attempt++) {
          try {
            ok = (await visit(gw, sid)).status === 204;
          } catch {
            ok = false;
          }
          if (!ok) await new Promise((r) => setTimeout(r, 200));
        }
        if (!ok) failed++;
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await new Promise((r) => setTimeout(r, 500));
    await stack.restart("tracking", 0);
    // Visits go on after the restart: 20 more at least, and 60 in all (counted, not timed: a busy
    // machine sends fewer a second, and 43 in a fixed second was once too few to mean anything).
    const atRestart = sent;
    await waitFor(() => sent >= Math.max(atRestart + 20, 60), 30_000, "visits after the restart", 20);
    running = false;
    await load;
    console.log(`rolling restart: ${sent} visits sent, ${failed} failed after one retry`);
    expect(sent).toBeGreaterThan(50);
    expect(failed).toBe(0);
  });

  it("a quote sent to one gateway reaches the admin sockets of both gateways within 2 s", async () => {
    const [gwA, gwB] = stack.urls.gateway as [string, string];
    const sockets = await Promise.all(
      [gwA, gwB, gwB].map(async (gw) => {
        const ws = new WebSocket(`${gw.replace("http", "ws")}/ws`, { headers: { cookie, origin: gw } });
        const leads: string[] = [];
        ws.on("message", (m) => {
          const message = JSON.parse(m.toString()) as { type: string; data: { id?: string } };
          if (message.type === "lead-created" && message.data.id) leads.push(message.data.id);
        });
        await new Promise<void>((resolve, reject) => {
          ws.once("open", () => resolve());
          ws.once("error", reject);
        });
        return { ws, leads };
      }),
    );
    try {
      const res = await fetch(`${gwA}/api/lease-requests`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: gwA },
        body: JSON.stringify({
          carUrl: "https://auto.example.nl/live",
          contactNumber: "0612345678",
          email: "live@example.nl",
        }),
      });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      await waitFor(() => sockets.every((s) => s.leads.includes(id)), 2000, "the lead on every socket", 25);
      // Each socket hears of it exactly once, whichever leads and tracking replica it went through.
      expect(sockets.map((s) => s.leads.filter((l) => l === id).length)).toEqual([1, 1, 1]);
    } finally {
      for (const s of sockets) s.ws.close();
    }
  });
});
