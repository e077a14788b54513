import { describe, expect, it } from "vitest";
import { IsoWeek } from "@lease/contracts";
import { isoWeekOf, previousWeek, weekSpan } from "./weekly-summary";

// Instants are written in UTC; the comments say what they are in Amsterdam.
const at = (iso: string) => new Date(iso);
const hours = (span: { start: Date; end: Date }) => (span.end.getTime() - span.start.getTime()) / 3_600_000;

describe("the weekly summary's weeks (ISO weeks of Amsterdam time)", () => {
  it("Monday's e-mail at 08:00 sums up the week before: Monday to Sunday", () => {
    // Mon 30 Nov 2026 08:00 CET.
    expect(previousWeek(at("2026-11-30T07:00:00Z"))).toBe("2026-W48");
    expect(weekSpan("2026-W48")).toEqual({
      from: "2026-11-23",
      to: "2026-11-29",
      start: at("2026-11-22T23:00:00Z"),
      end: at("2026-11-29T23:00:00Z"),
    });
  });

  it("a week starts at Monday 00:00 Amsterdam time, not UTC", () => {
    // Sun 22 Nov 2026 23:59 CET is week 47; a minute later (22:59 → 23:00 UTC) it is week 48.
    expect(isoWeekOf(at("2026-11-22T22:59:00Z"))).toBe("2026-W47");
    expect(isoWeekOf(at("2026-11-22T23:00:00Z"))).toBe("2026-W48");
    // Run late (Monday evening, or Sunday night just before the next Monday) it is still the week before.
    expect(previousWeek(at("2026-11-30T22:00:00Z"))).toBe("2026-W48");
    expect(previousWeek(at("2026-12-06T22:59:00Z"))).toBe("2026-W48");
    expect(previousWeek(at("2026-12-06T23:00:00Z"))).toBe("2026-W49");
  });

  it("the week the clocks go forward (29 March 2026) has 167 hours", () => {
    // Mon 30 Mar 2026 08:00 CEST (UTC+2).
    expect(previousWeek(at("2026-03-30T06:00:00Z"))).toBe("2026-W13");
    const span = weekSpan("2026-W13");
    expect(span).toEqual({
      from: "2026-03-23",
      to: "2026-03-29",
      start: at("2026-03-22T23:00:00Z"), // Mon 23 Mar 00:00 CET
      end: at("2026-03-29T22:00:00Z"), // Mon 30 Mar 00:00 CEST
    });
    expect(hours(span)).toBe(167);
    // The last minute of Sunday 29 March (CEST) still belongs to it.
    expect(isoWeekOf(at("2026-03-29T21:59:00Z"))).toBe("2026-W13");
  });

  it("the week the clocks go back (25 October 2026) has 169 hours", () => {
    // Mon 26 Oct 2026 08:00 CET (UTC+1).
    expect(previousWeek(at("2026-10-26T07:00:00Z"))).toBe("2026-W43");
    const span = weekSpan("2026-W43");
    expect(span).toEqual({
      from: "2026-10-19",
      to: "2026-10-25",
      start: at("2026-10-18T22:00:00Z"), // Mon 19 Oct 00:00 CEST
      end: at("2026-10-25T23:00:00Z"), // Mon 26 Oct 00:00 CET
    });
    expect(hours(span)).toBe(169);
  });

  it("a week with public holidays is seven days like any other (Pasen, Koningsdag, Kerst)", () => {
    // Sent on Easter Monday 6 April 2026: the week of Good Friday and Easter Sunday.
    expect(previousWeek(at("2026-04-06T06:00:00Z"))).toBe("2026-W14");
    expect(weekSpan("2026-W14")).toMatchObject({ from: "2026-03-30", to: "2026-04-05" });
    // Koningsdag, Monday 27 April 2026, opens week 18.
    expect(weekSpan("2026-W18")).toMatchObject({ from: "2026-04-27", to: "2026-05-03" });
    expect(hours(weekSpan("2026-W18"))).toBe(168);
    // Christmas (Friday 25 and Saturday 26 December 2026).
    expect(weekSpan("2026-W52")).toMatchObject({ from: "2026-12-21", to: "2026-12-27" });
  });

  it("across the new year: 2026 has 53 ISO weeks, the last one ending on 3 January 2027", () => {
    // Mon 4 Jan 2027 08:00 CET.
    expect(previousWeek(at("2027-01-04T07:00:00Z"))).toBe("2026-W53");
    expect(weekSpan("2026-W53")).toMatchObject({ from: "2026-12-28", to: "2027-01-03" });
    // Thu 1 Jan 2026 is in 2026-W01, which began on Monday 29 December 2025.
    expect(isoWeekOf(at("2026-01-01T12:00:00Z"))).toBe("2026-W01");
    expect(weekSpan("2026-W01")).toMatchObject({ from: "2025-12-29", to: "2026-01-04" });
  });

  it("names a week only as YYYY-Www (the job's and the internal route's week)", () => {
    for (const good of ["2026-W01", "2026-W13", "2026-W53"])
      expect(IsoWeek.safeParse(good).success).toBe(true);
    for (const bad of ["2026-W00", "2026-W54", "2026-13", "2026-W1", "2026W13", "2026-W13-1"])
      expect(IsoWeek.safeParse(bad).success, bad).toBe(false);
    // A 53rd week that the year does not have is no week.
    expect(() => weekSpan("2027-W53")).toThrow(RangeError);
  });
});
