import type { VisitorUpdateMessage } from "@lease/contracts";
import type { Logger } from "@lease/platform";

export interface FeedSocket {
  send(data: string): void;
  readonly readyState: number;
}

const OPEN = 1;

/**
 * Pushes {type: "visitor-update"} to this replica's admin sockets. A change marks the feed dirty;
 * a tick (on the leading edge, then at most once per `minIntervalMs`) computes the snapshot once,
 * serialises it once and sends the same text to every socket. A socket also gets one message
 * right after connecting; sockets connecting together share one snapshot.
 */
export class VisitorFeed {
  private readonly sockets = new Set<FeedSocket>();
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private lastTick = -Infinity;
  private ticking = false;
  private stopped = false;
  private inflight: Promise<string> | undefined;
  private dirtySince = 0;

  constructor(
    private readonly snapshot: () => Promise<VisitorUpdateMessage["data"]>,
    private readonly minIntervalMs: number,
    private readonly logger: Logger,
    /** Told, after each push, how long the oldest change it carries waited (fan-out latency). */
    private readonly onPushed?: (seconds: number) => void,
  ) {}

  get size(): number {
    return this.sockets.size;
  }

  async add(socket: FeedSocket): Promise<void> {
    this.sockets.add(socket);
    try {
      const text = await this.current();
      if (socket.readyState === OPEN) socket.send(text);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, "visitor snapshot failed");
    }
  }

  remove(socket: FeedSocket): void {
    this.sockets.delete(socket);
  }

  /** Something changed (on this replica or another). */
  changed(): void {
    if (!this.dirty) this.dirtySince = Date.now();
    this.dirty = true;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** For new sockets only: a tick always computes afresh, so no change is missed. */
  private current(): Promise<string> {
    this.inflight ??= this.snapshot()
      .then(serialise)
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }

  private schedule(): void {
    if (this.timer || this.ticking || this.stopped) return;
    const wait = Math.max(0, this.lastTick + this.minIntervalMs - Date.now());
    this.timer = setTimeout(() => void this.tick(), wait);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (!this.dirty) return;
    this.ticking = true;
    this.lastTick = Date.now();
    this.dirty = false;
    const since = this.dirtySince;
    try {
      if (this.sockets.size === 0) return;
      const text = serialise(await this.snapshot());
      for (const socket of this.sockets) if (socket.readyState === OPEN) socket.send(text);
      this.onPushed?.((Date.now() - since) / 1000);
    } catch (err) {
      if (!this.dirty) this.dirtySince = since;
      this.dirty = true; // try again next tick
      this.logger.warn({ err: (err as Error).message }, "visitor snapshot failed");
    } finally {
      this.ticking = false;
      if (this.dirty) this.schedule();
    }
  }
}

function serialise(data: VisitorUpdateMessage["data"]): string {
  return JSON.stringify({ type: "visitor-update", data } satisfies VisitorUpdateMessage);
}
