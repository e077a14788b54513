import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { isoWeekOf, weeksOf } from "./response-report";

describe("the report's weeks", () => {
  it("are the Mondays of the weeks a period overlaps, with luxon's ISO week numbers (2020-2031)", () => {
    for (let day = DateTime.fromISO("2020-01-01"); day.year < 2031; day = day.plus({ days: 5 })) {
      const from = day.toISODate()!;
      const to = day.plus({ days: day.day * 3 }).toISODate()!;
      const expected: string[] = [];
      for (let w = day.startOf("week"); w.toISODate()! <= to; w = w.plus({ weeks: 1 }))
        expected.push(w.toISODate()!);
      expect(weeksOf(from, to)).toEqual(expected);
      for (const monday of expected) expect(isoWeekOf(monday)).toBe(DateTime.fromISO(monday).weekNumber);
    }
  });
});
