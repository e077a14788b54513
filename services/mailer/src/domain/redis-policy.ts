import type { Logger, Redis } from "@lease/platform";

/**
 * BullMQ needs Redis to never evict keys (an evicted job is a lost e-mail). Anything but
 * "noeviction" makes readiness fail, with a log line that says why.
 */
export function redisPolicyCheck(redis: Redis, logger: Logger) {
  let lastProblem: string | undefined;
  return async function checkEvictionPolicy(): Promise<void> {
    let problem: string | undefined;
    try {
      const answer = (await redis.call("CONFIG", "GET", "maxmemory-policy")) as string[];
      const policy = answer?.[1];
      if (policy !== "noeviction") {
        problem = `redis maxmemory-policy is "${policy ?? "unknown"}"; the mail queue needs "noeviction" (queued e-mails could be evicted)`;
      }
    } catch (err) {
      problem = `cannot read redis maxmemory-policy: ${(err as Error).message}`;
    }
    if (problem !== lastProblem) {
      if (problem) logger.error(problem);
      else if (lastProblem) logger.info("redis maxmemory-policy is noeviction again");
      lastProblem = problem;
    }
    if (problem) throw new Error(problem);
  };
}
