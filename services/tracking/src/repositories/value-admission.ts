import { createHash } from "node:crypto";
import type { Keyspace, Pool, Redis } from "@lease/platform";
import { addDays } from "../domain/calendar";
import {
  ADMITTED_FIELDS,
  DEFAULT_ADMISSION,
  type AdmissionLimits,
  type AdmittedField,
  type ValueGate,
  type VisitValues,
} from "../domain/admission";
import { OTHER } from "../domain/breakdowns";

/** Per-day keys outlive their day by a day (a batch written late still finds them). */
const DAY_KEY_TTL_MS = 2 * 86_400_000;
/** Visits per script run (Redis runs each uninterrupted): a few milliseconds at most. */
const CHUNK = 100;

// The admission of a batch's visits (domain/admission.ts), in one script run per 100 visits.
// ARGV: key prefix, blocks, free per block, free per day, new per day, per block, candidates,
//       vouchers, established days, established max, profiles per day, profiles per block,
//       day key ttl ms,
//       "(overig)", visit count,
//       then per visit: day, day number (days since 1970), source tag, rest, then the six values.
// Keys (built from the prefix; one Redis, never a cluster, as everywhere in this project):
//   est:<field>            zset value -> day number it was last stored by name (bounded by size)
//   est:profile            zset combination -> day number it was last stored as it is (one of
//                          the day's budget), established like a value (bounded by size)
//   est:triple             zset source/medium/campaign stored (16 hex digits of a SHA-1) -> day
//   cand:<day>:<field>     hash value -> the source tags it came from so far, space-separated
//   vouch:<day>            hash "<field>:<tag>" -> new values of the field the block sent that day,
//                          "profile:<tag>" -> new combinations it brought
//   new:<day>              hash "free:<field>" / "vouched:<field>" -> new values stored by name
//                          that day on a block's first sight / from several blocks
//   profiles:<day>         set of the day's new combinations (16 hex digits of a SHA-1)
// Answers per visit the bits of domain/admission.ts (values stored as "(overig)", combination over:
// the visit is stored under its coarse profile).
const SCRIPT = `
local P = ARGV[1]
local need, freeBlock, freeDay = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local newMax, perBlock, candMax = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local vouchMax, estDays, estMax = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local profMax, profBlock, ttl, other = tonumber(ARGV[11]), tonumber(ARGV[12]), ARGV[13], ARGV[14]
local n = tonumber(ARGV[15])
-- Combinations and triples enter the established sets only within the day's budget: no more than
-- that many days' worth can be there.
local comboMax = profMax * (estDays + 1)
local FIELDS = { "source", "medium", "campaign", "term", "content", "referrer" }
local memo, touched, trimmed = {}, {}, {}
local function touch(key)
  if not touched[key] then touched[key] = true; redis.call("PEXPIRE", key, ttl) end
end
-- The score of a member of an established set if it is fresh (stored on one of the last days),
-- after dropping the stale ones once per run.
local function fresh(est, member, dayNum)
  if not trimmed[est] then
    trimmed[est] = true
    redis.call("ZREMRANGEBYSCORE", est, "-inf", "(" .. (dayNum - estDays))
  end
  local seen = redis.call("ZSCORE", est, member)
  if seen and tonumber(seen) >= dayNum - estDays then return tonumber(seen) end
  return nil
end
-- Marks a member of an established set as stored today, keeping the set within max.
local function stored(est, member, dayNum, max)
  redis.call("ZADD", est, "GT", dayNum, member)
  local over = redis.call("ZCARD", est) - max
  if over > 0 then redis.call("ZPOPMIN", est, over) end
end
local function admit(field, value, day, dayNum, tag)
  local est = P .. "est:" .. field
  local seen = fresh(est, value, dayNum)
  if seen then
    if seen < dayNum then redis.call("ZADD", est, dayNum, value) end
    return true
  end
  if tag == "" then return false end
  local cand = P .. "cand:" .. day .. ":" .. field
  local tags = redis.call("HGET", cand, value)
  if tags and string.find(" " .. tags .. " ", " " .. tag .. " ", 1, true) then return false end
  -- What this block did for new values of the field today: bounded, whatever it sends.
  local vouch, vouchKey = P .. "vouch:" .. day, field .. ":" .. tag
  local used = tonumber(redis.call("HGET", vouch, vouchKey) or "0")
  if used >= perBlock then return false end
  if used == 0 and redis.call("HLEN", vouch) >= vouchMax then return false end
  redis.call("HINCRBY", vouch, vouchKey, 1)
  touch(vouch)
  local count = P .. "new:" .. day
  local admitted = false
  if used < freeBlock and tonumber(redis.call("HGET", count, "free:" .. field) or "0") < freeDay then
    redis.call("HINCRBY", count, "free:" .. field, 1)
    admitted = true
  else
    tags = tags and (tags .. " " .. tag) or tag
    local _, spaces = string.gsub(tags, " ", "")
    if spaces + 1 >= need and tonumber(redis.call("HGET", count, "vouched:" .. field) or "0") < newMax then
      redis.call("HINCRBY", count, "vouched:" .. field, 1)
      admitted = true
    end
  end
  if admitted then
    touch(count)
    redis.call("HDEL", cand, value)
    stored(est, value, dayNum, estMax)
    return true
  end
  if redis.call("HEXISTS", cand, value) == 1 or redis.call("HLEN", cand) < candMax then
    redis.call("HSET", cand, value, tags)
    touch(cand)
  end
  return false
end
local estProfile, estTriple = P .. "est:profile", P .. "est:triple"
local out = {}
for v = 0, n - 1 do
  local a = 16 + v * 10
  local day, dayNum, tag, rest = ARGV[a], tonumber(ARGV[a + 1]), ARGV[a + 2], ARGV[a + 3]
  local bits, bit, kept = 0, 1, {}
  for f = 1, 6 do
    local value = ARGV[a + 3 + f]
    local ok = true
    if value ~= "" and value ~= other then
      local m = day .. "\\0" .. f .. "\\0" .. tag .. "\\0" .. value
      ok = memo[m]
      if ok == nil then
        ok = admit(FIELDS[f], value, day, dayNum, tag)
        memo[m] = ok
      end
    end
    if ok then kept[f] = value else kept[f] = other; bits = bits + bit end
    bit = bit * 2
  end
  local campaign = kept[1] ~= "" or kept[2] ~= "" or kept[3] ~= ""
  local triple = string.sub(redis.sha1hex(kept[1] .. "\\0" .. kept[2] .. "\\0" .. kept[3]), 1, 16)
  local profiles = P .. "profiles:" .. day
  local combination = string.sub(redis.sha1hex(rest .. "\\0" .. table.concat(kept, "\\0")), 1, 16)
  if redis.call("SISMEMBER", profiles, combination) == 1 then
    -- Stored as it is today already.
  elseif fresh(estProfile, combination, dayNum) then
    -- Stored as it is on one of the last days: established, it takes none of the day's budget.
    stored(estProfile, combination, dayNum, comboMax)
    if campaign then stored(estTriple, triple, dayNum, comboMax) end
  else
    -- A new combination: within the day's bound and its block's share of it.
    local vouch, vouchKey = P .. "vouch:" .. day, "profile:" .. tag
    local used = tonumber(redis.call("HGET", vouch, vouchKey) or "0")
    if redis.call("SCARD", profiles) < profMax and used < profBlock
        and (used > 0 or redis.call("HLEN", vouch) < vouchMax) then
      redis.call("SADD", profiles, combination)
      touch(profiles)
      redis.call("HINCRBY", vouch, vouchKey, 1)
      touch(vouch)
      stored(estProfile, combination, dayNum, comboMax)
      if campaign then stored(estTriple, triple, dayNum, comboMax) end
    else
      -- Beyond the budget: the coarse profile, which keeps only what is bounded by what was stored
      -- before (domain/admission.ts): its campaign by name when that source/medium/campaign was
      -- stored on one of the last days, its referrer by name when it has no source.
      bits = bits + bit
      local keepCampaign = campaign and fresh(estTriple, triple, dayNum) ~= nil
      local keep = { keepCampaign, keepCampaign, keepCampaign, false, false, kept[1] == "" }
      local fbit = 1
      for f = 1, 6 do
        if not keep[f] and kept[f] ~= "" and kept[f] ~= other then bits = bits + fbit end
        fbit = fbit * 2
      end
      if keepCampaign then stored(estTriple, triple, dayNum, comboMax) end
    end
  end
  out[#out + 1] = bits
end
return out
`;
const SHA = createHash("sha1").update(SCRIPT).digest("hex");

/** Days since 1970-01-01 of a YYYY-MM-DD day. */
function dayNumber(day: string): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
}

/** A stored profile's columns, as Postgres answers them. */
interface ProfileRow {
  channel: string;
  paid_click: boolean;
  country: string;
  device: string;
  browser: string;
  os: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_term: string;
  utm_content: string;
  referrer_host: string;
}

/** The profile's values in the order of ADMITTED_FIELDS. */
function storedValues(p: ProfileRow): string[] {
  return [p.utm_source, p.utm_medium, p.utm_campaign, p.utm_term, p.utm_content, p.referrer_host];
}

/** The bounded columns as the writer joins them (VisitValues.rest). */
function restOf(p: ProfileRow): string {
  return [p.channel, String(p.paid_click), p.country, p.device, p.browser, p.os].join("\u0000");
}

// As the script computes them: 16 hex digits of a SHA-1 over the parts joined by NUL.
const sha16 = (parts: string[]) => createHash("sha1").update(parts.join("\u0000")).digest("hex").slice(0, 16);
const combinationOf = (rest: string, values: string[]) => sha16([rest, ...values]);
const tripleOf = (values: string[]) => sha16(values.slice(0, 3));

/**
 * The admission of new UTM values, referrer hosts and profile combinations of live traffic
 * (domain/admission.ts), kept in Redis so that every replica's writer decides alike; every key is
 * bounded in size and the per-day ones expire a day after their day.
 */
export class SharedValueGate implements ValueGate {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    keys: Keyspace,
    private readonly limits: AdmissionLimits = DEFAULT_ADMISSION,
  ) {
    this.prefix = keys("tracking", "values", "");
  }

  /**
   * Makes the values, combinations and campaigns (source / medium / campaign) stored by name on
   * the last 30 days (by a visit, or by the visit of a conversion) established again from Postgres:
   * at start and daily, so that a Redis that lost its keys, or a first start, never treats a
   * running campaign as new. Answers how many values.
   */
  async seed(pool: Pool, today: string): Promise<number> {
    const r = await pool.query<ProfileRow & { day: string }>(
      `WITH used AS (
         SELECT profile_id, max(day) AS day FROM (
           SELECT profile_id, day FROM tracking.daily_visits WHERE day >= $1
           UNION ALL
           SELECT profile_id, day FROM tracking.conversions WHERE day >= $1 AND profile_id IS NOT NULL
         ) v GROUP BY profile_id
       )
       SELECT p.channel, p.paid_click, p.country, p.device, p.browser, p.os, p.utm_source,
              p.utm_medium, p.utm_campaign, p.utm_term, p.utm_content, p.referrer_host,
              to_char(u.day, 'YYYY-MM-DD') AS day
       FROM used u JOIN tracking.profiles p ON p.id = u.profile_id
       ORDER BY u.day DESC LIMIT $2`,
      [addDays(today, -this.limits.establishedDays), this.comboMax],
    );
    const values = new Map<string, number>();
    // In pipelines of a few thousand commands: the month's profiles may be tens of thousands.
    let p = this.redis.pipeline();
    const flush = async () => {
      const results = (await p.exec()) ?? [];
      const failed = results.find(([err]) => err)?.[0];
      if (failed) throw failed;
      p = this.redis.pipeline();
    };
    for (const row of r.rows) {
      const day = dayNumber(row.day);
      const kept = storedValues(row);
      ADMITTED_FIELDS.forEach((field, i) => {
        const value = kept[i]!;
        const key = `${field}\u0000${value}`;
        if (value === "" || value === OTHER || (values.get(key) ?? -1) >= day) return;
        values.set(key, day);
        p.zadd(`${this.prefix}est:${field}`, "GT", day, value);
      });
      p.zadd(`${this.prefix}est:profile`, "GT", day, combinationOf(restOf(row), kept));
      if (kept[0] || kept[1] || kept[2]) p.zadd(`${this.prefix}est:triple`, "GT", day, tripleOf(kept));
      if (p.length >= 5000) await flush();
    }
    // The most recently seen stay when there are more than the bound.
    for (const field of ADMITTED_FIELDS)
      p.zremrangebyrank(`${this.prefix}est:${field}`, 0, -(this.limits.established + 1));
    for (const set of ["profile", "triple"])
      p.zremrangebyrank(`${this.prefix}est:${set}`, 0, -(this.comboMax + 1));
    await flush();
    return values.size;
  }

  /**
   * Which of these values are stored by name on one of the last 30 days up to `day` (established):
   * a lead waiting for its visit's value asks (repositories/reattribution.ts).
   */
  async established(day: string, values: { field: AdmittedField; value: string }[]): Promise<boolean[]> {
    if (values.length === 0) return [];
    const p = this.redis.pipeline();
    for (const { field, value } of values) p.zscore(`${this.prefix}est:${field}`, value);
    const results = (await p.exec()) ?? [];
    const oldest = dayNumber(day) - this.limits.establishedDays;
    return results.map(([err, score]) => {
      if (err) throw err;
      return score !== null && Number(score) >= oldest;
    });
  }

  /**
   * A lead's campaign (source / medium / campaign, its values stored by name) counts as stored on
   * `day`: a quote request is proof of a real visitor, so later visits of that campaign keep its
   * name under a spent budget too (their coarse profile). Bounded by the leads.
   */
  async vouchForCampaign(day: string, source: string, medium: string, campaign: string): Promise<void> {
    await this.redis.zadd(
      `${this.prefix}est:triple`,
      "GT",
      dayNumber(day),
      tripleOf([source, medium, campaign]),
    );
  }

  /** The day stamp of the new values stored by name so far (changes whenever one is admitted). */
  async admittedStamp(day: string): Promise<string> {
    const counts = await this.redis.hgetall(`${this.prefix}new:${day}`);
    return `${day} ${Object.entries(counts).sort().join(",")}`;
  }

  private get comboMax(): number {
    return this.limits.profilesPerDay * (this.limits.establishedDays + 1);
  }

  async check(visits: VisitValues[]): Promise<number[]> {
    const chunks: Promise<number[]>[] = [];
    for (let i = 0; i < visits.length; i += CHUNK) chunks.push(this.run(visits.slice(i, i + CHUNK)));
    return (await Promise.all(chunks)).flat();
  }

  private async run(visits: VisitValues[]): Promise<number[]> {
    const l = this.limits;
    const args: (string | number)[] = [
      this.prefix,
      l.blocks,
      l.freePerBlock,
      l.freePerDay,
      l.newPerDay,
      l.perBlock,
      l.candidates,
      l.vouchers,
      l.establishedDays,
      l.established,
      l.profilesPerDay,
      l.profilesPerBlock,
      DAY_KEY_TTL_MS,
      OTHER,
      visits.length,
    ];
    for (const v of visits)
      args.push(v.day, dayNumber(v.day), v.tag, v.rest, ...ADMITTED_FIELDS.map((f) => v.values[f]));
    try {
      return (await this.redis.evalsha(SHA, 0, ...args)) as number[];
    } catch (err) {
      if (!String((err as Error).message).startsWith("NOSCRIPT")) throw err;
      return (await this.redis.eval(SCRIPT, 0, ...args)) as number[];
    }
  }
}
