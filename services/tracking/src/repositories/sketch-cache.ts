import type { Pool } from "@lease/platform";

/** A stored sketch's bytes as last read, and the row version (its xmin) they are the bytes of. */
export interface CachedSketch {
  xmin: string;
  regs: Uint8Array;
}

/** What a cached sketch costs beside its bytes: the Map slot, its key, the entry and the array's header. */
export const ENTRY_OVERHEAD_BYTES = 256;
/** How often the transaction counter is looked at (see SketchCache.checkHorizon). */
const HORIZON_CHECK_MS = 10_000;
/** Entries are forgotten before the 32-bit xmin they are checked by could come round again. */
const XID_BLOCK = 2n ** 30n;

/**
 * The bytes of stored sketches (tracking.sketches rows) this process read before, so that an
 * analytics read fetches only the rows that changed since: the reader sends the key and xmin of
 * each row it holds, and PostgreSQL answers those rows without their bytes when their xmin is
 * still the one held. Every write of a row (the compactor's upsert, the week sketches' rebuild,
 * retention's rebuild of a month) makes a new row version with a new xmin, and a deleted row is
 * simply not answered, so what is served from here is always the bytes of the row the read's own
 * snapshot sees. Each replica keeps its own.
 *
 * Bounded by bytes (the sketches' own plus ENTRY_OVERHEAD_BYTES each), least recently read out
 * first. A 32-bit xmin repeats after 2^32 transactions: the whole cache is dropped whenever the
 * 64-bit transaction counter enters a new block of 2^30 (or goes back: another cluster), so no
 * entry outlives 2^30 transactions plus HORIZON_CHECK_MS of them.
 */
export class SketchCache {
  /** In order of last use, least recent first. */
  private readonly entries = new Map<string, CachedSketch>();
  private bytesHeld = 0;
  private horizonBlock: bigint | undefined;
  private horizonCheckedAt = -Infinity;
  private horizonCheck: Promise<void> | undefined;
  /** Rows answered without bytes, and rows whose bytes were fetched (and cached). */
  hits = 0;
  misses = 0;
  /** Bytes of sketches fetched from PostgreSQL (decoded), deltas included. */
  fetchedBytes = 0;

  constructor(
    readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  get bytes(): number {
    return this.bytesHeld;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entries held for these keys (each marked as just used). */
  lookup(keys: Iterable<string>): Map<string, CachedSketch> {
    const found = new Map<string, CachedSketch>();
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (!entry) continue;
      this.entries.delete(key);
      this.entries.set(key, entry);
      found.set(key, entry);
    }
    return found;
  }

  /**
   * Holds a row's bytes, replacing what the key held; least recently used entries leave until
   * the cache is within its bound (an entry larger than the whole bound is not held).
   */
  store(key: string, xmin: string, regs: Uint8Array): void {
    const cost = regs.byteLength + ENTRY_OVERHEAD_BYTES;
    this.forget(key);
    if (cost > this.maxBytes) return;
    // A small Buffer decoded from base64 is a slice of a shared 8 KB pool: held alone it would keep
    // the whole pool alive, so it is copied out.
    const own = regs.byteLength === regs.buffer.byteLength ? regs : Uint8Array.prototype.slice.call(regs);
    this.entries.set(key, { xmin, regs: own });
    this.bytesHeld += cost;
    for (const [oldest, entry] of this.entries) {
      if (this.bytesHeld <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytesHeld -= entry.regs.byteLength + ENTRY_OVERHEAD_BYTES;
    }
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytesHeld -= entry.regs.byteLength + ENTRY_OVERHEAD_BYTES;
  }

  clear(): void {
    this.entries.clear();
    this.bytesHeld = 0;
  }

  /**
   * Drops everything once the transaction counter has entered another block of 2^30 since the
   * last look (at most every HORIZON_CHECK_MS, before the entries are trusted).
   */
  checkHorizon(pool: Pool): Promise<void> {
    if (this.maxBytes === 0 || this.now() - this.horizonCheckedAt < HORIZON_CHECK_MS)
      return Promise.resolve();
    // Reads that start together wait for one look.
    this.horizonCheck ??= this.lookAtHorizon(pool).finally(() => (this.horizonCheck = undefined));
    return this.horizonCheck;
  }

  private async lookAtHorizon(pool: Pool): Promise<void> {
    const r = await pool.query<{ next: string }>(
      "SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next",
    );
    const block = BigInt(r.rows[0]!.next) / XID_BLOCK;
    if (this.horizonBlock !== undefined && block !== this.horizonBlock) this.clear();
    this.horizonBlock = block;
    this.horizonCheckedAt = this.now();
  }
}

/** The cache key of a stored sketch. */
export const sketchKey = (kind: string, period: string, scope: number) => `${kind}|${period}|${scope}`;
