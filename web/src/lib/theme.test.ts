import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { THEME_DEFAULTS } from "@lease/contracts";
import { contrastRatio } from "./contrast";
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
      // The readable twins: blue and the text colours pass as they are; this green is darkened.
      "--color-primary-strong": "#2563EB",
      "--color-primary-hover-strong": "#1D4ED8",
      "--color-accent-strong": "#04845C",
      "--gradient-start-strong": "#1E40AF",
      "--gradient-end-strong": "#7C3AED",
      "--text-primary-strong": "#111827",
      "--text-secondary-strong": "#6B7280",
    });
  });

  it("darkens the default orange and green until text on and under them reaches 4.5:1, hue kept", () => {
    const variables = themeToCssVariables(THEME_DEFAULTS);
    expect(contrastRatio(THEME_DEFAULTS.primaryColor, "#FFFFFF")).toBeLessThan(4.5);
    for (const name of ["--color-primary-strong", "--color-accent-strong"]) {
      expect(contrastRatio(variables[name]!, "#FFFFFF")).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(variables[name]!, "#FFFFFF")).toBeLessThan(4.8); // no darker than needed
    }
  });

  it("keeps the stylesheet's defaults equal to the twins of the default theme", () => {
    const css = readFileSync(new URL("../styles.css", import.meta.url), "utf8");
    for (const [name, value] of Object.entries(themeToCssVariables(THEME_DEFAULTS))) {
      expect(css, name).toContain(`${name}: ${value.toLowerCase()};`);
    }
  });

  it("drops values that are not colours or pixel radii", () => {
    expect(
      themeToCssVariables({ primaryColor: "red;background:url(x)" as "#000000", cardRadius: "8px" }),
    ).toEqual({ "--radius-card": "8px" });
  });
});
