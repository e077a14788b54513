import { Counter, Gauge } from "prom-client";

export interface PasswordGateOptions {
  /** Password checks (argon2id) running at once in this process. */
  concurrency: number;
  /** Anonymous checks that may wait for a turn; one more is refused at once. */
  queue: number;
  /** How long a check may wait for its turn before it is refused. */
  maxWaitMs: number;
}

// One check at a time leaves the other cores to the event loop (a check is ~35 ms of one core, so
// still ~28 sign-ins a second per process, far beyond what a team signs in).
export const DEFAULT_PASSWORD_GATE: PasswordGateOptions = { concurrency: 1, queue: 8, maxWaitMs: 2000 };

/** The gate is full: nothing was checked, the client may come back after retryAfterSeconds. */
export class PasswordGateBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("password checks are saturated");
  }
}

interface Waiter {
  priority: boolean;
  start: () => void;
  timer?: NodeJS.Timeout;
}

/**
 * Bounds the password-hashing work of this process (each argon2id check takes about 19 MiB and
 * tens of milliseconds of a core): at most `concurrency` checks at once, `queue` anonymous ones
 * waiting, each at most `maxWaitMs`; the rest is refused at once (PasswordGateBusy), never queued
 * without end. A priority check (a sign-in from an address the username signed in from before, a
 * signed-in admin, a sign-in ticket) waits ahead of every anonymous one and is never refused, so a
 * flood of anonymous attempts delays it by at most the checks already running. (Priority checks
 * are few by construction: each needs an owner's earlier address, a session or a ticket, all
 * braked per address and username.)
 * Whether a username exists plays no part here: an unknown one waits and is checked (against a
 * dummy hash) exactly like a real one.
 */
export function passwordGate(options: Partial<PasswordGateOptions> = {}) {
  const o = { ...DEFAULT_PASSWORD_GATE, ...options };
  let running = 0;
  const waiting: Waiter[] = [];
  const retryAfterSeconds = Math.max(1, Math.ceil(o.maxWaitMs / 1000));
  const checks = new Counter({
    name: "gateway_password_checks_total",
    help: "Password checks by lane (priority, anonymous) and outcome (checked, busy: refused unchecked)",
    labelNames: ["lane", "outcome"] as const,
    registers: [],
  });
  for (const lane of ["priority", "anonymous"])
    for (const outcome of ["checked", "busy"]) checks.labels(lane, outcome).inc(0);
  const queued = new Gauge({
    name: "gateway_password_checks_waiting",
    help: "Password checks waiting for their turn",
    registers: [],
    collect() {
      this.set(waiting.length);
    },
  });

  const startNext = () => {
    const next = waiting.shift();
    if (!next) return;
    clearTimeout(next.timer);
    next.start();
  };

  function turn(priority: boolean): Promise<void> {
    const lane = priority ? "priority" : "anonymous";
    if (running < o.concurrency) {
      running++;
      return Promise.resolve();
    }
    if (!priority && waiting.filter((w) => !w.priority).length >= o.queue) {
      checks.labels(lane, "busy").inc();
      return Promise.reject(new PasswordGateBusy(retryAfterSeconds));
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        priority,
        start: () => {
          running++;
          resolve();
        },
      };
      if (!priority)
        waiter.timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          checks.labels(lane, "busy").inc();
          reject(new PasswordGateBusy(retryAfterSeconds));
        }, o.maxWaitMs);
      // Priority checks go behind the other priority checks, ahead of every anonymous one.
      const firstAnonymous = waiting.findIndex((w) => !w.priority);
      if (priority && firstAnonymous >= 0) waiting.splice(firstAnonymous, 0, waiter);
      else waiting.push(waiter);
    });
  }

  return {
    options: o,
    metrics: [checks, queued],
    /**
     * Runs `work` (the password check) in its turn; an anonymous one may instead get
     * PasswordGateBusy, without `work` having run.
     */
    async run<T>(work: () => Promise<T>, opts: { priority: boolean }): Promise<T> {
      await turn(opts.priority);
      try {
        return await work();
      } finally {
        checks.labels(opts.priority ? "priority" : "anonymous", "checked").inc();
        running--;
        startNext();
      }
    },
  };
}
export type PasswordGate = ReturnType<typeof passwordGate>;
