import { afterEach, describe, expect, it, vi } from "vitest";
import { scheduleDaily } from "./schedule";
import type { Logger } from "./logger";

const DAY = 24 * 60 * 60_000;

function recordingLogger() {
  const lines: { level: string; fields: unknown; msg: string }[] = [];
  const logger = {
    info: (fields: unknown, msg: string) => lines.push({ level: "info", fields, msg }),
    warn: (fields: unknown, msg: string) => lines.push({ level: "warn", fields, msg }),
  } as unknown as Logger;
  return { logger, lines };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("scheduleDaily", () => {
  it("runs after the first delay, then once a day, logs what describe makes of it, and stops", async () => {
    vi.useFakeTimers();
    const { logger, lines } = recordingLogger();
    let runs = 0;
    const stop = scheduleDaily("upkeep", async () => ++runs, logger, {
      firstRunMs: 1000,
      describe: (n) => (n % 2 === 1 ? { run: n } : undefined),
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(DAY);
    await vi.advanceTimersByTimeAsync(DAY);
    expect(runs).toBe(3);
    // Runs 1 and 3 described, run 2 not.
    expect(lines).toEqual([
      { level: "info", fields: { run: 1 }, msg: "upkeep done" },
      { level: "info", fields: { run: 3 }, msg: "upkeep done" },
    ]);
    stop();
    await vi.advanceTimersByTimeAsync(3 * DAY);
    expect(runs).toBe(3);
  });

  it("logs a failure and tries again the next day", async () => {
    vi.useFakeTimers();
    const { logger, lines } = recordingLogger();
    let runs = 0;
    const stop = scheduleDaily(
      "upkeep",
      async () => {
        if (++runs === 1) throw new Error("database away");
        return runs;
      },
      logger,
      { firstRunMs: 0, describe: (n) => ({ run: n }) },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(lines).toEqual([
      { level: "warn", fields: { err: "database away" }, msg: "upkeep failed; retried at the next run" },
    ]);
    await vi.advanceTimersByTimeAsync(DAY);
    expect(lines.at(-1)).toEqual({ level: "info", fields: { run: 2 }, msg: "upkeep done" });
    stop();
  });
});
