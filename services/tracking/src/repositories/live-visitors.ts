import { createHash } from "node:crypto";
import type { ActiveVisitor } from "@lease/contracts";
import type { Keyspace, Redis } from "@lease/platform";
import { streamTraceContext } from "../jobs/stream-trace";

/** What ingest knows about one hit; `page` is undefined for a heartbeat. */
export interface Hit {
  sessionId: string;
  /** The page as the live list shows it and as the stream carries it (domain/pages.ts). */
  page?: { path: string; withQuery: string };
  referrer?: string;
  /** The visit's landing page sent again at consent: a visit start for the writer, no page view. */
  consented?: boolean;
  /** For the writer's device, browser and OS (the stream only; never stored as such). */
  userAgent: string;
  /** The address as the live list shows it: its block (domain/ip-prefix.ts ipPrefix), or ''. */
  ipPrefix: string;
  /** Without analytics consent: the live list shows neither address nor user agent. */
  anonymous: boolean;
  /** The block of addresses whose budget the hit counts against (domain/ip-prefix.ts budgetBlock). */
  block: string;
  /**
   * A keyed hash of the address's block under the day's salt (domain/anonymous-id.ts sourceTag): the
   * writer counts from how many blocks a new campaign value came (domain/admission.ts); '' if unknown.
   */
  sourceTag: string;
  city: string;
  country: string;
  at: number;
}

/** Per address block (and session) and minute; beyond any of them, hits are answered but not recorded. */
export interface IngestBudget {
  newSessionsPerMinute: number;
  /** Page views and heartbeats together; below 1,000,000 (both counts share one number). */
  hitsPerMinute: number;
  /** Page views (stored rows) of one address block. */
  viewsPerMinute: number;
  /** Page views of one session: about what the fastest reader clicks. */
  viewsPerSessionPerMinute: number;
}

export const DEFAULT_BUDGET: IngestBudget = {
  newSessionsPerMinute: 300,
  hitsPerMinute: 6000,
  viewsPerMinute: 1500,
  viewsPerSessionPerMinute: 60,
};
/** Live sessions kept at most (~450 bytes each with their hash); beyond it the oldest are dropped. */
export const ACTIVE_SESSIONS_MAX = 50_000;

export interface LiveVisitorsOptions {
  /** A session is active this long after its last hit. */
  activeWindowMs: number;
  backlogMax?: number;
  activeMax?: number;
  /** DEFAULT_BUDGET where not given. */
  budget?: Partial<IngestBudget>;
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

// Records a batch of hits in one call (hits that arrive together share one script run).
// KEYS: active zset, stream, this minute's budget hash, then per hit: its visitor hash.
// ARGV: hit count, backlog bound, active cutoff (trim below), hash ttl ms, active bound,
//       new sessions and hits per block and minute, budget ttl ms, visitor key prefix,
//       page views per block and minute, page views per session and minute, the minute's number,
//       then per hit: session, at, ua, ip prefix, city, country, page, page with query ("" when
//       the same), isView ("1" a page view, "0" a heartbeat, "2" the landing page sent again at
//       consent: a visit start, no page view), referrer, budget block, anonymous ("1"/"0"),
//       source tag,
//       then the trace context for the stream entries ("" when tracing is off: jobs/stream-trace.ts).
// Per hit only its own hash and stream entry are written, and the active set gets one ZADD for the
// whole run. Counts of the day, week and pages are not kept here: the Postgres writer keeps them
// (rollups), once, from the stream. A full backlog refuses the whole run before writing anything,
// so no hit is half recorded. A hit beyond its block's budget (a hit that starts a session counts
// as a new session, every hit as a hit, a page view also as a page view of its block and of its
// session: the session's count of the minute lives in its own hash, fields vm and vn) writes nothing. The active set keeps at most its bound:
// the sessions seen longest ago leave it, with their hashes (keys the script builds from the
// visitor key prefix: one Redis, never a cluster, as everywhere in this project).
// Answers the positions (from 0) of the hits refused as over budget; usually none.
const RECORD_SCRIPT = `
local n, maxLen, hashTtl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[4]
local activeMax, maxNew, maxHits = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local budgetTtl, visitorPrefix, budget = ARGV[8], ARGV[9], KEYS[3]
local maxViews, maxSessionViews, minute = tonumber(ARGV[10]), tonumber(ARGV[11]), ARGV[12]
local tc = ARGV[#ARGV] ~= "" and { "tc", ARGV[#ARGV] } or {}
if redis.call("XLEN", KEYS[2]) >= maxLen then return ${BACKLOG_FULL} end
-- Per block: sessions started, hits and page views recorded this minute, as read and as now.
local read, started, hits, views, active, refused = {}, {}, {}, {}, {}, {}
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", "(" .. ARGV[3])
for i = 0, n - 1 do
  local key, a = KEYS[4 + i], 12 + i * 13
  local sid, at, ua, ip = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]
  local city, country, page, streamPage = ARGV[a + 5], ARGV[a + 6], ARGV[a + 7], ARGV[a + 8]
  local isView, block, anon = ARGV[a + 9], ARGV[a + 11], ARGV[a + 12]
  if read[block] == nil then
    -- One field per block: sessions * 1e6 + hits (hits per minute stay below 1e6: config.ts).
    local v = tonumber(redis.call("HGET", budget, block)) or 0
    read[block] = v
    started[block] = math.floor(v / 1000000)
    hits[block] = v % 1000000
    views[block] = tonumber(redis.call("HGET", budget, block .. "|v")) or 0
  end
  local ok = hits[block] < maxHits
  local sessionViews = 0
  if ok and isView == "1" then
    ok = views[block] < maxViews
    if ok then
      local seen = redis.call("HMGET", key, "vm", "vn")
      if seen[1] == minute then sessionViews = tonumber(seen[2]) or 0 end
      ok = sessionViews < maxSessionViews
    end
  end
  -- With sessions left the write itself tells whether the session is new; without, ask first.
  if ok and started[block] >= maxNew then ok = redis.call("EXISTS", key) == 1 end
  if ok then
    local shownUa = anon == "1" and "" or ua
    local added
    if isView == "1" then
      added = redis.call("HSET", key, "ua", shownUa, "ip", ip, "city", city, "country", country,
        "lastSeen", at, "an", anon, "page", page, "vm", minute, "vn", sessionViews + 1)
      views[block] = views[block] + 1
    else
      added = redis.call("HSET", key, "ua", shownUa, "ip", ip, "city", city, "country", country,
        "lastSeen", at, "an", anon)
    end
    -- A new hash gets at least six fields written; a known one at most its first page and count.
    if added >= 6 then started[block] = started[block] + 1 end
    hits[block] = hits[block] + 1
    redis.call("PEXPIRE", key, hashTtl)
    active[#active + 1] = at
    active[#active + 1] = sid
    redis.call("XADD", KEYS[2], "*", "s", sid, "t", at, "p", streamPage ~= "" and streamPage or page,
      "v", isView, "r", ARGV[a + 10], "u", ua, "ci", city, "co", country, "b", ARGV[a + 13], unpack(tc))
  else
    refused[#refused + 1] = i
  end
end
if #active > 0 then redis.call("ZADD", KEYS[1], unpack(active)) end
local spent = {}
for block, v in pairs(read) do
  local now = started[block] * 1000000 + hits[block]
  if now ~= v then
    spent[#spent + 1] = block
    spent[#spent + 1] = now
    spent[#spent + 1] = block .. "|v"
    spent[#spent + 1] = views[block]
  end
end
if #spent > 0 then
  redis.call("HSET", budget, unpack(spent))
  redis.call("PEXPIRE", budget, budgetTtl)
end
local over = redis.call("ZCARD", KEYS[1]) - activeMax
if over > 0 then
  local gone = redis.call("ZPOPMIN", KEYS[1], over)
  for j = 1, #gone, 2 do redis.call("DEL", visitorPrefix .. gone[j]) end
end
return refused
`;
/** Hits per script run: keeps each run (Redis runs it without interruption) well under a millisecond. */
const RECORD_CHUNK = 100;
const RECORD_SHA = createHash("sha1").update(RECORD_SCRIPT).digest("hex");

/** The budget counts per minute; its hash outlives the minute only long enough to be read. */
const BUDGET_WINDOW_MS = 60_000;

/**
 * Live visitor state in Redis, answered without scans, every key bounded:
 * - visitor:<session>      hash (page, ua, ip block, city, country, lastSeen, an, and vm/vn: the
 *                          minute of its last page view and its page views in it), expires on its own;
 * - active                 sorted set session→lastSeen, trimmed by score and by size;
 * - budget:<minute>        hash block→new sessions and hits of the minute, block|v→its page views,
 *                          expires after 2 minutes;
 * - stream                 events for the Postgres writer, bounded by the backlog bound.
 */
export class LiveVisitors {
  readonly streamKey: string;
  private readonly activeKey: string;
  private readonly activeWindowMs: number;
  private readonly backlogMax: number;
  private readonly activeMax: number;
  private readonly budget: IngestBudget;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keyspace,
    options: LiveVisitorsOptions,
  ) {
    this.streamKey = keys("tracking", "stream");
    this.activeKey = keys("tracking", "active");
    this.activeWindowMs = options.activeWindowMs;
    this.backlogMax = options.backlogMax ?? STREAM_BACKLOG_MAX;
    this.activeMax = options.activeMax ?? ACTIVE_SESSIONS_MAX;
    this.budget = { ...DEFAULT_BUDGET, ...options.budget };
    if (this.budget.hitsPerMinute >= 1_000_000)
      throw new RangeError("hitsPerMinute must stay below 1,000,000");
  }

  private pending: { hit: Hit; resolve: (recorded: boolean) => void; reject: (err: unknown) => void }[] = [];

  /**
   * Records one hit. Hits recorded in the same tick (a gateway batch, a burst) go to Redis
   * together: one server-side script run per 100 hits does all their writes, instead of a script
   * call per hit. Resolves once Redis has them: true when recorded, false when the hit was beyond
   * its address block's budget (nothing written); rejects (Redis away) for every hit of that run.
   */
  record(hit: Hit): Promise<boolean> {
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
        (refused) => chunk.forEach((p, j) => p.resolve(!refused.has(j))),
        (err: unknown) => chunk.forEach((p) => p.reject(err)),
      );
    }
  }

  private async run(hits: Hit[]): Promise<Set<number>> {
    let latest = 0;
    for (const hit of hits) latest = Math.max(latest, hit.at);
    const minute = Math.floor(latest / BUDGET_WINDOW_MS);
    const keys = [this.activeKey, this.streamKey, this.keys("tracking", "budget", minute)];
    const args: (string | number)[] = [
      hits.length,
      this.backlogMax,
      latest - this.activeWindowMs,
      this.activeWindowMs + 60_000,
      this.activeMax,
      this.budget.newSessionsPerMinute,
      this.budget.hitsPerMinute,
      2 * BUDGET_WINDOW_MS,
      this.keys("tracking", "visitor", ""),
      this.budget.viewsPerMinute,
      this.budget.viewsPerSessionPerMinute,
      String(minute),
    ];
    for (const hit of hits) {
      keys.push(this.keys("tracking", "visitor", hit.sessionId));
      args.push(
        hit.sessionId,
        hit.at,
        hit.userAgent,
        hit.ipPrefix,
        hit.city,
        hit.country,
        hit.page?.path ?? "",
        // Only when it differs: most pages have no query string.
        hit.page && hit.page.withQuery !== hit.page.path ? hit.page.withQuery : "",
        hit.page ? (hit.consented ? "2" : "1") : "0",
        hit.referrer ?? "",
        hit.block,
        hit.anonymous ? "1" : "0",
        hit.sourceTag,
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
    return new Set(written as number[]);
  }

  /**
   * Whether every hit recorded up to `ms` is written to Postgres: the writer deletes the entries it
   * wrote, so the stream then holds none up to that time (entry ids are Redis's clock in ms).
   */
  async writtenThrough(ms: number): Promise<boolean> {
    const first = await this.redis.xrange(this.streamKey, "-", String(Math.floor(ms)), "COUNT", 1);
    return first.length === 0;
  }

  /** Sessions seen within the active window. */
  async currentActive(now: number): Promise<number> {
    return this.redis.zcount(this.activeKey, now - this.activeWindowMs, "+inf");
  }

  /**
   * Most recently seen first: `limit` from `offset` (a page of the panel's list; the caller bounds
   * both). A session whose hash expired between the two reads is left out of its page.
   */
  async active(now: number, offset: number, limit: number): Promise<ActiveVisitor[]> {
    const ids = await this.redis.zrevrangebyscore(
      this.activeKey,
      "+inf",
      now - this.activeWindowMs,
      "LIMIT",
      offset,
      limit,
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
        anonymous: v.an === "1",
        lastSeen: new Date(Number(v.lastSeen)).toISOString(),
      });
    });
    return list;
  }
}
