import { describe, expect, it } from "vitest";
import { dutchDuration } from "@lease/contracts";
import { duration, responsePeriod, share, weekLabel } from "./response-report";

describe("the response report's Dutch", () => {
  it("writes durations as people read them", () => {
    expect(dutchDuration(0)).toBe("0 min");
    expect(dutchDuration(45)).toBe("45 min");
    expect(dutchDuration(60)).toBe("1 u");
    expect(dutchDuration(135)).toBe("2 u 15 min");
    expect(dutchDuration(24 * 60 - 1)).toBe("23 u 59 min");
    expect(dutchDuration(3885)).toBe("2 d 17 u");
    expect(dutchDuration(48 * 60)).toBe("2 d");
    expect(duration(null)).toBe("–");
  });

  it("shares, weeks and periods", () => {
    expect(share(2 / 3)).toBe("67%");
    expect(share(null)).toBe("–");
    expect(weekLabel("2026-03-02", 10)).toBe("Week 10 · 2 mrt 2026");
    expect(responsePeriod("4w", "2026-03-29")).toEqual({ from: "2026-03-02", to: "2026-03-29" });
    expect(responsePeriod("2j", "2026-03-29")).toEqual({ from: "2024-03-30", to: "2026-03-29" });
  });
});
