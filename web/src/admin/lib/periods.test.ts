import { describe, expect, it } from "vitest";
import {
  amsterdamToday,
  describePeriod,
  periodFromParams,
  periodInWords,
  presetPeriod,
  rangeProblem,
  withPeriod,
} from "./periods";

describe("analytics periods in the URL", () => {
  it("turns presets into Amsterdam days ending today", () => {
    const today = "2026-11-24";
    expect(presetPeriod("vandaag", today)).toEqual({ from: today, to: today });
    expect(presetPeriod("gisteren", today)).toEqual({ from: "2026-11-23", to: "2026-11-23" });
    expect(presetPeriod("7d", today)).toEqual({ from: "2026-11-18", to: today });
    expect(presetPeriod("30d", today)).toEqual({ from: "2026-10-26", to: today });
    expect(presetPeriod("12m", today)).toEqual({ from: "2025-11-25", to: today });
    expect(presetPeriod("12m", "2028-02-29")).toEqual({ from: "2027-03-02", to: "2028-02-29" });
  });

  it("reads the period from the URL and writes it back without losing other parameters", () => {
    const today = "2026-11-24";
    expect(periodFromParams(new URLSearchParams(""), today)).toEqual({
      preset: "7d",
      from: "2026-11-18",
      to: today,
    });
    expect(periodFromParams(new URLSearchParams("periode=30d"), today).from).toBe("2026-10-26");
    expect(periodFromParams(new URLSearchParams("periode=onzin"), today).preset).toBe("7d");
    expect(periodFromParams(new URLSearchParams("van=2026-10-01&tot=2026-10-31"), today)).toEqual({
      preset: "eigen",
      from: "2026-10-01",
      to: "2026-10-31",
    });
    expect(periodFromParams(new URLSearchParams("van=2026-02-30&tot=2026-10-31"), today).preset).toBe("7d");
    // A link with an impossible day falls back to the default instead of breaking the tab.
    for (const bad of ["2026-13-01", "2026-11-32", "2025-00-10", "2026-02-29"])
      expect(periodFromParams(new URLSearchParams(`van=${bad}&tot=2026-10-31`), today).preset, bad).toBe(
        "7d",
      );
    expect(periodFromParams(new URLSearchParams("van=2024-02-29&tot=2024-03-01"), today).preset).toBe(
      "eigen",
    );
    const params = new URLSearchParams("tab=analytics&periode=30d");
    expect(withPeriod(params, { preset: "eigen", from: "2026-10-01", to: "2026-10-31" }).toString()).toBe(
      "tab=analytics&van=2026-10-01&tot=2026-10-31",
    );
    expect(withPeriod(params, { preset: "7d", from: "", to: "" }).toString()).toBe("tab=analytics");
    expect(withPeriod(params, { preset: "12m", from: "", to: "" }).toString()).toBe(
      "tab=analytics&periode=12m",
    );
  });

  it("knows today in Amsterdam and describes a period in Dutch", () => {
    expect(amsterdamToday(Date.parse("2026-11-23T23:30:00Z"))).toBe("2026-11-24");
    expect(describePeriod("2026-10-01", "2026-10-31")).toBe("1 oktober 2026 - 31 oktober 2026");
    expect(describePeriod("2026-11-24", "2026-11-24")).toBe("24 november 2026");
  });

  it("names a period in Dutch words with t/m, the year once when both days share it", () => {
    expect(periodInWords("2026-10-03", "2026-11-01")).toBe("3 oktober t/m 1 november 2026");
    expect(periodInWords("2025-12-28", "2026-01-03")).toBe("28 december 2025 t/m 3 januari 2026");
    expect(periodInWords("2026-11-01", "2026-11-01")).toBe("1 november 2026");
  });

  it("says why an own range cannot be shown", () => {
    const today = "2026-11-24";
    expect(rangeProblem({ from: "", to: today }, today)).toBe("Kies een begin- en einddatum");
    expect(rangeProblem({ from: "2026-02-30", to: today }, today)).toBe("Kies een begin- en einddatum");
    expect(rangeProblem({ from: today, to: "2026-11-01" }, today)).toBe("De begindatum ligt na de einddatum");
    expect(rangeProblem({ from: today, to: "2026-11-25" }, today)).toBe(
      "De einddatum ligt in de toekomst; kies uiterlijk vandaag",
    );
    expect(rangeProblem({ from: "2026-11-01", to: today }, today)).toBeNull();
  });
});
