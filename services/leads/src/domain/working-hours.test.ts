import { describe, expect, it } from "vitest";
import { DEFAULT_RESPONSE_SETTINGS } from "@lease/contracts";
import { dutchPublicHolidays, responseDueAt, workingCalendar } from "./working-hours";

// Instants are written in UTC; the comments say what they are in Amsterdam.
const at = (iso: string) => new Date(iso);
const office = workingCalendar(DEFAULT_RESPONSE_SETTINGS.workingHours, []);
const FOUR_HOURS = 240;

describe("working hours (Monday–Friday 9:00–17:30 Europe/Amsterdam, Dutch public holidays)", () => {
  it("a request at Friday 17:00 with 4 working hours is due on Monday at 12:30", () => {
    // Fri 27 Nov 2026 17:00 CET: half an hour on Friday, three and a half on Monday.
    expect(office.addWorkingMinutes(at("2026-11-27T16:00:00Z"), FOUR_HOURS)).toEqual(
      at("2026-11-30T11:30:00Z"),
    );
  });

  it("a request on Saturday waits for Monday's opening", () => {
    // Sat 28 Nov 2026 10:00 → Mon 09:00 + 1 hour.
    expect(office.addWorkingMinutes(at("2026-11-28T09:00:00Z"), 60)).toEqual(at("2026-11-30T09:00:00Z"));
    expect(office.workingMinutesBetween(at("2026-11-28T09:00:00Z"), at("2026-11-30T09:00:00Z"))).toBe(60);
  });

  it("within the day it is plain addition; after 17:30 the rest goes to the next working day", () => {
    // Tue 1 Dec 2026 10:00 + 4 h = 14:00; 16:00 + 4 h = Wed 11:30.
    expect(office.addWorkingMinutes(at("2026-12-01T09:00:00Z"), FOUR_HOURS)).toEqual(
      at("2026-12-01T13:00:00Z"),
    );
    expect(office.addWorkingMinutes(at("2026-12-01T15:00:00Z"), FOUR_HOURS)).toEqual(
      at("2026-12-02T10:30:00Z"),
    );
  });

  it("Koningsdag is no working day: Friday 17:00 before 27 April 2026 is due on Tuesday", () => {
    // Mon 27 Apr 2026 is Koningsdag (CEST, UTC+2).
    expect(office.isWorkingDay("2026-04-27")).toBe(false);
    expect(office.addWorkingMinutes(at("2026-04-24T15:00:00Z"), FOUR_HOURS)).toEqual(
      at("2026-04-28T10:30:00Z"),
    );
  });

  it("Koningsdag on a Sunday moves to Saturday 26 April (2025)", () => {
    expect(dutchPublicHolidays(2025).has("2025-04-26")).toBe(true);
    expect(dutchPublicHolidays(2025).has("2025-04-27")).toBe(false);
  });

  it("Pasen: Tweede paasdag is closed, Goede Vrijdag is a working day", () => {
    expect(office.isWorkingDay("2026-04-06")).toBe(false);
    expect(office.isWorkingDay("2026-04-03")).toBe(true);
    // Fri 3 Apr 2026 17:00 CEST → Tue 7 Apr 12:30 CEST.
    expect(office.addWorkingMinutes(at("2026-04-03T15:00:00Z"), FOUR_HOURS)).toEqual(
      at("2026-04-07T10:30:00Z"),
    );
  });

  it("Kerst: Thursday 24 December 2026 at 17:00 is due on Monday 28 December", () => {
    // 25 Dec is a Friday (Kerstmis), 26 Dec a Saturday (Tweede kerstdag).
    expect(office.addWorkingMinutes(at("2026-12-24T16:00:00Z"), FOUR_HOURS)).toEqual(
      at("2026-12-28T11:30:00Z"),
    );
  });

  it("the March clock change: Friday 17:00 CET is due Monday 12:30 CEST, and the weekend counts only Friday's half hour", () => {
    // Summer time starts Sun 29 Mar 2026 (02:00 → 03:00).
    const friday = at("2026-03-27T16:00:00Z");
    const monday = at("2026-03-30T10:30:00Z");
    expect(office.addWorkingMinutes(friday, FOUR_HOURS)).toEqual(monday);
    expect(office.workingMinutesBetween(friday, monday)).toBe(FOUR_HOURS);
    // 09:00 on Monday is 07:00 UTC in summer time, not 08:00.
    expect(office.addWorkingMinutes(at("2026-03-28T12:00:00Z"), 0)).toEqual(at("2026-03-30T07:00:00Z"));
  });

  it("the October clock change: Friday 17:00 CEST is due Monday 12:30 CET", () => {
    // Winter time starts Sun 25 Oct 2026 (03:00 → 02:00).
    expect(office.addWorkingMinutes(at("2026-10-23T15:00:00Z"), FOUR_HOURS)).toEqual(
      at("2026-10-26T11:30:00Z"),
    );
  });

  it("a day of the clock change has 23 or 25 hours when the working day is 00:00–24:00", () => {
    const always = workingCalendar({ days: [1, 2, 3, 4, 5, 6, 7], from: "00:00", to: "24:00" }, []);
    // Sun 29 Mar 2026 00:00 CET to Mon 00:00 CEST; Sun 25 Oct 2026 00:00 CEST to Mon 00:00 CET.
    expect(always.workingMinutesBetween(at("2026-03-28T23:00:00Z"), at("2026-03-29T22:00:00Z"))).toBe(
      23 * 60,
    );
    expect(always.workingMinutesBetween(at("2026-10-24T22:00:00Z"), at("2026-10-25T23:00:00Z"))).toBe(
      25 * 60,
    );
  });

  it('"24:00" ends the working day at midnight: the rest goes to the next evening', () => {
    const evenings = workingCalendar({ days: [1, 2, 3, 4, 5], from: "18:00", to: "24:00" }, []);
    // Mon 30 Nov 2026 23:00 CET + 90 min: 60 until midnight, the other 30 from Tue 18:00 → 18:30 CET.
    expect(evenings.addWorkingMinutes(at("2026-11-30T22:00:00Z"), 90)).toEqual(at("2026-12-01T17:30:00Z"));
  });

  it("an extra closed day is skipped like a holiday", () => {
    const closed = workingCalendar(DEFAULT_RESPONSE_SETTINGS.workingHours, ["2026-12-24"]);
    // Wed 23 Dec 2026 17:00 → Thu closed, Fri Kerstmis, weekend → Mon 28 Dec 12:30.
    expect(closed.addWorkingMinutes(at("2026-12-23T16:00:00Z"), FOUR_HOURS)).toEqual(
      at("2026-12-28T11:30:00Z"),
    );
    expect(office.addWorkingMinutes(at("2026-12-23T16:00:00Z"), FOUR_HOURS)).toEqual(
      at("2026-12-24T11:30:00Z"),
    );
  });

  it("working minutes between two instants undo the addition, across weeks and holidays", () => {
    const start = at("2026-04-24T14:17:00Z");
    for (const minutes of [1, 59, 450, 451, 2000, 9000]) {
      const due = office.addWorkingMinutes(start, minutes);
      expect(office.workingMinutesBetween(start, due)).toBeCloseTo(minutes, 6);
    }
    expect(office.workingMinutesBetween(at("2026-12-02T10:00:00Z"), at("2026-12-01T10:00:00Z"))).toBe(0);
  });

  it("a clock-time promise ignores the working hours", () => {
    // 24 hours after Fri 27 Nov 2026 17:00 is Saturday 17:00.
    expect(responseDueAt(office, at("2026-11-27T16:00:00Z"), 1440, "clock")).toEqual(
      at("2026-11-28T16:00:00Z"),
    );
    expect(responseDueAt(office, at("2026-11-27T16:00:00Z"), FOUR_HOURS, "working")).toEqual(
      at("2026-11-30T11:30:00Z"),
    );
  });
});
