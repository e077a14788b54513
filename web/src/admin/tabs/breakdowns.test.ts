import { describe, expect, it } from "vitest";
import { breakdownCsv, formatRate } from "./Breakdowns";

describe("breakdown tables", () => {
  it("download as a CSV for Dutch spreadsheets, with the Dutch names", () => {
    const csv = breakdownCsv(
      "Kanaal",
      [
        {
          value: "Paid Search",
          visitors: 12,
          pageViews: 30,
          quotes: 2,
          contacts: 1,
          conversions: 3,
          conversionRate: 25,
        },
        ...['Say "hi"; now', '=HYPERLINK("https://evil.example","x")'].map((value) => ({
          value,
          visitors: 1,
          pageViews: 1,
          quotes: 0,
          contacts: 0,
          conversions: 0,
          conversionRate: 0,
        })),
        {
          value: "(overig)",
          visitors: 0,
          pageViews: 0,
          quotes: 1,
          contacts: 0,
          conversions: 1,
          conversionRate: null,
        },
      ],
      (v) => (v === "Paid Search" ? "Betaald zoeken" : v),
    );
    expect(csv).toBe(
      '"Kanaal";"Bezoekers";"Paginaweergaven";"Offerteaanvragen";"Contactberichten";"Conversie (%)"\r\n' +
        '"Betaald zoeken";12;30;2;1;25\r\n"Say ""hi""; now";1;1;0;0;0\r\n' +
        // A visitor's formula is text: a leading apostrophe.
        `"'=HYPERLINK(""https://evil.example"",""x"")";1;1;0;0;0\r\n"(overig)";0;0;1;0;`,
    );
  });

  it("end with the requests of unknown origin where every visit has a value, so the file adds up", () => {
    const row = {
      value: "Direct",
      visitors: 10,
      pageViews: 12,
      quotes: 16,
      contacts: 2,
      conversions: 18,
      conversionRate: 180,
    };
    expect(breakdownCsv("Kanaal", [row], undefined, { quotes: 18, contacts: 7 }).split("\r\n").at(-1)).toBe(
      '"Herkomst onbekend";;;18;7;',
    );
    expect(breakdownCsv("Kanaal", [row], undefined, { quotes: 0, contacts: 0 }).split("\r\n")).toHaveLength(
      2,
    );
  });

  it("say the conversion rate in Dutch, a dash without visitors", () => {
    expect(formatRate(2.5)).toBe("2,5%");
    expect(formatRate(0)).toBe("0%");
    expect(formatRate(null)).toBe("–");
  });
});
