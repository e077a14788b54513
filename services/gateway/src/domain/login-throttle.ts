import { addressBlock, type Keyspace, type Redis } from "@lease/platform";

export interface ThrottleOptions {
  /** Failures allowed per username from one address (an IPv6 /64) within the window. */
  maxFailures: number;
  /** Failures allowed per address within the window, whatever the usernames. */
  maxAddressFailures: number;
  windowMs: number;
  /** First lockout; each further one of the same pair or address doubles, up to maxLockMs. */
  baseLockMs: number;
  maxLockMs: number;
  /** How long a lockout level is remembered (for the doubling). */
  levelMemoryMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = {
  maxFailures: 5,
  maxAddressFailures: 20,
  windowMs: 15 * 60_000,
  baseLockMs: 15 * 60_000,
  maxLockMs: 60 * 60_000,
  levelMemoryMs: 24 * 60 * 60_000,
};

export type AttemptVerdict =
  { allowed: true } | { allowed: false; retryAfterMs: number; retryAfterSeconds: number };

// KEYS: 1 pair failures, 2 pair lock, 3 pair level, 4 address failures, 5 address lock,
// 6 address level, 7 username failures. ARGV: 1 maxFailures, 2 maxAddressFailures, 3 windowMs,
// 4 baseLockMs, 5 maxLockMs, 6 levelMemoryMs. Each script runs atomically in Redis, so parallel
// attempts are counted one by one.
const SHARED_LUA = `
local function lock(fails, lockKey, levelKey)
  local level = tonumber(redis.call('get', levelKey) or '0') + 1
  local ms = math.floor(math.min(tonumber(ARGV[4]) * 2 ^ (level - 1), tonumber(ARGV[5])))
  redis.call('set', lockKey, level, 'PX', ms)
  redis.call('set', levelKey, level, 'PX', ARGV[6])
  redis.call('del', fails)
  return ms
end
local function count(key)
  local n = redis.call('incr', key)
  if n == 1 then redis.call('pexpire', key, ARGV[3]) end
  return n
end
local function number(key) return tonumber(redis.call('get', key) or '0') end
local function giveBack(key)
  if redis.call('exists', key) == 1 then redis.call('decr', key) end
end
`;

/** Reserves one attempt: {1, 0} allowed, or {0, milliseconds to wait}. */
const BEGIN_LUA = `${SHARED_LUA}
local pairLock = redis.call('pttl', KEYS[2])
if pairLock > 0 then return {0, pairLock} end
local addressLock = redis.call('pttl', KEYS[5])
if addressLock > 0 then return {0, addressLock} end
-- A username under a distributed attack: an address that already failed for it gets no further
-- attempt for it until the window ends; an address without failures still gets its check.
if number(KEYS[7]) >= tonumber(ARGV[1]) and number(KEYS[1]) > 0 then
  local left = redis.call('pttl', KEYS[7])
  if left <= 0 then left = tonumber(ARGV[3]) end
  return {0, left}
end
local pair = count(KEYS[1])
local address = count(KEYS[4])
if pair > tonumber(ARGV[1]) then
  giveBack(KEYS[4])
  return {0, lock(KEYS[1], KEYS[2], KEYS[3])}
end
if address > tonumber(ARGV[2]) then
  giveBack(KEYS[1])
  return {0, lock(KEYS[4], KEYS[5], KEYS[6])}
end
count(KEYS[7])
return {1, 0}
`;

/** The reserved attempt failed: lock the pair or the address as soon as it reached its limit. */
const FAILED_LUA = `${SHARED_LUA}
if number(KEYS[1]) >= tonumber(ARGV[1]) then lock(KEYS[1], KEYS[2], KEYS[3]) end
if number(KEYS[4]) >= tonumber(ARGV[2]) then lock(KEYS[4], KEYS[5], KEYS[6]) end
return 0
`;

/** The reserved attempt succeeded: the pair and the username start over, the address gets it back. */
const SUCCEEDED_LUA = `${SHARED_LUA}
redis.call('del', KEYS[1], KEYS[7])
giveBack(KEYS[4])
return 0
`;

/**
 * The password was right but a second factor follows: the password's attempt is given back (pair,
 * address, username), while the pair's earlier failures stay. Each wrong code then counts as one
 * failure, however often the right password is sent in between, and the owner signing in from a
 * fresh address during a distributed attack still reaches the code step.
 */
const PASSED_LUA = `${SHARED_LUA}
giveBack(KEYS[1])
giveBack(KEYS[4])
giveBack(KEYS[7])
return 0
`;

/**
 * Brute-force brake for admin sign-in, kept in Redis so every gateway replica shares it. An
 * "address" is an IPv4 address or an IPv6 /64 (addressBlock).
 *
 * - Per username and address: after maxFailures failures in the window that address is locked
 *   for that username; every further lockout of the pair doubles the wait (15, 30, 60 min cap).
 * - Per address: after maxAddressFailures failures in the window, whatever the usernames, the
 *   address is locked for every username, doubling likewise.
 * - Per username, never a lock: once it has maxFailures failures in the window from any number of
 *   addresses (a distributed attack), each address that failed for it waits until that window
 *   ends, so rotating addresses get one guess each instead of maxFailures; an address without
 *   failures (the owner's) still gets its password checked, so the owner is never locked out.
 * - An attempt is counted before its password is checked, so a burst of parallel guesses cannot
 *   slip past a limit; a success clears the pair and the username and gives the address its
 *   attempt back. With two-factor sign-in the code is such an attempt too (passed, then begin).
 */
export function loginThrottle(redis: Redis, keys: Keyspace, options: Partial<ThrottleOptions> = {}) {
  const o = { ...DEFAULT_THROTTLE, ...options };
  const args = [o.maxFailures, o.maxAddressFailures, o.windowMs, o.baseLockMs, o.maxLockMs, o.levelMemoryMs];
  const keysFor = (username: string, ip: string) => {
    const user = username.toLowerCase();
    const address = addressBlock(ip);
    return [
      keys("login", "fails", "pair", user, address),
      keys("login", "lock", "pair", user, address),
      keys("login", "level", "pair", user, address),
      keys("login", "fails", "address", address),
      keys("login", "lock", "address", address),
      keys("login", "level", "address", address),
      keys("login", "fails", "user", user),
    ];
  };
  const run = (script: string, username: string, ip: string) =>
    redis.eval(script, 7, ...keysFor(username, ip), ...args);

  return {
    options: o,
    /** Reserves one attempt, or says how long to wait. */
    async begin(username: string, ip: string): Promise<AttemptVerdict> {
      const [allowed, waitMs] = (await run(BEGIN_LUA, username, ip)) as [number, number];
      if (allowed === 1) return { allowed: true };
      const ms = Math.max(waitMs, 1);
      return { allowed: false, retryAfterMs: ms, retryAfterSeconds: Math.ceil(ms / 1000) };
    },
    /** The reserved attempt failed; the pair or address is locked when it reached its limit. */
    async failed(username: string, ip: string): Promise<void> {
      await run(FAILED_LUA, username, ip);
    },
    /** The reserved attempt passed its first factor; the second one is checked as a new attempt. */
    async passed(username: string, ip: string): Promise<void> {
      await run(PASSED_LUA, username, ip);
    },
    /** The reserved attempt succeeded. */
    async succeeded(username: string, ip: string): Promise<void> {
      await run(SUCCEEDED_LUA, username, ip);
    },
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
