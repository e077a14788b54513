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
  /** How long an address the admin signed in from stays known (exempt from the username rule). */
  knownAddressMs: number;
  /** Known addresses kept per username (the newest). */
  knownAddressMax: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = {
  maxFailures: 5,
  maxAddressFailures: 20,
  windowMs: 15 * 60_000,
  baseLockMs: 15 * 60_000,
  maxLockMs: 60 * 60_000,
  levelMemoryMs: 24 * 60 * 60_000,
  knownAddressMs: 30 * 24 * 60 * 60_000,
  knownAddressMax: 20,
};

export type AttemptVerdict =
  | {
      allowed: true;
      /** The address is one the username signed in from before (its sign-in may skip the queue). */
      knownAddress: boolean;
    }
  | { allowed: false; retryAfterMs: number; retryAfterSeconds: number };

// KEYS: 1 pair failures, 2 pair lock, 3 pair level, 4 address failures, 5 address lock,
// 6 address level, 7 username failures, 8 the username's known addresses. ARGV: 1 maxFailures,
// 2 maxAddressFailures, 3 windowMs, 4 baseLockMs, 5 maxLockMs, 6 levelMemoryMs, 7 the address,
// 8 knownAddressMs, 9 knownAddressMax, 10 now (ms). Each script runs atomically in Redis, so
// parallel attempts are counted one by one.
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

/** Reserves one attempt: {1, 0, known address 1 or 0} allowed, or {0, milliseconds to wait}. */
const BEGIN_LUA = `${SHARED_LUA}
local pairLock = redis.call('pttl', KEYS[2])
if pairLock > 0 then return {0, pairLock} end
local addressLock = redis.call('pttl', KEYS[5])
if addressLock > 0 then return {0, addressLock} end
-- A username under a distributed attack: an address that already failed for it gets no further
-- attempt for it until the window ends; an address without failures still gets its check, and so
-- does an address the admin signed in from before (the owner who mistyped once keeps signing in).
if number(KEYS[7]) >= tonumber(ARGV[1]) and number(KEYS[1]) > 0
  and not redis.call('zscore', KEYS[8], ARGV[7]) then
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
return {1, 0, redis.call('zscore', KEYS[8], ARGV[7]) and 1 or 0}
`;

/**
 * The reserved attempt failed: lock the pair or the address as soon as it reached its limit.
 * Answers 1 when the pair was locked now, 2 the address, 3 both, 0 neither.
 */
const FAILED_LUA = `${SHARED_LUA}
local locked = 0
if number(KEYS[1]) >= tonumber(ARGV[1]) then lock(KEYS[1], KEYS[2], KEYS[3]); locked = 1 end
if number(KEYS[4]) >= tonumber(ARGV[2]) then lock(KEYS[4], KEYS[5], KEYS[6]); locked = locked + 2 end
return locked
`;

/**
 * The reserved attempt succeeded: the pair and the username start over, the address gets it back
 * and becomes a known address of the username (the newest knownAddressMax, each for knownAddressMs;
 * only a right password, and code, adds one, so no anonymous request grows the set).
 */
const SUCCEEDED_LUA = `${SHARED_LUA}
redis.call('del', KEYS[1], KEYS[7])
giveBack(KEYS[4])
local now = tonumber(ARGV[10])
redis.call('zadd', KEYS[8], now, ARGV[7])
redis.call('zremrangebyscore', KEYS[8], '-inf', now - tonumber(ARGV[8]))
redis.call('zremrangebyrank', KEYS[8], 0, -tonumber(ARGV[9]) - 1)
redis.call('pexpire', KEYS[8], ARGV[8])
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
 * The reserved attempt was not checked (the password checks were saturated): the pair and the
 * username get it back, the address keeps it, so an address that keeps sending into a full gate
 * uses up its own budget (and is locked as usual), never the username's or the owner's.
 */
const UNCHECKED_LUA = `${SHARED_LUA}
giveBack(KEYS[1])
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
 *   failures, or one the admin signed in from within knownAddressMs (the owner's, even after a
 *   typo), still gets its password checked, so the owner is never locked out.
 * - An attempt is counted before its password is checked, so a burst of parallel guesses cannot
 *   slip past a limit; a success clears the pair and the username and gives the address its
 *   attempt back. With two-factor sign-in the code is such an attempt too (passed, then begin).
 */
export function loginThrottle(redis: Redis, keys: Keyspace, options: Partial<ThrottleOptions> = {}) {
  const o = { ...DEFAULT_THROTTLE, ...options };
  const limits = [
    o.maxFailures,
    o.maxAddressFailures,
    o.windowMs,
    o.baseLockMs,
    o.maxLockMs,
    o.levelMemoryMs,
  ];
  const keysFor = (user: string, address: string) => [
    keys("login", "fails", "pair", user, address),
    keys("login", "lock", "pair", user, address),
    keys("login", "level", "pair", user, address),
    keys("login", "fails", "address", address),
    keys("login", "lock", "address", address),
    keys("login", "level", "address", address),
    keys("login", "fails", "user", user),
    keys("login", "known", user),
  ];
  const run = (script: string, username: string, ip: string) => {
    const address = addressBlock(ip);
    return redis.eval(
      script,
      8,
      ...keysFor(username.toLowerCase(), address),
      ...limits,
      address,
      o.knownAddressMs,
      o.knownAddressMax,
      Date.now(),
    );
  };

  return {
    options: o,
    /** Reserves one attempt, or says how long to wait. */
    async begin(username: string, ip: string): Promise<AttemptVerdict> {
      const [allowed, waitMs, known] = (await run(BEGIN_LUA, username, ip)) as [number, number, number?];
      if (allowed === 1) return { allowed: true, knownAddress: known === 1 };
      const ms = Math.max(waitMs, 1);
      return { allowed: false, retryAfterMs: ms, retryAfterSeconds: Math.ceil(ms / 1000) };
    },
    /**
     * The reserved attempt failed; the pair or address is locked when it reached its limit. Says
     * what this failure locked ("gebruiker en adres", "adres", both), or undefined.
     */
    async failed(username: string, ip: string): Promise<string | undefined> {
      const locked = (await run(FAILED_LUA, username, ip)) as number;
      return (
        [
          undefined,
          "adres voor deze gebruiker",
          "adres voor alle gebruikers",
          "adres voor alle gebruikers",
        ] as const
      )[locked];
    },
    /** The reserved attempt passed its first factor; the second one is checked as a new attempt. */
    async passed(username: string, ip: string): Promise<void> {
      await run(PASSED_LUA, username, ip);
    },
    /** The reserved attempt was refused unchecked (the gate was full). */
    async unchecked(username: string, ip: string): Promise<void> {
      await run(UNCHECKED_LUA, username, ip);
    },
    /** The reserved attempt succeeded. */
    async succeeded(username: string, ip: string): Promise<void> {
      await run(SUCCEEDED_LUA, username, ip);
    },
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;

export interface CodeBrakeOptions {
  /** Wrong second-factor codes per account within the window, from all addresses together. */
  maxFailures: number;
  windowMs: number;
}

export const DEFAULT_CODE_BRAKE: CodeBrakeOptions = { maxFailures: 10, windowMs: 60 * 60_000 };

export type CodeVerdict =
  { allowed: true; failures: number } | { allowed: false; retryAfterMs: number; retryAfterSeconds: number };

// KEYS: 1 the account's code attempts. ARGV: 1 maxFailures, 2 windowMs, 3 "1" for an app code
// (refused once the bound is reached), "0" for a recovery code (always checked).
const CODE_BEGIN_LUA = `
local n = tonumber(redis.call('get', KEYS[1]) or '0')
if ARGV[3] == '1' and n >= tonumber(ARGV[1]) then
  local left = redis.call('pttl', KEYS[1])
  if left <= 0 then left = tonumber(ARGV[2]) end
  return {0, left}
end
n = redis.call('incr', KEYS[1])
if n == 1 then redis.call('pexpire', KEYS[1], ARGV[2]) end
return {1, n}
`;
const CODE_GIVE_BACK_LUA = `
if redis.call('exists', KEYS[1]) == 1 then redis.call('decr', KEYS[1]) end
return 0
`;

/**
 * The second factor's bound per account, across every address (the per-address brake alone let 20
 * addresses try 24 codes in one window): an attempt is counted before its code is checked, a right
 * code gives it back. Once maxFailures codes were wrong within the window (which starts at the first
 * one), app codes are refused unchecked until it ends: a cool-down in which only a recovery code
 * (about 49 random bits, still braked per address and ticket) signs in. Keyed by the admin's id
 * and created only after a right password, so no anonymous request adds a key.
 */
export function codeBrake(redis: Redis, keys: Keyspace, options: Partial<CodeBrakeOptions> = {}) {
  const o = { ...DEFAULT_CODE_BRAKE, ...options };
  const key = (adminId: string) => keys("login", "codes", adminId);
  return {
    options: o,
    /** Reserves one code attempt; `failures` is the count including this one (were it wrong). */
    async begin(adminId: string, kind: "totp" | "recovery"): Promise<CodeVerdict> {
      const [allowed, value] = (await redis.eval(
        CODE_BEGIN_LUA,
        1,
        key(adminId),
        o.maxFailures,
        o.windowMs,
        kind === "totp" ? "1" : "0",
      )) as [number, number];
      if (allowed === 1) return { allowed: true, failures: value };
      const ms = Math.max(value, 1);
      return { allowed: false, retryAfterMs: ms, retryAfterSeconds: Math.ceil(ms / 1000) };
    },
    /** The reserved attempt was a right code: it is given back (the wrong ones stay). */
    async succeeded(adminId: string): Promise<void> {
      await redis.eval(CODE_GIVE_BACK_LUA, 1, key(adminId));
    },
  };
}
export type CodeBrake = ReturnType<typeof codeBrake>;
