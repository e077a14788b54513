import { fork, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, waitFor, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";
import { gatewayOnlyEnv } from "../testing";

// A rolling deploy stops a gateway under load. What it received must be answered: requests in
// flight at the services, and requests that reached it but were not read yet when the stop began
// (on a keep-alive connection, or on a new one still in the kernel's accept queue), as on a busy
// host where the process did not get to run for a moment.

const DELAY_MS = 300;
let db: TestDatabase;
let services: http.Server;
let received = 0;

interface Result {
  id: number;
  kind: "quote" | "beacon";
  writtenAt?: number;
  reused: boolean;
  status?: number;
  connection?: string;
  error?: string;
}

beforeAll(async () => {
  db = await createTestDatabase("gwshutdown");
  // Leads and tracking, slow: a quote request is answered 201, a batch of beacons 204 each.
  services = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const hits = req.url === "/internal/track/batch" ? (JSON.parse(body) as { hits: unknown[] }).hits : [];
      received += req.url === "/internal/track/batch" ? hits.length : 1;
      setTimeout(() => {
        res.writeHead(req.url === "/internal/track/batch" ? 200 : 201, {
          "content-type": "application/json",
        });
        res.end(JSON.stringify(hits.length ? { results: hits.map(() => ({ status: 204 })) } : { ok: true }));
      }, DELAY_MS);
    });
  });
  await new Promise<void>((r) => services.listen(0, "127.0.0.1", r));
});

afterAll(async () => {
  await new Promise((r) => services.close(r));
  await db.drop();
});

function wave(client: ChildProcess, name: string, parts: { connections: string; count: number }[]) {
  return new Promise<Result[]>((resolve) => {
    const onMessage = (m: { wave: string; results: Result[] }) => {
      if (m.wave !== name) return;
      client.off("message", onMessage);
      resolve(m.results);
    };
    client.on("message", onMessage);
    client.send({ wave: name, parts });
  });
}

const answered = (r: Result) => r.status === (r.kind === "quote" ? 201 : 204);

describe("gateway shutdown", () => {
  it("answers every request it received when stopped under load: in flight, unread on a keep-alive connection, unread in the accept queue", async () => {
    const servicesUrl = `http://127.0.0.1:${(services.address() as AddressInfo).port}`;
    const gw = await startGateway(
      await gatewayOnlyEnv(db.url, { LEADS_URL: servicesUrl, TRACKING_URL: servicesUrl }),
    );
    const client = fork(fileURLToPath(new URL("../testing/shutdown-client.mjs", import.meta.url)), [gw.url]);
    try {
      // Keep-alive connections that served a request and stay open, idle.
      const warm = await wave(client, "warm", [{ connections: "keep-alive", count: 20 }]);
      expect(warm.filter(answered)).toHaveLength(20);
      // Quote requests and beacons waiting for the services when the stop begins.
      received = 0;
      const inFlight = wave(client, "in flight", [{ connections: "fresh", count: 20 }]);
      await waitFor(() => received >= 20, 10_000, "20 requests at the services");
      // Sent while the gateway's process is held busy: written, but read by nobody yet.
      const unread = wave(client, "unread", [
        { connections: "keep-alive", count: 10 },
        { connections: "fresh", count: 10 },
      ]);
      const busyUntil = Date.now() + 800;
      while (Date.now() < busyUntil) {
        /* the host is busy: no event of this process runs */
      }
      const stopAt = Date.now();
      const stopped = gw.stop();

      expect((await inFlight).filter((r) => !answered(r))).toEqual([]);
      const late = await unread;
      const writtenBefore = late.filter((r) => r.writtenAt !== undefined && r.writtenAt < stopAt);
      // Every request written before the stop began is answered, none cut.
      expect(writtenBefore.filter((r) => !answered(r))).toEqual([]);
      // The keep-alive ones came on connections of the first wave; they and most fresh ones were
      // written before the stop (the client is not held busy), so this proves something.
      expect(late.filter((r) => r.reused)).toHaveLength(10);
      expect(writtenBefore.length).toBeGreaterThanOrEqual(10);
      // Anything later found the port closed, never a connection cut.
      for (const r of late) if (!answered(r)) expect(r.error).toBe("ECONNREFUSED");
      // The answers given while stopping close their connections: no client sends another on them.
      for (const r of late.filter(answered)) expect(r.connection).toBe("close");
      await stopped;
      await expect(fetch(`${gw.url}/healthz`)).rejects.toThrow();
    } finally {
      client.kill();
      await gw.stop();
    }
  });
});
