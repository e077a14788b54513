import type { Pool } from "@lease/platform";

/**
 * A stored sketch's bytes as last read, and the row version (its xmin) they are the bytes of; or a
 * union or an estimate made of such rows, kept under the versions it was made of (xmin "").
 */
export interface CachedSketch {
  xmin: string;
  regs: Uint8Array;
  estimate?: number;
}

const NO_BYTES = new Uint8Array(0);

/** What a cached sketch costs beside its bytes and its key: the Map slot, the entry and the array's header. */
export const ENTRY_OVERHEAD_BYTES = 256;
/** How often the transaction counter is looked at (see SketchCache.checkHorizon). */
const HORIZON_CHECK_MS = 10_000;
/** Entries are forgotten before the 32-bit xmin they are checked by could come round again. */
const XID_BLOCK = 2n ** 30n;

/**
 * The bytes of stored sketches (tracking.sketches rows) this process read before, so that an
 * analytics read fetches only the rows that changed since: the reader sends the xmins of the rows
 * it holds, and PostgreSQL answers a row with one of them without its bytes (a row whose xmin is
 * another held row's but whose own held version is older is then fetched by its key). Every write of a row (the compactor's upsert, the week sketches' rebuild,
 * retention's rebuild of a month) makes a new row version with a new xmin, and a deleted row is
 * simply not answered, so what is served from here is always the bytes of the row the read's own
 * snapshot sees. Each replica keeps its own.
 *
 * The reader also keeps here, under the versions of the rows they were made of, the union of a
 * scope's rows of the months before the newest month it reads (those change only by an import or
 * retention; the newest is where live traffic writes) and the estimates it made; the same row
 * versions give the same union, so these are exact too.
 *
 * Bounded by bytes (each entry's bytes and key plus ENTRY_OVERHEAD_BYTES), least recently read out
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

  /** The entry held for a key (marked as just used). */
  recall(key: string): CachedSketch | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Holds an estimate (a union's, under the versions of the rows it was made of). */
  keepEstimate(key: string, estimate: number): void {
    this.store(key, "", NO_BYTES, estimate);
  }

  /**
   * Holds a row's bytes, replacing what the key held; least recently used entries leave until
   * the cache is within its bound (an entry larger than the whole bound is not held).
   */
  store(key: string, xmin: string, regs: Uint8Array, estimate?: number): void {
    const cost = costOf(key, regs);
    this.forget(key);
    if (cost > this.maxBytes) return;
    // A small Buffer decoded from base64 is a slice of a shared 8 KB pool: held alone it would keep
    // the whole pool alive, so it is copied out.
    const own = regs.byteLength === regs.buffer.byteLength ? regs : Uint8Array.prototype.slice.call(regs);
    this.entries.set(key, estimate === undefined ? { xmin, regs: own } : { xmin, regs: own, estimate });
    this.bytesHeld += cost;
    for (const [oldest, entry] of this.entries) {
      if (this.bytesHeld <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytesHeld -= costOf(oldest, entry.regs);
    }
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytesHeld -= costOf(key, entry.regs);
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

/** What an entry counts against the bound: its bytes, its key (one byte a character) and the rest. */
export const costOf = (key: string, regs: Uint8Array) => regs.byteLength + key.length + ENTRY_OVERHEAD_BYTES;

/** The cache key of a stored sketch. */
export const sketchKey = (kind: string, period: string, scope: number) => `${kind}|${period}|${scope}`;
