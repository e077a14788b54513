import { Redis } from "ioredis";
import { InternalTrackBatchResult, TRACK_BATCH_PATH, type InternalTrackHit } from "@lease/contracts";
import { INTERNAL_TOKEN_HEADER } from "@lease/platform";
import {
  adminCookie as platformAdminCookie,
  createTestDatabase,
  testEnv,
  type TestDatabase,
} from "@lease/platform/testing";
import { startTracking, type RunningTracking } from "../service";
import type { Clock } from "../domain/clock";
import type { TrackEvent } from "../repositories/page-views";

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(public ms: number) {}
  now() {
    return this.ms;
  }
  advance(ms: number) {
    this.ms += ms;
  }
}

export const BROWSER_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** A page view by a browser in Utrecht, as the visit writer takes it (insertBatch). */
export const pageView = (eventId: string, session: string, page: string, at: string): TrackEvent => ({
  eventId,
  sessionId: session,
  isView: true,
  page,
  referrer: null,
  userAgent: BROWSER_UA,
  country: "NL",
  city: "Utrecht",
  at: new Date(at),
});

let counter = 0;
export const sessionId = () =>
  `session-${(++counter).toString(36)}abc${Math.random().toString(36).slice(2, 8)}-${Date.now()}`;

/** A sample's value from a metrics endpoint (0 when absent); `labels` must open the label list. */
export async function metric(metricsUrl: string, name: string, labels = ""): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text
    .split("\n")
    .find((l) => l.startsWith(`${name}${labels ? `{${labels}` : ""}`) && !l.startsWith("#"));
  return line ? Number(line.split(" ").pop()) : 0;
}

export interface Harness {
  svc: RunningTracking;
  env: NodeJS.ProcessEnv;
  db: TestDatabase;
  clock: ManualClock;
  adminCookie(): Promise<string>;
  visit(body: unknown, headers?: Record<string, string>): Promise<Response>;
  heartbeat(body: unknown, headers?: Record<string, string>): Promise<Response>;
  get<T>(path: string): Promise<T>;
  /** Resolves once every hit accepted so far is written to Postgres (rollups included). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(
  overrides: Record<string, string> = {},
  clock = new ManualClock(Date.parse("2026-11-18T10:00:00Z")),
  shared?: { env: NodeJS.ProcessEnv; db: TestDatabase },
): Promise<Harness> {
  const db = shared?.db ?? (await createTestDatabase("tracking"));
  const env = shared?.env ?? testEnv({ DATABASE_URL: db.url, FLUSH_INTERVAL_MS: "100", ...overrides });
  const svc = await startTracking(env, { clock });
  // A beacon as the gateway forwards it: one hit in a batch to tracking's one ingest route, with
  // the address the gateway would have determined (X-Forwarded-For's first entry here, as from a
  // trusted proxy) and the visitor's user agent and cookie. The answer is that hit's own.
  const post =
    (kind: InternalTrackHit["kind"]) =>
    async (body: unknown, headers: Record<string, string> = {}): Promise<Response> => {
      const res = await fetch(`${svc.url}${TRACK_BATCH_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", [INTERNAL_TOKEN_HEADER]: env.INTERNAL_TOKEN! },
        body: JSON.stringify({
          hits: [
            {
              kind,
              body: typeof body === "string" ? body : JSON.stringify(body),
              ip: headers["x-forwarded-for"]?.split(",")[0]!.trim() ?? "127.0.0.1",
              userAgent: headers["user-agent"] ?? BROWSER_UA,
              ...(headers.cookie ? { cookie: headers.cookie } : {}),
            } satisfies InternalTrackHit,
          ],
        }),
      });
      if (res.status !== 200) throw new Error(`${TRACK_BATCH_PATH}: ${res.status} ${await res.text()}`);
      const [result] = InternalTrackBatchResult.parse(await res.json()).results;
      return new Response(result!.status === 204 ? null : JSON.stringify(result!.error), {
        status: result!.status,
        headers: result!.headers,
      });
    };
  const adminCookie = () => platformAdminCookie(env);
  const redis = new Redis(env.REDIS_URL!);
  const streamKey = `${env.REDIS_PREFIX}:tracking:stream`;
  return {
    svc,
    env,
    db,
    clock,
    adminCookie,
    visit: post("visit"),
    heartbeat: post("heartbeat"),
    async get<T>(path: string) {
      const res = await fetch(`${svc.url}${path}`, { headers: { cookie: await adminCookie() } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async settle() {
      // The writer deletes what it has written from the stream: empty means all is in Postgres.
      const deadline = Date.now() + 10_000;
      while ((await redis.xlen(streamKey)) > 0) {
        if (Date.now() > deadline) throw new Error("the stream writer did not catch up within 10 s");
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      redis.disconnect();
      await svc.stop();
      if (!shared) await db.drop();
    },
  };
}
