import { describe, expect, it } from "vitest";
import { GateFull, workGate } from "./work-gate";

const deferred = () => {
  let resolve!: (value: string) => void;
  const promise = new Promise<string>((r) => (resolve = r));
  return { promise, resolve };
};

describe("the campaign report's work gate", () => {
  it("runs one at a time, lets two wait and refuses the next; the same key shares one run", async () => {
    const gate = workGate(1, 2);
    const runs: string[] = [];
    const first = deferred();
    const a = gate("a", () => (runs.push("a"), first.promise));
    const sameA = gate("a", () => (runs.push("a again"), Promise.resolve("never")));
    const b = gate("b", async () => (runs.push("b"), "b"));
    const c = gate("c", async () => (runs.push("c"), "c"));
    await expect(gate("d", async () => "d")).rejects.toBeInstanceOf(GateFull);
    expect(runs).toEqual(["a"]);
    first.resolve("a");
    expect(await Promise.all([a, sameA, b, c])).toEqual(["a", "a", "b", "c"]);
    expect(runs).toEqual(["a", "b", "c"]);
    // Once done, a key runs again, and the queue takes work again.
    expect(await gate("a", async () => "a2")).toBe("a2");
  });
});
