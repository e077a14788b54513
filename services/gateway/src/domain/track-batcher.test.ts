import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  InternalTrackBatch,
  TRACK_BATCH_MAX_HITS,
  TRACK_BATCH_PATH,
  type InternalTrackHit,
} from "@lease/contracts";
import { HttpError, INTERNAL_TOKEN_HEADER, createLogger } from "@lease/platform";
import { freePort } from "@lease/platform/testing";
import { createUpstream, type Upstream } from "../routes/proxy";
import { createTrackBatcher } from "./track-batcher";

// The batcher alone, against a small HTTP server that checks each call the way tracking's batch
// route does (token, schema) and answers hit by hit: 204 for "/ok" pages, 400 otherwise.
// (tracking's real route is tested in services/tracking; the two together in tests/system.)

const TOKEN = "internal-token-0123456789-abcdefghijklmnop";
const calls: InternalTrackHit[][] = [];
let answerStatus = 200;
let server: http.Server;
let upstream: Upstream;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url !== TRACK_BATCH_PATH || req.headers[INTERNAL_TOKEN_HEADER] !== TOKEN) {
        res.writeHead(403).end();
        return;
      }
      const { hits } = InternalTrackBatch.parse(JSON.parse(body));
      calls.push(hits);
      if (answerStatus !== 200) {
        res.writeHead(answerStatus).end();
        return;
      }
      const results = hits.map((h) =>
        (JSON.parse(h.body) as { page: string }).page === "/ok"
          ? { status: 204 }
          : { status: 400, error: { code: "validation_failed", message: `fout ${h.requestId}` } },
      );
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ results }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  upstream = createUpstream("tracking", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await upstream.close();
  await new Promise((r) => server.close(r));
});

const logger = createLogger("test", "silent");
const hit = (i: number, page = "/ok"): InternalTrackHit => ({
  kind: "visit",
  body: JSON.stringify({ page }),
  ip: "145.53.1.1",
  requestId: `r${i}`,
});

describe("beacon batcher", () => {
  it("sends the beacons of one event-loop turn in one call, and gives each its own answer", async () => {
    calls.length = 0;
    const sizes: number[] = [];
    const batcher = createTrackBatcher(upstream, {
      internalToken: TOKEN,
      timeoutMs: 2000,
      logger,
      onBatch: (n) => sizes.push(n),
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => batcher.submit(hit(i, i % 7 === 0 ? "/bad" : "/ok"))),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]!.map((h) => h.requestId)).toEqual(answers.map((_, i) => `r${i}`));
    expect(sizes).toEqual([50]);
    answers.forEach((a, i) => {
      if (i % 7 === 0)
        expect(a).toEqual({ status: 400, error: { code: "validation_failed", message: `fout r${i}` } });
      else expect(a).toEqual({ status: 204 });
    });
  });

  it("caps a call at the batch maximum and sends a lone beacon without waiting for company", async () => {
    calls.length = 0;
    const batcher = createTrackBatcher(upstream, { internalToken: TOKEN, timeoutMs: 2000, logger });
    const n = TRACK_BATCH_MAX_HITS * 2 + 5;
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => batcher.submit(hit(i))));
    expect(answers.every((a) => a.status === 204)).toBe(true);
    // The calls run side by side and may arrive in any order.
    expect(calls.map((c) => c.length).sort((a, b) => b - a)).toEqual([
      TRACK_BATCH_MAX_HITS,
      TRACK_BATCH_MAX_HITS,
      5,
    ]);

    calls.length = 0;
    const started = Date.now();
    expect(await batcher.submit(hit(1))).toEqual({ status: 204 });
    expect(Date.now() - started).toBeLessThan(500);
    expect(calls.map((c) => c.length)).toEqual([1]);
  });

  it("answers every beacon of a batch the service refuses 502, or 503 with Retry-After when it is unavailable", async () => {
    const statusOf = async (r: PromiseSettledResult<unknown>) => {
      expect(r.status).toBe("rejected");
      const err = (r as PromiseRejectedResult).reason as HttpError;
      expect(err).toBeInstanceOf(HttpError);
      return [err.status, err.headers["Retry-After"]];
    };
    const wrongToken = createTrackBatcher(upstream, {
      internalToken: "x".repeat(TOKEN.length),
      timeoutMs: 2000,
      logger,
    });
    expect(await statusOf((await Promise.allSettled([wrongToken.submit(hit(1))]))[0]!)).toEqual([
      502,
      undefined,
    ]);
    const batcher = createTrackBatcher(upstream, { internalToken: TOKEN, timeoutMs: 2000, logger });
    try {
      for (const [answer, expected] of [
        [404, [502, undefined]],
        [503, [503, "5"]],
      ] as const) {
        answerStatus = answer;
        const both = await Promise.allSettled([batcher.submit(hit(1)), batcher.submit(hit(2))]);
        expect(await Promise.all(both.map(statusOf))).toEqual([expected, expected]);
      }
    } finally {
      answerStatus = 200;
    }
  });

  it("answers every beacon of a batch 503 when no replica takes the connection", async () => {
    const dead = createUpstream("tracking", `http://127.0.0.1:${await freePort()}`);
    try {
      const batcher = createTrackBatcher(dead, { internalToken: TOKEN, timeoutMs: 2000, logger });
      const both = await Promise.allSettled([batcher.submit(hit(1)), batcher.submit(hit(2))]);
      for (const r of both) {
        expect(r.status).toBe("rejected");
        const err = (r as PromiseRejectedResult).reason as HttpError;
        expect(err).toBeInstanceOf(HttpError);
        expect(err.status).toBe(503);
        expect(err.headers["Retry-After"]).toBe("5");
      }
    } finally {
      await dead.close();
    }
  });
});
