import { describe, expect, it } from "vitest";
import { deadlineMoment, deadlineText } from "./deadline";

// Amsterdam time, both sides of the October clock change (CEST +2 until 25 Oct 2026, then CET +1).
describe("a waiting lead's deadline in Dutch", () => {
  const monday10 = "2026-12-07T09:00:00.000Z"; // ma 7 dec 10:00 CET

  it("says when, and how long is left", () => {
    const friday17 = new Date("2026-12-04T16:00:00.000Z");
    expect(deadlineText({ responseDueAt: monday10, firstResponseAt: null }, friday17)).toEqual({
      due: "Reageren vóór ma 10:00",
      left: "Nog 2 dagen",
      late: false,
    });
    const monday8 = new Date("2026-12-07T07:00:00.000Z");
    expect(deadlineText({ responseDueAt: monday10, firstResponseAt: null }, monday8)?.left).toBe("Nog 2 uur");
    const monday0945 = new Date("2026-12-07T08:45:00.000Z");
    expect(deadlineText({ responseDueAt: monday10, firstResponseAt: null }, monday0945)?.left).toBe(
      "Nog 15 min",
    );
  });

  it("says how late once past", () => {
    const monday13 = new Date("2026-12-07T12:00:00.000Z");
    expect(deadlineText({ responseDueAt: monday10, firstResponseAt: null }, monday13)).toEqual({
      due: "Reageren vóór ma 10:00",
      left: "3 uur te laat",
      late: true,
    });
  });

  it("says nothing once answered, nor without a deadline", () => {
    const now = new Date("2026-12-07T12:00:00.000Z");
    expect(deadlineText({ responseDueAt: monday10, firstResponseAt: monday10 }, now)).toBeUndefined();
    expect(deadlineText({ responseDueAt: null, firstResponseAt: null }, now)).toBeUndefined();
  });

  it("reads the clock in Amsterdam, summer and winter, and adds the date beyond a week", () => {
    // Fri 23 Oct 2026 15:00 UTC is 17:00 CEST; Mon 26 Oct 09:00 UTC is 10:00 CET.
    const now = new Date("2026-10-23T15:00:00.000Z");
    expect(deadlineMoment(new Date("2026-10-23T15:00:00.000Z"), now)).toBe("vr 17:00");
    expect(deadlineMoment(new Date("2026-10-26T09:00:00.000Z"), now)).toBe("ma 10:00");
    expect(deadlineMoment(new Date("2026-11-02T09:00:00.000Z"), now)).toBe("ma 02-11 10:00");
  });
});
