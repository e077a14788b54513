import { randomBytes } from "node:crypto";
import type { Keyspace, Redis } from "@lease/platform";

// Between the steps of one sign-in (password → authenticator code → own password) the client
// holds a ticket: 256 random bits, kept in Redis for 5 minutes, only ever created after a right
// password, so anonymous requests cannot create keys. It is no session: it opens no admin route.

export type LoginStep = "totp" | "new_password";

export interface LoginTicket {
  username: string;
  /** The admin's session generation read before the password check (see sessionGeneration). */
  generation: number;
  step: LoginStep;
}

export const TICKET_TTL_SECONDS = 5 * 60;
/** Wrong codes one ticket may take before it ends (the sign-in brake counts them too). */
export const TICKET_MAX_ATTEMPTS = 5;

/** KEYS[1] the ticket; ARGV[1] the most attempts. Answers the attempts so far (ARGV[1] when gone). */
const COUNT_FAILURE_LUA = `
if redis.call('exists', KEYS[1]) == 0 then return tonumber(ARGV[1]) end
local n = redis.call('hincrby', KEYS[1], 'attempts', 1)
if n >= tonumber(ARGV[1]) then redis.call('del', KEYS[1]) end
return n
`;

export function loginTickets(redis: Redis, keys: Keyspace) {
  const key = (ticket: string) => keys("login", "ticket", ticket);
  return {
    async issue(value: LoginTicket): Promise<string> {
      const ticket = randomBytes(32).toString("base64url");
      await redis
        .multi()
        .hset(key(ticket), {
          username: value.username,
          generation: String(value.generation),
          step: value.step,
          attempts: "0",
        })
        .expire(key(ticket), TICKET_TTL_SECONDS)
        .exec();
      return ticket;
    },
    /** The ticket's sign-in, when it is live and at this step. */
    async read(ticket: string, step: LoginStep): Promise<LoginTicket | undefined> {
      const data = await redis.hgetall(key(ticket));
      if (data.step !== step || !data.username) return undefined;
      return { username: data.username, generation: Number(data.generation ?? 0), step };
    },
    /** One wrong code; true when the ticket is used up (and gone). */
    async failed(ticket: string): Promise<boolean> {
      // Counted only while the ticket lives: an expired one is never brought back without expiry.
      const attempts = (await redis.eval(COUNT_FAILURE_LUA, 1, key(ticket), TICKET_MAX_ATTEMPTS)) as number;
      return attempts >= TICKET_MAX_ATTEMPTS;
    },
    /** The step is done: the ticket ends (a later step gets a new one). */
    async spend(ticket: string): Promise<boolean> {
      return (await redis.del(key(ticket))) === 1;
    },
  };
}
export type LoginTickets = ReturnType<typeof loginTickets>;
