import { createHash } from "node:crypto";
import type { ActiveVisitor, TopPage, VisitorStats } from "@lease/contracts";
import type { Keyspace, Redis } from "@lease/platform";
import { calendarKeys } from "../domain/calendar";

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
/** Upper bound on the stream while Postgres is away; beyond it the oldest events are dropped. */
const STREAM_MAX_LEN = 200_000;
export const MAX_ACTIVE_LIST = 200;

// KEYS: visitor hash, active zset, day HLL, week HLL, today's page views zset, stream.
// ARGV: session, at, active cutoff, hash ttl ms, ua, ip, city, country, page, isView, referrer,
//       ip prefix, day ttl s, week ttl s, stream max length.
const RECORD_SCRIPT = `
local sid, at = ARGV[1], ARGV[2]
redis.call("HSET", KEYS[1], "ua", ARGV[5], "ip", ARGV[6], "city", ARGV[7], "country", ARGV[8], "lastSeen", at)
if ARGV[10] == "1" then
  redis.call("HSET", KEYS[1], "page", ARGV[9])
  redis.call("ZINCRBY", KEYS[5], 1, ARGV[9])
  redis.call("EXPIRE", KEYS[5], ARGV[13])
end
redis.call("PEXPIRE", KEYS[1], ARGV[4])
redis.call("ZADD", KEYS[2], at, sid)
redis.call("ZREMRANGEBYSCORE", KEYS[2], "-inf", "(" .. ARGV[3])
redis.call("PFADD", KEYS[3], sid)
redis.call("EXPIRE", KEYS[3], ARGV[13])
redis.call("PFADD", KEYS[4], sid)
redis.call("EXPIRE", KEYS[4], ARGV[14])
redis.call("XADD", KEYS[6], "MAXLEN", "~", ARGV[15], "*", "s", sid, "t", at, "p", ARGV[9], "v", ARGV[10],
  "r", ARGV[11], "u", ARGV[5], "i", ARGV[12], "ci", ARGV[7], "co", ARGV[8])
return 1
`;
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
  ) {
    this.streamKey = keys("tracking", "stream");
    this.activeKey = keys("tracking", "active");
  }

  /** One round trip per hit: a server-side script does all writes (cheaper than 12 commands). */
  async record(hit: Hit): Promise<void> {
    const { day, week } = calendarKeys(hit.at);
    const k = this.keys;
    const isView = hit.page !== undefined;
    const keys = [
      k("tracking", "visitor", hit.sessionId),
      this.activeKey,
      k("tracking", "uv", "day", day),
      k("tracking", "uv", "week", week),
      k("tracking", "views", "day", day),
      this.streamKey,
    ];
    const args = [
      hit.sessionId,
      String(hit.at),
      String(hit.at - this.activeWindowMs),
      String(this.activeWindowMs + 60_000),
      hit.userAgent,
      hit.ip,
      hit.city,
      hit.country,
      hit.page ?? "",
      isView ? "1" : "0",
      hit.referrer ?? "",
      hit.ipPrefix ?? "",
      String(DAY_KEY_TTL_SECONDS),
      String(WEEK_KEY_TTL_SECONDS),
      String(STREAM_MAX_LEN),
    ];
    try {
      await this.redis.evalsha(RECORD_SHA, keys.length, ...keys, ...args);
    } catch (err) {
      if (!String((err as Error).message).startsWith("NOSCRIPT")) throw err;
      await this.redis.eval(RECORD_SCRIPT, keys.length, ...keys, ...args);
    }
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
