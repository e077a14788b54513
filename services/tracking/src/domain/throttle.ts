/**
 * Runs `fn` on the leading edge, then at most once per `intervalMs` while calls keep coming:
 * a burst of N triggers becomes one call now and one at the end of the interval.
 */
export function throttle(fn: () => void | Promise<void>, intervalMs: number) {
  let last = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    void Promise.resolve()
      .then(fn)
      .catch(() => undefined);
  };
  return {
    trigger() {
      if (timer || stopped) return;
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
