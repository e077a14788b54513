import { describe, expect, it } from "vitest";
import { countOf, describeChange, listOf, signedPercent } from "./wording";

describe("Dutch wording", () => {
  it("says one thing in the singular and more in the plural", () => {
    expect(countOf(1, "contactbericht", "contactberichten")).toBe("1 contactbericht");
    expect(countOf(0, "contactbericht", "contactberichten")).toBe("0 contactberichten");
    expect(countOf(1234, "offerteaanvraag", "offerteaanvragen")).toBe("1.234 offerteaanvragen");
  });

  it("writes changes with a sign and a decimal comma", () => {
    expect(signedPercent(12.5)).toBe("+12,5%");
    expect(signedPercent(-3)).toBe("-3%");
    expect(signedPercent(0)).toBe("±0%");
    expect(listOf(["a", "b", "c"])).toBe("a, b en c");
  });

  it("compares with the previous period in sentences, never 'bezoekers nieuw'", () => {
    expect(describeChange("1 - 27 november 2026", { visitors: 12, pageViews: -3, conversions: 0 })).toBe(
      "Ten opzichte van 1 - 27 november 2026: bezoekers +12%, paginaweergaven -3%, conversies ±0%.",
    );
    expect(describeChange("27 november 2026", { visitors: 50, pageViews: 20, conversions: null })).toBe(
      "Ten opzichte van 27 november 2026: bezoekers +50%, paginaweergaven +20%. Voor conversies is er geen vergelijking: in die periode waren er geen.",
    );
    const none = describeChange("27 november 2026", { visitors: null, pageViews: null, conversions: null });
    expect(none).toBe(
      "In de vorige periode (27 november 2026) waren er geen bezoekers, paginaweergaven of conversies om mee te vergelijken.",
    );
    expect(none).not.toContain("nieuw");
  });
});
