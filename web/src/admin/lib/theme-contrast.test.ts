import { describe, expect, it } from "vitest";
import { LIGHT_BACKGROUND, WHITE_TEXT, contrastRatio } from "../../lib/contrast";
import { contrastWarning } from "./theme-contrast";

describe("the theme editor's contrast warning (WCAG 2.2 AA, 4.5:1)", () => {
  it("warns for the default orange, says it is the factory theme's, and offers the shade the site uses", () => {
    expect(contrastWarning("primaryColor", "#EA580C")).toEqual({
      message:
        'Onvoldoende contrast: witte tekst op deze kleur haalt 3,5:1, WCAG AA vraagt 4,5:1. Dit is de standaardkleur van het thema "Default Orange", geen eigen keuze. De website gebruikt voor knoppen en links de donkerdere tint #C74B0A.',
      suggestion: "#C74B0A",
    });
    // Case does not make a colour the broker's own.
    expect(contrastWarning("accentColor", "#10b981")?.message).toContain('thema "Default Orange"');
  });

  it("names no theme for a colour of the broker's own, and offers the nearest colour that passes", () => {
    const warning = contrastWarning("textSecondary", "#9CA3AF")!;
    expect(warning.message).toMatch(
      /^Onvoldoende contrast: deze tekst op een lichte achtergrond haalt 2,4:1/,
    );
    expect(warning.message).not.toContain("standaardkleur");
    // The suggestion passes on both light surfaces, and the editor has nothing more to say about it.
    expect(contrastRatio(warning.suggestion, WHITE_TEXT)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(warning.suggestion, LIGHT_BACKGROUND)).toBeGreaterThanOrEqual(4.5);
    expect(contrastWarning("textSecondary", warning.suggestion)).toBeNull();
    // The lightest such shade: one step lighter would not pass.
    expect(contrastRatio(warning.suggestion, LIGHT_BACKGROUND)).toBeLessThan(4.7);
  });

  it("stays quiet for pairs that pass, radii and half-typed colours", () => {
    expect(contrastWarning("primaryColor", "#2563EB")).toBeNull();
    expect(contrastWarning("textPrimary", "#111827")).toBeNull();
    expect(contrastWarning("buttonRadius", "8px")).toBeNull();
    expect(contrastWarning("accentColor", "#10B9")).toBeNull();
  });
});
