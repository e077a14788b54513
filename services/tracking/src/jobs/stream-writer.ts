import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Logger, Redis } from "@lease/platform";
import { insertBatch, type TrackEvent, type WriterDeps } from "../repositories/page-views";
import { traceStreamBatch } from "./stream-trace";

export const STREAM_GROUP = "postgres-writer";
const GROUP = STREAM_GROUP;

type StreamEntry = [id: string, fields: string[]];

export interface StreamWriterOptions {
  redis: Redis;
  writer: WriterDeps;
  streamKey: string;
  logger: Logger;
  batchSize: number;
  intervalMs: number;
  /** Entries another consumer read but never acknowledged for this long are taken over. */
  claimIdleMs: number;
  onFlushed?: (rows: number) => void;
}

/**
 * Moves events from the Redis Stream to Postgres: a consumer group reads, one transaction writes a
 * batch (at most `batchSize`, or whatever arrived within `intervalMs`), then XACK + XDEL. Anything not
 * acknowledged stays pending and is read again (own entries after a failure, another replica's
 * after claimIdleMs), so a crash or restart loses nothing; the event id makes re-inserts no-ops.
 */
export class StreamWriter {
  private readonly consumer = `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
  private running = false;
  private loop: Promise<void> | undefined;
  private lastClaim = 0;
  private retryOwnPending = true;

  constructor(private readonly o: StreamWriterOptions) {}

  /**
   * After a lost connection, the entries Redis last delivered may be pending for this consumer
   * with their reply lost (Redis killed between writing its log and answering). ioredis then sends
   * the read again, which gets only newer entries: the lost ones are read again from the pending
   * list, at once, instead of after claimIdleMs.
   */
  private readonly onReady = () => {
    this.retryOwnPending = true;
  };

  async start(): Promise<void> {
    this.o.redis.on("ready", this.onReady);
    try {
      await this.o.redis.xgroup("CREATE", this.o.streamKey, GROUP, "0", "MKSTREAM");
    } catch (err) {
      if (!/BUSYGROUP/.test((err as Error).message)) throw err;
    }
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    // A blocked XREADGROUP returns within intervalMs; the batch in hand is flushed before exit.
    await this.loop;
    this.o.redis.off("ready", this.onReady);
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.step();
      } catch (err) {
        this.o.logger.warn({ err: (err as Error).message }, "page view batch not written; will retry");
        this.retryOwnPending = true;
        await sleep(Math.min(this.o.intervalMs, 1000));
      }
    }
  }

  private async step(): Promise<void> {
    if (this.retryOwnPending) {
      const own = await this.read("0", this.o.batchSize, undefined);
      if (own.length > 0) return this.flush(own);
      this.retryOwnPending = false;
    }
    if (Date.now() - this.lastClaim > this.o.claimIdleMs) {
      this.lastClaim = Date.now();
      const claimed = await this.claimStale();
      if (claimed.length > 0) return this.flush(claimed);
    }
    // Short blocks keep stop() prompt whatever the interval.
    const first = await this.read(">", this.o.batchSize, Math.min(this.o.intervalMs, 1000));
    if (first.length === 0) return;
    const batch = first;
    if (batch.length < this.o.batchSize && this.running) {
      // Gather for up to one interval from the first event, so a quiet site still writes in batches.
      const deadline = Date.now() + this.o.intervalMs;
      while (batch.length < this.o.batchSize && this.running) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        await sleep(Math.min(left, 50));
        batch.push(...(await this.read(">", this.o.batchSize - batch.length, undefined)));
      }
    }
    await this.flush(batch);
  }

  private async read(id: string, count: number, blockMs: number | undefined): Promise<StreamEntry[]> {
    const args: (string | number)[] = ["GROUP", GROUP, this.consumer, "COUNT", count];
    if (blockMs !== undefined) args.push("BLOCK", blockMs);
    args.push("STREAMS", this.o.streamKey, id);
    const res = (await this.o.redis.call("XREADGROUP", ...args)) as [string, StreamEntry[]][] | null;
    return res?.[0]?.[1] ?? [];
  }

  private async claimStale(): Promise<StreamEntry[]> {
    const res = (await this.o.redis.call(
      "XAUTOCLAIM",
      this.o.streamKey,
      GROUP,
      this.consumer,
      this.o.claimIdleMs,
      "0",
      "COUNT",
      this.o.batchSize,
    )) as [string, StreamEntry[]];
    return (res?.[1] ?? []).filter((e) => Array.isArray(e?.[1]));
  }

  private async flush(entries: StreamEntry[]): Promise<void> {
    const events = entries.map(toEvent).filter((e): e is TrackEvent => e !== null);
    const { written } = await traceStreamBatch(entries, () => insertBatch(this.o.writer, events));
    // Acknowledged and deleted together: a written event has no reason to stay in Redis memory
    // (the stream's length cap is then only the backlog bound while Postgres is away).
    const ids = entries.map(([id]) => id);
    const results = await this.o.redis
      .multi()
      .xack(this.o.streamKey, GROUP, ...ids)
      .xdel(this.o.streamKey, ...ids)
      .exec();
    const failed = results?.find(([err]) => err)?.[0];
    if (!results || failed) throw failed ?? new Error("stream acknowledgement aborted");
    this.o.onFlushed?.(written);
  }
}

function toEvent([id, raw]: StreamEntry): TrackEvent | null {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) f[raw[i]!] = raw[i + 1]!;
  const at = Number(f.t);
  if (!f.s || !Number.isFinite(at)) return null;
  return {
    eventId: id,
    sessionId: f.s,
    isView: f.v === "1",
    consented: f.v === "2",
    page: f.p ?? "",
    referrer: f.r || null,
    userAgent: f.u || null,
    country: f.co || null,
    city: f.ci || null,
    sourceTag: f.b ?? "",
    at: new Date(at),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
