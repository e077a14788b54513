import { describe, expect, it } from "vitest";
import { addDays, addMonths, dayOf, dayStart, weekStart } from "./calendar";
import { bucketOf, checkPeriod, coverOf, sketchCoverOf, slotsOf, weekPieceOf } from "./periods";

describe("Amsterdam calendar", () => {
  it("starts days at local midnight, in winter and in summer time", () => {
    expect(new Date(dayStart("2026-11-24")).toISOString()).toBe("2026-11-23T23:00:00.000Z");
    expect(new Date(dayStart("2026-07-01")).toISOString()).toBe("2026-06-30T22:00:00.000Z");
    expect(new Date(dayStart("2027-03-28")).toISOString()).toBe("2027-03-27T23:00:00.000Z"); // 23-hour day
    expect(new Date(dayStart("2027-03-29")).toISOString()).toBe("2027-03-28T22:00:00.000Z");
    expect(new Date(dayStart("2026-10-26")).toISOString()).toBe("2026-10-25T23:00:00.000Z"); // after 25 h
    expect(dayOf(Date.parse("2026-10-25T23:59:59Z"))).toEqual({
      day: "2026-10-26",
      start: dayStart("2026-10-26"),
    });
  });

  it("adds days and months across year ends and leap days", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addMonths("2026-11-24", 2)).toBe("2027-01-01");
    expect(addMonths("2026-01-31", -26)).toBe("2023-11-01");
    expect(weekStart("2026-11-22")).toBe("2026-11-16"); // Sunday belongs to the week of Monday 16th
  });
});

describe("analytics periods", () => {
  it("buckets up to 2 days by hour, up to 92 days by day, longer by month", () => {
    expect(bucketOf({ from: "2026-11-24", to: "2026-11-24" })).toBe("hour");
    expect(bucketOf({ from: "2026-11-23", to: "2026-11-24" })).toBe("hour");
    expect(bucketOf({ from: "2026-11-22", to: "2026-11-24" })).toBe("day");
    expect(bucketOf({ from: "2026-08-25", to: "2026-11-24" })).toBe("day"); // 92 days
    expect(bucketOf({ from: "2026-08-24", to: "2026-11-24" })).toBe("month");
  });

  it("covers a period with whole months where it can and loose days elsewhere", () => {
    expect(coverOf({ from: "2026-01-01", to: "2026-03-03" })).toEqual({
      months: ["2026-01-01", "2026-02-01"],
      days: ["2026-03-01", "2026-03-02", "2026-03-03"],
    });
    expect(coverOf({ from: "2026-01-30", to: "2026-03-31" })).toEqual({
      months: ["2026-02-01", "2026-03-01"],
      days: ["2026-01-30", "2026-01-31"],
    });
    expect(coverOf({ from: "2026-02-01", to: "2026-02-27" }).months).toEqual([]);
  });

  it("reads a cover's loose days as whole week pieces where they fill one, never across a month", () => {
    // Monday 30 November 2026: its ISO week is two pieces, 30 November and 1-6 December.
    expect(weekPieceOf("2026-12-03")).toEqual({ start: "2026-12-01", end: "2026-12-06" });
    expect(weekPieceOf("2026-11-30")).toEqual({ start: "2026-11-30", end: "2026-11-30" });
    expect(weekPieceOf("2026-11-18")).toEqual({ start: "2026-11-16", end: "2026-11-22" });
    const thirty = coverOf({ from: "2026-11-04", to: "2026-12-03" });
    expect(sketchCoverOf(thirty)).toEqual({
      months: [],
      weeks: ["2026-11-09", "2026-11-16", "2026-11-23"],
      days: [
        "2026-11-04",
        "2026-11-05",
        "2026-11-06",
        "2026-11-07",
        "2026-11-08",
        "2026-11-30",
        "2026-12-01",
        "2026-12-02",
        "2026-12-03",
      ],
    });
    // Every day of the cover once: in a piece or by itself.
    const sc = sketchCoverOf(coverOf({ from: "2025-12-04", to: "2026-12-03" }));
    const days = [
      ...sc.days,
      ...sc.weeks.flatMap((w) => {
        const out = [];
        for (let d = w; d <= weekPieceOf(w).end; d = addDays(d, 1)) out.push(d);
        return out;
      }),
    ].sort();
    expect(days).toEqual(coverOf({ from: "2025-12-04", to: "2026-12-03" }).days);
    expect(sc.months).toHaveLength(11);
    expect(sc.weeks.length + sc.days.length).toBeLessThan(12);
  });

  it("lists the buckets of a period up to now, 23 or 25 hours on the days the clocks change", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(slotsOf({ from: "2027-03-28", to: "2027-03-28" }, "hour", now)).toHaveLength(23);
    expect(slotsOf({ from: "2026-10-25", to: "2026-10-25" }, "hour", now)).toHaveLength(25);
    const today = slotsOf(
      { from: "2026-11-24", to: "2026-11-24" },
      "hour",
      Date.parse("2026-11-24T09:30:00Z"),
    );
    expect(today).toHaveLength(11); // 00:00 .. 10:00 Amsterdam
    const months = slotsOf({ from: "2025-11-25", to: "2026-11-24" }, "month", now);
    expect(months).toHaveLength(13);
    expect(new Date(months[0]!.start).toISOString()).toBe("2025-11-24T23:00:00.000Z");
    expect(months[0]!.cover).toEqual({
      months: [],
      days: Array.from({ length: 6 }, (_, i) => addDays("2025-11-25", i)),
    });
    expect(months[1]!.cover).toEqual({ months: ["2025-12-01"], days: [] });
    expect(months[12]!.cover!.days).toHaveLength(24);
  });

  it("refuses from after to, a day in the future and a start beyond the retention, in Dutch", () => {
    const today = "2026-11-24";
    expect(() => checkPeriod({ from: "2026-11-25", to: "2026-11-24" }, today, 26)).toThrow(
      "De begindatum ligt na de einddatum",
    );
    expect(() => checkPeriod({ from: "2026-11-24", to: "2026-11-25" }, today, 26)).toThrow(/toekomst/);
    expect(() => checkPeriod({ from: "2024-09-23", to: today }, today, 26)).toThrow(/vanaf 24-09-2024/);
    expect(() => checkPeriod({ from: "2024-09-24", to: today }, today, 26)).not.toThrow();
  });
});
