import { createHash } from "node:crypto";
import type { ActiveVisitor, TopPage, VisitorStats } from "@lease/contracts";
import type { Keyspace, Redis } from "@lease/platform";
import { calendarKeys } from "../domain/calendar";
import { streamTraceContext } from "../live/stream-trace";

/** What ingest knows about one hit; `page` is undefined for a heartbeat. */
export interface Hit {
  sessionId: string;
  page?: string;
  referrer?: string;
  userAgent: string;
  ip: string;
  ipPrefix: string | null;
  city: string;
  country: string;
  at: number;
}

const DAY_KEY_TTL_SECONDS = 3 * 24 * 3600;
const WEEK_KEY_TTL_SECONDS = 15 * 24 * 3600;
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
// KEYS: active zset, stream, then per hit: visitor hash, day HLL, week HLL, today's views zset.
// ARGV: hit count, day ttl s, week ttl s, backlog bound, active cutoff (trim below), hash ttl ms,
//       then per hit: session, at, ua, ip, city, country, page, isView, referrer, ip prefix,
//       then the trace context for the stream entries ("" when tracing is off: live/stream-trace.ts).
// Per hit only its own hash and stream entry are written; the shared structures (active set, the
// day/week HLLs, today's page counts) get one command per key or page for the whole run, and each
// shared key's expiry is set once: a run of 100 hits costs ~300 commands instead of ~1,100.
// A full backlog refuses the whole run before writing anything, so no hit is half recorded.
const RECORD_SCRIPT = `
local n, dayTtl, weekTtl, maxLen = tonumber(ARGV[1]), ARGV[2], ARGV[3], tonumber(ARGV[4])
local hashTtl = ARGV[6]
local tc = ARGV[#ARGV] ~= "" and { "tc", ARGV[#ARGV] } or {}
if redis.call("XLEN", KEYS[2]) >= maxLen then return ${BACKLOG_FULL} end
local active, members, counts, ttl = {}, {}, {}, {}
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", "(" .. ARGV[5])
for i = 0, n - 1 do
  local k, a = 2 + i * 4, 6 + i * 10
  local sid, at, ua, ip = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]
  local city, country, page, isView = ARGV[a + 5], ARGV[a + 6], ARGV[a + 7], ARGV[a + 8]
  if isView == "1" then
    redis.call("HSET", KEYS[k + 1], "ua", ua, "ip", ip, "city", city, "country", country, "lastSeen", at,
      "page", page)
    local views = KEYS[k + 4]
    counts[views] = counts[views] or {}
    counts[views][page] = (counts[views][page] or 0) + 1
    ttl[views] = dayTtl
  else
    redis.call("HSET", KEYS[k + 1], "ua", ua, "ip", ip, "city", city, "country", country, "lastSeen", at)
  end
  redis.call("PEXPIRE", KEYS[k + 1], hashTtl)
  active[#active + 1] = at
  active[#active + 1] = sid
  for j, key in ipairs({ KEYS[k + 2], KEYS[k + 3] }) do
    members[key] = members[key] or {}
    table.insert(members[key], sid)
    ttl[key] = (j == 1) and dayTtl or weekTtl
  end
  redis.call("XADD", KEYS[2], "*", "s", sid, "t", at, "p", page, "v", isView,
    "r", ARGV[a + 9], "u", ua, "i", ARGV[a + 10], "ci", city, "co", country, unpack(tc))
end
if n > 0 then redis.call("ZADD", KEYS[1], unpack(active)) end
for key, sids in pairs(members) do redis.call("PFADD", key, unpack(sids)) end
for key, pages in pairs(counts) do
  for page, c in pairs(pages) do redis.call("ZINCRBY", key, c, page) end
end
for key, seconds in pairs(ttl) do redis.call("EXPIRE", key, seconds) end
return n
`;
/** Hits per script run: keeps each run (Redis runs it without interruption) well under a millisecond. */
const RECORD_CHUNK = 100;
const RECORD_SHA = createHash("sha1").update(RECORD_SCRIPT).digest("hex");

/**
 * Live visitor state in Redis, answered without scans:
 * - visitor:<session>      hash (page, ua, ip, city, country, lastSeen), expires on its own;
 * - active                 sorted set session→lastSeen, trimmed by score;
 * - uv:day:<date>, uv:week:<isoWeek>  HyperLogLogs of sessions (Amsterdam date / ISO week);
 * - views:day:<date>       sorted set page→views today;
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
    const k = this.keys;
    const keys = [this.activeKey, this.streamKey];
    let latest = 0;
    for (const hit of hits) latest = Math.max(latest, hit.at);
    const args: (string | number)[] = [
      hits.length,
      DAY_KEY_TTL_SECONDS,
      WEEK_KEY_TTL_SECONDS,
      this.backlogMax,
      latest - this.activeWindowMs,
      this.activeWindowMs + 60_000,
    ];
    for (const hit of hits) {
      const { day, week } = calendarKeys(hit.at);
      keys.push(
        k("tracking", "visitor", hit.sessionId),
        k("tracking", "uv", "day", day),
        k("tracking", "uv", "week", week),
        k("tracking", "views", "day", day),
      );
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
        hit.ipPrefix ?? "",
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

  async stats(now: number): Promise<VisitorStats> {
    const { day, week } = calendarKeys(now);
    const k = this.keys;
    const results = await this.redis
      .pipeline()
      .zcount(this.activeKey, now - this.activeWindowMs, "+inf")
      .pfcount(k("tracking", "uv", "day", day))
      .pfcount(k("tracking", "uv", "week", week))
      .zrevrange(k("tracking", "views", "day", day), 0, 9, "WITHSCORES")
      .exec();
    const value = (i: number) => {
      const [err, v] = results![i]!;
      if (err) throw err;
      return v;
    };
    const flat = value(3) as string[];
    const topPages: TopPage[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2)
      topPages.push({ page: flat[i]!, views: Number(flat[i + 1]) });
    return {
      currentActive: Number(value(0)),
      todayTotal: Number(value(1)),
      thisWeekTotal: Number(value(2)),
      topPages,
    };
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
