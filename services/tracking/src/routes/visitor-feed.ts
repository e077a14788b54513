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
 *
 * A change is "now" (a visitor arrived or moved on: the live list) or "soon" (the day's counts
 * after the writer stored page views, the periodic refresh). A "soon" change waits `soonMs` (the
 * interval, by default) for a tick that happens anyway: pushed at once, it made the next visitor,
 * arriving within the interval after it, wait out the interval behind it (a visit's flush comes
 * about a second after the visit: with visits 1.5 s apart every one waited ~0.5 s). A "now" change
 * brings a waiting tick forward.
 */
export class VisitorFeed {
  private readonly sockets = new Set<FeedSocket>();
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  /** When the scheduled tick runs (epoch ms). */
  private due = Infinity;
  /** A "now" change is among those the next tick carries. */
  private urgent = false;
  private lastTick = -Infinity;
  private ticking = false;
  private stopped = false;
  private inflight: Promise<string> | undefined;
  private urgentSince = 0;

  constructor(
    private readonly snapshot: () => Promise<VisitorUpdateMessage["data"]>,
    private readonly minIntervalMs: number,
    private readonly logger: Logger,
    /** Told, after each push of a "now" change, how long the oldest such change waited (fan-out latency). */
    private readonly onPushed?: (seconds: number) => void,
    private readonly soonMs = minIntervalMs,
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
  changed(when: "now" | "soon" = "now"): void {
    this.dirty = true;
    if (when === "now") {
      if (!this.urgent) this.urgentSince = Date.now();
      this.urgent = true;
    }
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
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

  /** Runs the next tick as the pending changes ask, never sooner than `minIntervalMs` after the last. */
  private schedule(): void {
    if (this.ticking || this.stopped) return;
    const now = Date.now();
    const due = Math.max(this.lastTick + this.minIntervalMs, this.urgent ? now : now + this.soonMs);
    if (this.timer) {
      if (this.due <= due) return;
      clearTimeout(this.timer);
    }
    this.due = due;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, due - now));
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.due = Infinity;
    if (!this.dirty) return;
    this.ticking = true;
    this.lastTick = Date.now();
    const urgent = this.urgent;
    const since = this.urgentSince;
    this.dirty = false;
    this.urgent = false;
    try {
      if (this.sockets.size === 0) return;
      const text = serialise(await this.snapshot());
      for (const socket of this.sockets) if (socket.readyState === OPEN) socket.send(text);
      if (urgent) this.onPushed?.((Date.now() - since) / 1000);
    } catch (err) {
      this.dirty = true; // try again next tick
      if (urgent) {
        this.urgentSince = this.urgent ? Math.min(this.urgentSince, since) : since;
        this.urgent = true;
      }
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
