import { describe, expect, it } from "vitest";
import { dashboardTitle, leadNotice } from "./use-lead-alerts";

describe("speed to lead texts", () => {
  it("puts the unread count first in the title, and nothing when none are unread", () => {
    expect(dashboardTitle("Lease Aanvragen", 2)).toBe("(2) Lease Aanvragen | Beheer");
    expect(dashboardTitle("Analytics", 0)).toBe("Analytics | Beheer");
    expect(dashboardTitle("Analytics", undefined)).toBe("Analytics | Beheer");
  });

  it("names what arrived", () => {
    expect(leadNotice({ source: "lease_request" }).title).toBe("Nieuwe Aanvraag");
    expect(leadNotice({ source: "contact_form" }).description).toContain("contactformulier");
  });
});
