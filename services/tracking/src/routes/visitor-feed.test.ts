// The live feed's pacing (visitor-feed.ts): a visitor's change goes out at once, the day's counts
// after a flush wait for it, and no socket ever gets two pushes within the minimum interval.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { VisitorUpdateMessage } from "@lease/contracts";
import { createLogger } from "@lease/platform";
import { VisitorFeed, type FeedSocket } from "./visitor-feed";

const MIN_MS = 1000;
const SOON_MS = MIN_MS; // the default

let pushes: number[];
let waited: number[];
let feed: VisitorFeed;
let t0: number;

function socket(): FeedSocket {
  return {
    readyState: 1,
    send: () => pushes.push(Date.now() - t0),
  };
}

const data = { stats: {}, activeVisitors: [] } as unknown as VisitorUpdateMessage["data"];

beforeEach(async () => {
  vi.useFakeTimers();
  pushes = [];
  waited = [];
  feed = new VisitorFeed(
    async () => data,
    MIN_MS,
    createLogger("test", "silent"),
    (s) => waited.push(s * 1000),
  );
  t0 = Date.now();
  await feed.add(socket()); // the message on connect
  pushes.length = 0;
});
afterEach(() => {
  feed.stop();
  vi.useRealTimers();
});

/** Runs `changes` (ms after t0, kind) and the timers up to `untilMs`. */
async function run(changes: Array<[number, "now" | "soon"]>, untilMs: number) {
  for (const [at, when] of changes) {
    await vi.advanceTimersByTimeAsync(at - (Date.now() - t0));
    feed.changed(when);
  }
  await vi.advanceTimersByTimeAsync(untilMs - (Date.now() - t0));
}

describe("VisitorFeed", () => {
  it("pushes a visitor at once though the counts of the visit before are waiting", async () => {
    // Visits 1.5 s apart, each visit's flush about a second after it: the fan-out benchmark's
    // pattern. Pushing the flush at once made each next visit wait behind it (p50 522 ms).
    await run(
      [
        [0, "now"],
        [900, "soon"],
        [1500, "now"],
        [2400, "soon"],
        [3000, "now"],
      ],
      6000,
    );
    expect(pushes).toEqual([0, 1500, 3000]);
    // Each visitor change was pushed the moment it was heard; only those are timed.
    expect(waited).toEqual([0, 0, 0]);
  });

  it("pushes the counts alone after a while when no visitor comes", async () => {
    await run([[100, "soon"]], 5000);
    expect(pushes).toEqual([100 + SOON_MS]);
    expect(waited).toEqual([]);
  });

  it("brings a waiting push forward for a visitor, but never within the interval of the last", async () => {
    await run(
      [
        [0, "now"],
        [200, "soon"],
        [400, "now"],
      ],
      4000,
    );
    // The visitor at 400 ms waits for the interval after the push at 0; the counts go with it.
    expect(pushes).toEqual([0, 1000]);
    expect(waited).toEqual([0, 600]);
  });

  it("never pushes twice within the interval, whatever the mix of changes", async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const changes: Array<[number, "now" | "soon"]> = [];
    for (let at = 0; at < 30_000; at += Math.floor(random() * 400))
      changes.push([at, random() < 0.5 ? "now" : "soon"]);
    await run(changes, 35_000);
    expect(pushes.length).toBeGreaterThan(10);
    for (let i = 1; i < pushes.length; i++)
      expect(pushes[i]! - pushes[i - 1]!).toBeGreaterThanOrEqual(MIN_MS);
    // Every visitor change was pushed within the interval of being heard.
    expect(Math.max(...waited)).toBeLessThanOrEqual(MIN_MS);
    // And the last change of all went out.
    expect(pushes.at(-1)!).toBeGreaterThanOrEqual(changes.at(-1)![0]);
  });
});
