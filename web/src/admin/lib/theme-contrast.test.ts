import { describe, expect, it } from "vitest";
import { contrastWarning } from "./theme-contrast";

describe("the theme editor's contrast warning (WCAG 2.2 AA, 4.5:1)", () => {
  it("warns for the default orange and names the shade the site uses instead", () => {
    expect(contrastWarning("primaryColor", "#EA580C")).toBe(
      "Onvoldoende contrast: witte tekst op deze kleur haalt 3,5:1, WCAG AA vraagt 4,5:1. De website gebruikt voor knoppen en links de donkerdere tint #C74B0A.",
    );
    expect(contrastWarning("textSecondary", "#9CA3AF")).toMatch(
      /^Onvoldoende contrast: deze tekst op een lichte achtergrond haalt 2,4:1/,
    );
  });

  it("stays quiet for pairs that pass, radii and half-typed colours", () => {
    expect(contrastWarning("primaryColor", "#2563EB")).toBeNull();
    expect(contrastWarning("textPrimary", "#111827")).toBeNull();
    expect(contrastWarning("buttonRadius", "8px")).toBeNull();
    expect(contrastWarning("accentColor", "#10B9")).toBeNull();
  });
});
