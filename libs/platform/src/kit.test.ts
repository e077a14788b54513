import net from "node:net";
import { Writable } from "node:stream";
import Router from "@koa/router";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseConfigSchema, loadConfig } from "./config";
import { createKit, startService, type RunningService } from "./kit";
import {
  createTestDatabase,
  startOwnRedis,
  testEnv,
  waitFor,
  type OwnRedis,
  type TestDatabase,
} from "./testing";

describe("a service's lifecycle", () => {
  let db: TestDatabase;
  let redis: OwnRedis;
  let svc: RunningService;
  let releaseSlow: () => void = () => undefined;
  const logLines: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase("kit");
    redis = await startOwnRedis();
    const config = loadConfig(baseConfigSchema, testEnv({ DATABASE_URL: db.url, REDIS_URL: redis.url }));
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    });
    const kit = await createKit("kit-test", config, { logger: pino({ level: "info" }, sink) });
    const router = new Router();
    router.get("/slow", async (ctx) => {
      await new Promise<void>((resolve) => (releaseSlow = resolve));
      ctx.body = { finished: true };
    });
    svc = await startService(kit, { routes: router });
  });
  afterAll(async () => {
    await svc.stop();
    await redis.stop();
    await db.drop();
  });

  it("is ready while Postgres and Redis answer: up on its port, each check on the metrics port", async () => {
    const res = await fetch(`${svc.url}/readyz`);
    expect(res.status).toBe(200);
    expect((await res.json()) as any).toEqual({ status: "ready" });
    const probe = await fetch(svc.readyUrl);
    expect(probe.status).toBe(200);
    expect((await probe.json()) as any).toEqual({
      status: "ready",
      service: "kit-test",
      checks: { postgres: "ok", redis: "ok" },
    });
  });

  it("turns readiness false when Redis stops, keeps liveness, and recovers by itself", async () => {
    await redis.stop();
    await waitFor(async () => (await fetch(svc.readyUrl)).status === 503, 10_000, "readyz 503");
    const probe = await fetch(svc.readyUrl);
    expect(probe.status).toBe(503);
    // Which check failed only on the metrics port; what went wrong only in the log, once.
    expect(JSON.parse(await probe.text())).toEqual({
      status: "not_ready",
      service: "kit-test",
      checks: { postgres: "ok", redis: "failed" },
    });
    await waitFor(async () => (await fetch(`${svc.url}/readyz`)).status === 503, 5000, "public 503");
    expect(await (await fetch(`${svc.url}/readyz`)).json()).toEqual({ status: "not_ready" });
    const failures = logLines.filter((l) => l.includes("readiness check failed"));
    expect(failures).toHaveLength(1);
    expect(JSON.parse(failures[0]!)).toMatchObject({
      check: "redis",
      reason: expect.stringMatching(/redis/),
    });
    expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);

    await redis.start();
    await waitFor(async () => (await fetch(svc.readyUrl)).status === 200, 15_000, "readyz 200");
    expect((await fetch(svc.readyUrl)).status).toBe(200);
    expect(logLines.some((l) => l.includes("readiness check passes again"))).toBe(true);
  });

  it("lets an in-flight request finish on shutdown, and refuses new connections", async () => {
    const inFlight = fetch(`${svc.url}/slow`).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as any,
    }));
    await new Promise((r) => setTimeout(r, 100));
    const stopped = svc.stop();
    await new Promise((r) => setTimeout(r, 100));
    // A new connection is refused (one left open by an earlier request would still be answered).
    const connecting = new Promise((resolve, reject) => {
      const socket = net.connect(svc.port, "127.0.0.1", () => resolve(socket.destroy()));
      socket.once("error", reject);
    });
    await expect(connecting).rejects.toMatchObject({ code: "ECONNREFUSED" });
    releaseSlow();
    expect(await inFlight).toEqual({ status: 200, body: { finished: true } });
    await stopped;
  });
});
