import { Counter } from "prom-client";
import { addressBlock, type Keyspace, type Logger, type Redis } from "@lease/platform";
import type { AuditRepository } from "../repositories/audit";

export type LoginStepLabel = "password" | "code";
export type LoginOutcome = "success" | "failure" | "locked" | "busy";

/** Audit rows of failures and locks one account may get per hour; the rest is metric and log only. */
export const FAILURE_AUDIT_PER_HOUR = 20;

// KEYS: 1 the account's counter. ARGV: 1 window ms. The count including this one.
const COUNT_LUA = `
local n = redis.call('incr', KEYS[1])
if n == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end
return n
`;

/**
 * What the sign-in's failures leave behind: a counter by step and outcome (two and four values, so
 * bounded labels; infra/observability alerts on it) and audit-log rows of failed passwords, wrong
 * codes and locks — only for accounts that exist (an unknown username is counted, never stored),
 * and at most FAILURE_AUDIT_PER_HOUR per account and hour (a Redis counter keyed by the admin's
 * id), so an anonymous flood grows neither the log nor Redis beyond a bound. Never a password or
 * code: who (username and id), what, and the address block (IPv4 address or IPv6 /64).
 */
export function loginEvents(deps: { redis: Redis; keys: Keyspace; audit: AuditRepository; logger: Logger }) {
  const attempts = new Counter({
    name: "gateway_admin_login_attempts_total",
    help: "Admin sign-in attempts by step (password, code) and outcome (success, failure, locked, busy: refused unchecked)",
    labelNames: ["step", "outcome"] as const,
    registers: [],
  });
  for (const step of ["password", "code"] as const)
    for (const outcome of ["success", "failure", "locked", "busy"] as const)
      attempts.labels(step, outcome).inc(0);

  return {
    attempts,
    count(step: LoginStepLabel, outcome: LoginOutcome): void {
      attempts.labels(step, outcome).inc();
    },
    /** An audit row for a failure or lock of an existing account, within the account's hourly budget. */
    async audit(
      admin: { id: string; username: string },
      action: "login.failed" | "login.code_failed" | "login.locked",
      ip: string,
      why?: string,
    ): Promise<void> {
      try {
        const n = (await deps.redis.eval(
          COUNT_LUA,
          1,
          deps.keys("login", "audited", admin.id),
          60 * 60_000,
        )) as number;
        if (n > FAILURE_AUDIT_PER_HOUR) return;
        const parts = [`adres ${addressBlock(ip)}`];
        if (why) parts.push(why);
        if (n === FAILURE_AUDIT_PER_HOUR)
          parts.push("verdere mislukte pogingen dit uur alleen in metriek en log");
        await deps.audit.record({
          actor: admin.username,
          actorId: admin.id,
          action,
          target: admin.username,
          detail: parts.join("; "),
        });
      } catch (err) {
        deps.logger.error({ action, err: (err as Error).message }, "audit log entry not written");
      }
    },
  };
}
export type LoginEvents = ReturnType<typeof loginEvents>;
