import { randomBytes } from "node:crypto";
import type { Keyspace, Redis } from "@lease/platform";
import { addDays, dayOf, dayStart } from "../domain/calendar";

/** A replica re-reads the day's salt this often, so all replicas agree even after Redis lost it. */
const REFRESH_MS = 60_000;

/** Redis key of an Amsterdam day's salt: `${REDIS_PREFIX}:tracking:salt:<YYYY-MM-DD>`. */
export function daySaltKey(keys: Keyspace, day: string): string {
  return keys("tracking", "salt", day);
}

/**
 * The salt of anonymous visitor ids (domain/anonymous-id.ts), one per Amsterdam day. It lives only
 * in Redis, with an expiry at the day's end, and in the memory of the replicas: the first replica
 * to need it creates it (SET NX), every other one reads that one. Nothing keeps it past the day,
 * so yesterday's ids cannot be recomputed from an address.
 */
export class DaySalts {
  private cached: { day: string; salt: string; readAt: number } | undefined;
  private reading: { day: string; salt: Promise<string> } | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keyspace,
  ) {}

  /** The salt of the Amsterdam day `now` falls in. */
  current(now: number): Promise<string> | string {
    const { day } = dayOf(now);
    const c = this.cached;
    if (c && c.day === day && now - c.readAt < REFRESH_MS) return c.salt;
    if (this.reading?.day === day) return this.reading.salt;
    const reading = {
      day,
      salt: this.read(day, now).finally(() => {
        if (this.reading === reading) this.reading = undefined;
      }),
    };
    this.reading = reading;
    return reading.salt;
  }

  private async read(day: string, now: number): Promise<string> {
    // Ours (kept, or new) unless another replica's is there: then that one, for everybody.
    const mine = this.cached?.day === day ? this.cached.salt : randomBytes(32).toString("hex");
    const ttl = Math.max(1000, dayStart(addDays(day, 1)) - now);
    const existing = await this.redis.set(daySaltKey(this.keys, day), mine, "PX", ttl, "NX", "GET");
    const salt = existing ?? mine;
    this.cached = { day, salt, readAt: now };
    return salt;
  }
}
