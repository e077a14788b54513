import { describe, expect, it } from "vitest";
import { themeToCssVariables } from "./theme";

describe("theme variables", () => {
  it("maps every theme field to its CSS variable", () => {
    expect(
      themeToCssVariables({
        primaryColor: "#2563EB",
        primaryHover: "#1D4ED8",
        accentColor: "#059669",
        backgroundGradientStart: "#1E40AF",
        backgroundGradientEnd: "#7C3AED",
        textPrimary: "#111827",
        textSecondary: "#6B7280",
        buttonRadius: "9999px",
        cardRadius: "20px",
      }),
    ).toEqual({
      "--color-primary": "#2563EB",
      "--color-primary-hover": "#1D4ED8",
      "--color-accent": "#059669",
      "--gradient-start": "#1E40AF",
      "--gradient-end": "#7C3AED",
      "--text-primary": "#111827",
      "--text-secondary": "#6B7280",
      "--radius-button": "9999px",
      "--radius-card": "20px",
    });
  });

  it("drops values that are not colours or pixel radii", () => {
    expect(
      themeToCssVariables({ primaryColor: "red;background:url(x)" as "#000000", cardRadius: "8px" }),
    ).toEqual({ "--radius-card": "8px" });
  });
});
