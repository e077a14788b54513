import { createHash } from "node:crypto";
import type { ActiveVisitor } from "@lease/contracts";
import type { Keyspace, Redis } from "@lease/platform";
import { streamTraceContext } from "../live/stream-trace";

/** What ingest knows about one hit; `page` is undefined for a heartbeat. */
export interface Hit {
  sessionId: string;
  page?: string;
  referrer?: string;
  userAgent: string;
  ip: string;
  city: string;
  country: string;
  at: number;
}

/**
 * Default bound on the stream's backlog (events not yet in Postgres, ~50 MB of Redis at most).
 * At the bound new hits are refused (503), never older accepted ones trimmed away.
 */
export const STREAM_BACKLOG_MAX = 200_000;
/** What the record script answers when the backlog is full; nothing of that run was written. */
const BACKLOG_FULL = -1;

/** The Postgres writer is this far behind (Postgres away): a hit is refused rather than lost later. */
export class BacklogFullError extends Error {
  constructor(max: number) {
    super(`tracking stream backlog is full (${max} events not yet in Postgres)`);
    this.name = "BacklogFullError";
  }
}
export const MAX_ACTIVE_LIST = 200;

// Records a batch of hits in one call (hits that arrive together share one script run).
// KEYS: active zset, stream, then per hit: its visitor hash.
// ARGV: hit count, backlog bound, active cutoff (trim below), hash ttl ms,
//       then per hit: session, at, ua, ip, city, country, page, isView, referrer,
//       then the trace context for the stream entries ("" when tracing is off: live/stream-trace.ts).
// Per hit only its own hash and stream entry are written, and the active set gets one ZADD for the
// whole run. Counts of the day, week and pages are not kept here: the Postgres writer keeps them
// (rollups), once, from the stream. A full backlog refuses the whole run before writing anything,
// so no hit is half recorded.
const RECORD_SCRIPT = `
local n, maxLen, hashTtl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[4]
local tc = ARGV[#ARGV] ~= "" and { "tc", ARGV[#ARGV] } or {}
if redis.call("XLEN", KEYS[2]) >= maxLen then return ${BACKLOG_FULL} end
local active = {}
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", "(" .. ARGV[3])
for i = 0, n - 1 do
  local key, a = KEYS[3 + i], 4 + i * 9
  local sid, at, ua, ip = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]
  local city, country, page, isView = ARGV[a + 5], ARGV[a + 6], ARGV[a + 7], ARGV[a + 8]
  if isView == "1" then
    redis.call("HSET", key, "ua", ua, "ip", ip, "city", city, "country", country, "lastSeen", at, "page", page)
  else
    redis.call("HSET", key, "ua", ua, "ip", ip, "city", city, "country", country, "lastSeen", at)
  end
  redis.call("PEXPIRE", key, hashTtl)
  active[#active + 1] = at
  active[#active + 1] = sid
  redis.call("XADD", KEYS[2], "*", "s", sid, "t", at, "p", page, "v", isView,
    "r", ARGV[a + 9], "u", ua, "ci", city, "co", country, unpack(tc))
end
if n > 0 then redis.call("ZADD", KEYS[1], unpack(active)) end
return n
`;
/** Hits per script run: keeps each run (Redis runs it without interruption) well under a millisecond. */
const RECORD_CHUNK = 100;
const RECORD_SHA = createHash("sha1").update(RECORD_SCRIPT).digest("hex");

/**
 * Live visitor state in Redis, answered without scans:
 * - visitor:<session>      hash (page, ua, ip, city, country, lastSeen), expires on its own;
 * - active                 sorted set session→lastSeen, trimmed by score;
 * - stream                 events for the Postgres writer.
 */
export class LiveVisitors {
  readonly streamKey: string;
  private readonly activeKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keyspace,
    private readonly activeWindowMs: number,
    private readonly backlogMax = STREAM_BACKLOG_MAX,
  ) {
    this.streamKey = keys("tracking", "stream");
    this.activeKey = keys("tracking", "active");
  }

  private pending: { hit: Hit; resolve: () => void; reject: (err: unknown) => void }[] = [];

  /**
   * Records one hit. Hits recorded in the same tick (a gateway batch, a burst) go to Redis
   * together: one server-side script run per 100 hits does all their writes, instead of a script
   * call per hit. Resolves once Redis has them; rejects (Redis away) for every hit of that run.
   */
  record(hit: Hit): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ hit, resolve, reject });
      if (this.pending.length === 1) process.nextTick(() => this.flush());
    });
  }

  private flush(): void {
    const pending = this.pending;
    this.pending = [];
    for (let i = 0; i < pending.length; i += RECORD_CHUNK) {
      const chunk = pending.slice(i, i + RECORD_CHUNK);
      this.run(chunk.map((p) => p.hit)).then(
        () => chunk.forEach((p) => p.resolve()),
        (err: unknown) => chunk.forEach((p) => p.reject(err)),
      );
    }
  }

  private async run(hits: Hit[]): Promise<void> {
    const keys = [this.activeKey, this.streamKey];
    let latest = 0;
    for (const hit of hits) latest = Math.max(latest, hit.at);
    const args: (string | number)[] = [
      hits.length,
      this.backlogMax,
      latest - this.activeWindowMs,
      this.activeWindowMs + 60_000,
    ];
    for (const hit of hits) {
      keys.push(this.keys("tracking", "visitor", hit.sessionId));
      const isView = hit.page !== undefined;
      args.push(
        hit.sessionId,
        hit.at,
        hit.userAgent,
        hit.ip,
        hit.city,
        hit.country,
        hit.page ?? "",
        isView ? "1" : "0",
        hit.referrer ?? "",
      );
    }
    args.push(streamTraceContext());
    let written: unknown;
    try {
      written = await this.redis.evalsha(RECORD_SHA, keys.length, ...keys, ...args);
    } catch (err) {
      if (!String((err as Error).message).startsWith("NOSCRIPT")) throw err;
      written = await this.redis.eval(RECORD_SCRIPT, keys.length, ...keys, ...args);
    }
    if (written === BACKLOG_FULL) throw new BacklogFullError(this.backlogMax);
  }

  /** Sessions seen within the active window. */
  async currentActive(now: number): Promise<number> {
    return this.redis.zcount(this.activeKey, now - this.activeWindowMs, "+inf");
  }

  /** Newest first, at most 200. */
  async active(now: number): Promise<ActiveVisitor[]> {
    const ids = await this.redis.zrevrangebyscore(
      this.activeKey,
      "+inf",
      now - this.activeWindowMs,
      "LIMIT",
      0,
      MAX_ACTIVE_LIST,
    );
    if (ids.length === 0) return [];
    const p = this.redis.pipeline();
    for (const id of ids) p.hgetall(this.keys("tracking", "visitor", id));
    const rows = (await p.exec()) ?? [];
    const list: ActiveVisitor[] = [];
    ids.forEach((id, i) => {
      const [err, h] = rows[i] ?? [];
      const v = h as Record<string, string> | undefined;
      if (err || !v?.lastSeen) return; // expired between the two reads
      list.push({
        id,
        page: v.page ?? "",
        userAgent: v.ua ?? "",
        city: v.city ?? "",
        country: v.country ?? "",
        ipAddress: v.ip ?? "",
        lastSeen: new Date(Number(v.lastSeen)).toISOString(),
      });
    });
    return list;
  }
}
