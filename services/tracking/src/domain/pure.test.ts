import { describe, expect, it } from "vitest";
import { amsterdamDate, isoWeek } from "./calendar";
import { truncateIp } from "./ip-prefix";
import { memoize } from "./memo";
import { retentionStart } from "./periods";

describe("calendar keys", () => {
  it("uses the Amsterdam date, not the UTC date", () => {
    expect(amsterdamDate(Date.parse("2026-11-22T22:59:59Z"))).toBe("2026-11-22");
    expect(amsterdamDate(Date.parse("2026-11-22T23:00:00Z"))).toBe("2026-11-23");
    expect(amsterdamDate(Date.parse("2026-07-01T21:59:59Z"))).toBe("2026-07-01");
    expect(amsterdamDate(Date.parse("2026-07-01T22:00:00Z"))).toBe("2026-07-02");
  });

  it("numbers ISO weeks from Monday, with the Thursday deciding the year", () => {
    expect(isoWeek("2026-11-22")).toBe("2026-W47"); // Sunday
    expect(isoWeek("2026-11-23")).toBe("2026-W48"); // Monday
    expect(isoWeek("2021-01-03")).toBe("2020-W53");
    expect(isoWeek("2024-12-30")).toBe("2025-W01");
  });
});

describe("stored address", () => {
  it("keeps only a truncated address for storage", () => {
    expect(truncateIp("145.53.1.77")).toBe("145.53.1.0");
    expect(truncateIp("2a02:a440:1234:5678:9abc:def0:1:2")).toBe("2a02:a440:1234::");
    expect(truncateIp("2a02:a440::1")).toBe("2a02:a440:0::");
    expect(truncateIp("::1")).toBe("0:0:0::");
    expect(truncateIp("garbage")).toBeNull();
  });
});

describe("retention", () => {
  it("keeps 26 calendar months back from today", () => {
    expect(retentionStart("2026-11-22", 26)).toBe("2024-09-22");
    expect(retentionStart("2026-08-31", 26)).toBe("2024-06-30"); // June has no 31st
    expect(retentionStart("2026-03-01", 26)).toBe("2024-01-01");
  });
});

describe("memoize", () => {
  it("answers repeated inputs from memory and stays bounded", () => {
    let calls = 0;
    const isLong = memoize((s) => {
      calls++;
      return s.length > 3;
    }, 2);
    expect([isLong("abcd"), isLong("abcd"), isLong("ab")]).toEqual([true, true, false]);
    expect(calls).toBe(2);
    isLong("xyz1"); // third distinct input: the memory starts over
    isLong("abcd");
    expect(calls).toBe(4);
  });
});
