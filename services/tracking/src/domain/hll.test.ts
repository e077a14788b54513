import { describe, expect, it } from "vitest";
import { Hll } from "./hll";
import { key32, key64, key64FromSql } from "./keys";

const sketchOf = (p: number, ids: Iterable<string>) => {
  const hll = new Hll(p);
  for (const id of ids) hll.add(key64(id));
  return hll;
};
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe("HyperLogLog of visitors", () => {
  it("is exact or nearly so for small sets and within 2 % for large ones (p=15)", () => {
    expect(sketchOf(15, []).estimate()).toBe(0);
    expect(sketchOf(15, ["a", "a", "a"]).estimate()).toBe(1);
    for (const n of [10, 100, 1000])
      expect(Math.abs(sketchOf(15, ids("s", n)).estimate() - n)).toBeLessThanOrEqual(n / 100);
    for (const n of [20_000, 100_000]) {
      const estimate = sketchOf(15, ids(`big${n}`, n)).estimate();
      expect(Math.abs(estimate - n) / n).toBeLessThan(0.02);
    }
  });

  it("unions to the distinct count of overlapping sets, however often an element is added", () => {
    const a = sketchOf(14, ids("u", 30_000));
    const b = sketchOf(14, ids("u", 50_000).slice(10_000)); // overlaps a on 20,000
    const union = Hll.union(14, [a.serialize(), b.serialize(), a.serialize()]);
    expect(Math.abs(union.estimate() - 50_000) / 50_000).toBeLessThan(0.02);
  });

  it("stays small while sparse and round-trips through its stored form", () => {
    const small = sketchOf(14, ids("few", 40));
    expect(small.serialize().length).toBe(2 + 40 * 3);
    expect(Hll.deserialize(small.serialize()).estimate()).toBe(small.estimate());
    const dense = sketchOf(12, ids("many", 5000));
    expect(dense.serialize().length).toBe(2 + 4096);
    expect(Hll.deserialize(dense.serialize()).estimate()).toBe(dense.estimate());
    expect(() => Hll.union(14, [dense.serialize()])).toThrow(/p=12/);
  });

  it("stores a sparse sketch's entries by register index, each as index (2 bytes) and rank", () => {
    const sketch = sketchOf(16, ids("order", 300));
    const bytes = sketch.serialize();
    const entries: [number, number][] = [];
    for (let o = 2; o < bytes.length; o += 3) entries.push([bytes.readUInt16BE(o), bytes[o + 2]!]);
    expect(entries.length).toBeGreaterThan(250);
    expect(entries.map(([index]) => index)).toEqual(entries.map(([index]) => index).sort((a, b) => a - b));
    // Indices above 255 and ranks survive the trip (the rank is what the union takes the max of).
    expect(entries.some(([index]) => index > 0xff00)).toBe(true);
    expect(Hll.deserialize(bytes).serialize()).toEqual(bytes);
    const one = new Hll(16);
    one.add(key64FromSql("-281470681743361")); // hi 0xffff0000, lo 0xffffffff: index 0xffff, rank 17
    expect([...one.serialize()]).toEqual([0, 16, 0xff, 0xff, 17]);
  });

  it("hashes an id to the same keys PostgreSQL's tracking.key64 and key32 compute", () => {
    // Values read from psql: SELECT tracking.key64('session-abc-1700000000000'), tracking.key64('b')
    expect(key64("session-abc-1700000000000").sql).toBe("6695324386865496319");
    expect(key64("b").sql).toBe("-7860083176248561684");
    for (const id of ["b", "session-abc-1700000000000"])
      expect(key64FromSql(key64(id).sql)).toEqual(key64(id));
    // SELECT tracking.key32('1732512345678-0'), tracking.key32('b')
    expect([key32("1732512345678-0"), key32("b")]).toEqual([-696224519, -1830068226]);
  });
});
