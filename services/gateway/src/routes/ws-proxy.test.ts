// The gateway's WebSocket tunnel (ws-proxy.ts): an admin's /ws upgrade through to tracking.
import { WebSocket } from "ws";
import { issueSession, keyspace } from "@lease/platform";
import { testAdmin } from "@lease/platform/testing";
import { describe, expect, it } from "vitest";
import { wsSeen, gw, env, redis, OUTSIDER_HEADERS, useEchoStack } from "../testing/echo-stack";

useEchoStack();

describe("/ws → tracking", () => {
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
});
