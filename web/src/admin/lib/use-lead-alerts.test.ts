import { describe, expect, it } from "vitest";
import { dashboardTitle, leadNotice, overdueNotice } from "./use-lead-alerts";

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

  const bob = { id: "b0b00000-0000-4000-8000-000000000000", username: "bob" };

  it("makes a new lead prominent for its owner and names the owner to the others", () => {
    expect(leadNotice({ source: "lease_request", owner: bob }, bob.id).title).toBe(
      "Nieuwe Aanvraag voor jou",
    );
    const other = leadNotice({ source: "lease_request", owner: bob }, "someone-else");
    expect(other.title).toBe("Nieuwe Aanvraag");
    expect(other.description).toContain("Toegewezen aan bob.");
  });

  it("tells a late lead's owner prominently, everyone when it has no owner, and not the others", () => {
    expect(overdueNotice({ source: "lease_request", owner: bob }, bob.id)).toMatchObject({
      title: "Te laat",
      variant: "destructive",
      description: "Jouw lease aanvraag heeft de reactietermijn overschreden zonder reactie.",
    });
    expect(overdueNotice({ source: "contact_form", owner: null }, bob.id)?.description).toContain(
      "zonder eigenaar",
    );
    expect(overdueNotice({ source: "lease_request", owner: bob }, "someone-else")).toBeUndefined();
  });
});
