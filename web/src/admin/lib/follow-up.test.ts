import { describe, expect, it } from "vitest";
import { amsterdamToday, followUpBadge, followUpState, followUpsDueText } from "./follow-up";

describe("follow-up days", () => {
  it("takes today from Amsterdam, not from UTC", () => {
    expect(amsterdamToday(new Date("2026-11-26T23:30:00Z"))).toBe("2026-11-27");
    expect(amsterdamToday(new Date("2026-06-30T21:59:00Z"))).toBe("2026-06-30");
  });

  it("marks overdue, today and later", () => {
    expect(followUpState(null, "2026-11-26")).toBeNull();
    expect(followUpState("2026-11-25", "2026-11-26")).toBe("overdue");
    expect(followUpState("2026-11-26", "2026-11-26")).toBe("today");
    expect(followUpState("2026-12-01", "2026-11-26")).toBe("later");
    expect(followUpBadge("2026-11-25", "2026-11-26")).toEqual({
      label: "Opvolgen te laat (25-11-2026)",
      tone: "red",
    });
    expect(followUpBadge("2026-11-26", "2026-11-26").label).toBe("Vandaag opvolgen");
  });

  it("counts in Dutch", () => {
    expect(followUpsDueText(1)).toBe("1 aanvraag staat voor vandaag (of eerder) op opvolgen.");
    expect(followUpsDueText(3)).toBe("3 aanvragen staan voor vandaag (of eerder) op opvolgen.");
  });
});
