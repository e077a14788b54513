import { describe, expect, it } from "vitest";
import { breakdownCsv, formatChange } from "./Breakdowns";

describe("breakdown tables", () => {
  it("download as a CSV for Dutch spreadsheets, with the Dutch names", () => {
    const csv = breakdownCsv(
      "Kanaal",
      [
        { value: "Paid Search", visitors: 12, pageViews: 30 },
        { value: 'Say "hi"; now', visitors: 1, pageViews: 1 },
      ],
      (v) => (v === "Paid Search" ? "Betaald zoeken" : v),
    );
    expect(csv).toBe(
      '"Kanaal";"Bezoekers";"Paginaweergaven"\r\n"Betaald zoeken";12;30\r\n"Say ""hi""; now";1;1',
    );
  });

  it("say the change against the previous period in Dutch", () => {
    expect(formatChange(12.5)).toBe("+12,5%");
    expect(formatChange(-3)).toBe("-3%");
    expect(formatChange(0)).toBe("±0%");
    expect(formatChange(null)).toBe("nieuw");
  });
});
