/** What a probe returns once it counts as done. */
export type Truthy<T> = Exclude<T, false | null | undefined | 0 | "">;

/**
 * The one polling helper of the tests: calls `probe` until it returns a truthy value (which it
 * returns) or `timeoutMs` passes (then it throws, naming `what` and the probe's last error).
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  timeoutMs = 20_000,
  what = "condition",
  intervalMs = 100,
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as Truthy<T>;
      last = undefined;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last instanceof Error ? last.message : String(last)}` : ""}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
