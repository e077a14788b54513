// The built stack's start (scripts/lib/stack.mjs), as the browser tests and system tests use it.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseRedisUrl, createTestDatabase, type TestDatabase } from "@lease/platform/testing";
import { buildServicesUnlessBuilt } from "../build.mjs";
import { freePort, startStack, type Stack } from "./stack.mjs";

let db: TestDatabase;
let held: net.Server;
const sockets: net.Socket[] = [];
let heldPort: number;
let stack: Stack | undefined;

beforeAll(async () => {
  await buildServicesUnlessBuilt();
  db = await createTestDatabase("stackstart");
  // It accepts and never answers, like a port some other server holds.
  held = net.createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => held.listen(0, "127.0.0.1", resolve));
  heldPort = (held.address() as net.AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  sockets.forEach((socket) => socket.destroy());
  await new Promise((resolve) => held.close(resolve));
  await db?.drop();
});

describe("startStack", () => {
  it("starts again on new ports when a port found free is taken before a service binds it", async () => {
    // The first port handed out is already bound elsewhere, as when another process's connection
    // takes it between the check and the service's listen.
    let calls = 0;
    // Each port handed out once (the kernel may hand a released one out again, which startStack
    // would answer with one more pick): the calls then count whole rounds.
    const given = new Set<number>();
    const pickPort = async () => {
      if (calls++ === 0) return heldPort;
      for (;;) {
        const port = await freePort();
        if (!given.has(port)) return (given.add(port), port);
      }
    };
    stack = await startStack({
      databaseUrl: db.url,
      redisUrl: baseRedisUrl(),
      env: { LOG_LEVEL: "warn", DATABASE_POOL_MAX: "2" },
      logDir: ".tmp/stack-start-test",
      pickPort,
    });
    expect(stack.processes.map((p) => p.port)).not.toContain(heldPort);
    // At least two rounds of a port and a metrics port per service (six services: twelve a round);
    // on a busy machine another process may take a port of the second round too.
    expect(calls % (2 * stack.processes.length)).toBe(0);
    expect(calls).toBeGreaterThanOrEqual(2 * 2 * stack.processes.length);
    expect(stack.processes.length).toBe(6);
    const health = await fetch(`${stack.url}/healthz`);
    expect(health.status).toBe(200);
    const leads = stack.processes.find((p) => p.name === "leads")!;
    expect((await fetch(`${leads.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
