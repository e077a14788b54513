import { describe, expect, it } from "vitest";
import { PasswordGateBusy, passwordGate } from "./password-gate";

/** A password check that ends when the test says so, recording when it started. */
function check(name: string, started: string[]) {
  let finish!: () => void;
  const done = new Promise<string>((resolve) => (finish = () => resolve(name)));
  return {
    work: () => {
      started.push(name);
      return done;
    },
    finish,
  };
}

const settle = () => new Promise((r) => setImmediate(r));

describe("passwordGate", () => {
  it("runs at most `concurrency` checks at once and starts the waiting ones in order", async () => {
    const gate = passwordGate({ concurrency: 2, queue: 5, maxWaitMs: 10_000 });
    const started: string[] = [];
    const checks = ["a", "b", "c", "d"].map((n) => check(n, started));
    const results = checks.map((c) => gate.run(c.work, { priority: false }));
    await settle();
    expect(started).toEqual(["a", "b"]);
    checks[1]!.finish();
    await settle();
    expect(started).toEqual(["a", "b", "c"]);
    checks[0]!.finish();
    checks[2]!.finish();
    checks[3]!.finish();
    expect(await Promise.all(results)).toEqual(["a", "b", "c", "d"]);
  });

  it("refuses an anonymous check at once when the queue is full, without running it", async () => {
    const gate = passwordGate({ concurrency: 1, queue: 1, maxWaitMs: 10_000 });
    const started: string[] = [];
    const running = check("running", started);
    const waiting = check("waiting", started);
    const first = gate.run(running.work, { priority: false });
    const second = gate.run(waiting.work, { priority: false });
    const refused = gate.run(check("refused", started).work, { priority: false });
    await expect(refused).rejects.toBeInstanceOf(PasswordGateBusy);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 10 });
    running.finish();
    waiting.finish();
    expect([await first, await second]).toEqual(["running", "waiting"]);
    expect(started).toEqual(["running", "waiting"]);
  });

  it("puts a priority check ahead of every waiting anonymous one, even when their queue is full", async () => {
    const gate = passwordGate({ concurrency: 1, queue: 2, maxWaitMs: 10_000 });
    const started: string[] = [];
    const [busy, anon1, anon2, owner] = ["busy", "anon1", "anon2", "owner"].map((n) => check(n, started));
    const all = [
      gate.run(busy!.work, { priority: false }),
      gate.run(anon1!.work, { priority: false }),
      gate.run(anon2!.work, { priority: false }),
    ];
    const refused = gate.run(check("anon3", started).work, { priority: false });
    await expect(refused).rejects.toBeInstanceOf(PasswordGateBusy);
    all.push(gate.run(owner!.work, { priority: true }));
    busy!.finish();
    await settle();
    expect(started).toEqual(["busy", "owner"]);
    owner!.finish();
    anon1!.finish();
    anon2!.finish();
    await Promise.all(all);
    expect(started).toEqual(["busy", "owner", "anon1", "anon2"]);
  });

  it("refuses a check that waited longer than maxWaitMs and lets the next one in", async () => {
    const gate = passwordGate({ concurrency: 1, queue: 4, maxWaitMs: 100 });
    const started: string[] = [];
    const slow = check("slow", started);
    const first = gate.run(slow.work, { priority: false });
    const waited = gate.run(check("late", started).work, { priority: false });
    await expect(waited).rejects.toBeInstanceOf(PasswordGateBusy);
    slow.finish();
    await first;
    const next = check("next", started);
    const third = gate.run(next.work, { priority: false });
    next.finish();
    expect(await third).toBe("next");
    expect(started).toEqual(["slow", "next"]);
  });

  it("never refuses a priority check, however long the running checks take", async () => {
    const gate = passwordGate({ concurrency: 1, queue: 0, maxWaitMs: 50 });
    const started: string[] = [];
    const slow = check("slow", started);
    const first = gate.run(slow.work, { priority: false });
    const owner = gate.run(() => Promise.resolve("owner"), { priority: true });
    await new Promise((r) => setTimeout(r, 150));
    slow.finish();
    expect([await first, await owner]).toEqual(["slow", "owner"]);
  });

  it("frees the turn of a check that failed", async () => {
    const gate = passwordGate({ concurrency: 1, queue: 1, maxWaitMs: 10_000 });
    await expect(gate.run(() => Promise.reject(new Error("boom")), { priority: false })).rejects.toThrow(
      "boom",
    );
    expect(await gate.run(() => Promise.resolve("ok"), { priority: false })).toBe("ok");
  });
});
