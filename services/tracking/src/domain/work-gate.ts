import pLimit from "p-limit";

/** The gate's queue is full: the caller answers 503 (try again shortly) instead of waiting. */
export class GateFull extends Error {}

/**
 * Runs at most `concurrency` pieces of work at once with at most `queueMax` waiting; more are
 * refused with GateFull. Work asked for with the key of one already waiting or running shares its
 * answer instead of being done twice (three panels asking for the same period build it once).
 */
export function workGate(concurrency: number, queueMax: number) {
  const limit = pLimit(concurrency);
  const asked = new Map<string, Promise<unknown>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const same = asked.get(key);
    if (same) return same as Promise<T>;
    if (limit.activeCount >= concurrency && limit.pendingCount >= queueMax)
      return Promise.reject(new GateFull());
    const answer = limit(work).finally(() => asked.delete(key));
    asked.set(key, answer);
    return answer;
  };
}
export type WorkGate = ReturnType<typeof workGate>;
