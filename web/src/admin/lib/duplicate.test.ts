import { describe, expect, it } from "vitest";
import { daysEarlier, duplicateReason } from "./duplicate";

const earlier = { email: "Jan@Bedrijf.nl", contactNumber: "06 1234 5678", createdAt: "2026-11-20T09:00:00Z" };

describe("why a request is marked Mogelijk dubbel", () => {
  it("names the same e-mail (any case), the same phone digits, or both, and the days between", () => {
    expect(
      duplicateReason(
        {
          ...earlier,
          email: " jan@bedrijf.nl",
          contactNumber: "0699999999",
          createdAt: "2026-12-02T08:00:00Z",
        },
        earlier,
      ),
    ).toEqual({
      same: "hetzelfde e-mailadres",
      days: 11,
    });
    expect(
      duplicateReason(
        { email: "ander@x.nl", contactNumber: "06-12345678", createdAt: "2026-11-21T09:00:00Z" },
        earlier,
      ),
    ).toEqual({
      same: "hetzelfde telefoonnummer",
      days: 1,
    });
    expect(duplicateReason({ ...earlier, createdAt: "2026-11-20T10:00:00Z" }, earlier).same).toBe(
      "hetzelfde e-mailadres en telefoonnummer",
    );
  });

  it("says the days in Dutch", () => {
    expect([0, 1, 12].map(daysEarlier)).toEqual(["eerder vandaag", "1 dag eerder", "12 dagen eerder"]);
  });
});
