import { describe, expect, it } from "vitest";
import { parseCents, parseDay, parseSpendCsv, readSpendCsv } from "./spend-csv";

// The spend exports of each platform, English and Dutch, as their Ads Managers write
// them (columns listed in services/tracking/README.md, "Ad spend").

const rows = (csv: string) => {
  const parsed = parseSpendCsv(csv);
  return { ...parsed, rows: parsed.rows.map((r) => [r.day, r.campaign, r.cents]) };
};

describe("spend exports per platform", () => {
  it("reads Meta Ads Manager in English: a row per day, amounts 1,234.56", () => {
    const csv = [
      "Campaign name,Day,Amount spent (EUR),Impressions,Reporting starts,Reporting ends",
      "lente,2026-03-02,150.00,12000,2026-03-02,2026-03-02",
      'lente,2026-03-03,"1,150.50",9000,2026-03-03,2026-03-03',
    ].join("\r\n");
    expect(rows(csv)).toEqual({
      platform: "meta",
      rows: [
        ["2026-03-02", "lente", 15000],
        ["2026-03-03", "lente", 115050],
      ],
      errors: [],
    });
  });

  it("reads Meta in Dutch (Advertentiebeheer): the reporting period as the day, amounts 1.234,56", () => {
    const csv = [
      "\uFEFFCampagnenaam,Begin rapportage,Einde rapportage,Uitgegeven bedrag (EUR),Weergaven",
      'lente,2026-03-02,2026-03-02,"1.150,50",12000',
      'zomer,2026-03-01,2026-03-07,"99,00",1',
    ].join("\n");
    expect(rows(csv)).toEqual({
      platform: "meta",
      rows: [["2026-03-02", "lente", 115050]],
      errors: [
        { line: 3, message: "Deze regel beslaat meer dan één dag: exporteer met de uitsplitsing per dag" },
      ],
    });
  });

  it("refuses a Meta export in another currency as a whole", () => {
    expect(() => parseSpendCsv("Campaign name,Day,Amount spent (USD)\nx,2026-03-02,1.00")).toThrow(/USD/);
  });

  it("reads TikTok Ads Manager in English and in Dutch (semicolons, DD-MM-YYYY)", () => {
    expect(
      rows("Campaign name,By Day,Cost,Impressions,Clicks\nVoorjaar TikTok,2026-03-02,25.5,1000,10"),
    ).toEqual({
      platform: "tiktok",
      rows: [["2026-03-02", "Voorjaar TikTok", 2550]],
      errors: [],
    });
    expect(rows("Campagnenaam;Datum;Kosten;Weergaven\nVoorjaar TikTok;02-03-2026;1.025,50;1000")).toEqual({
      platform: "tiktok",
      rows: [["2026-03-02", "Voorjaar TikTok", 102550]],
      errors: [],
    });
  });

  it("reads Snapchat Ads Manager: the start time as the day, US dates told by a day over 12", () => {
    const csv = [
      "Campaign Name,Start Time,Amount Spent,Paid Impressions",
      "snap-lente,2026-03-02 00:00:00,12.34,500",
      "snap-lente,03/15/2026,1.00,20",
    ].join("\n");
    expect(rows(csv)).toEqual({
      platform: "snapchat",
      rows: [
        ["2026-03-02", "snap-lente", 1234],
        ["2026-03-15", "snap-lente", 100],
      ],
      errors: [],
    });
  });

  it("reads Google Ads below its title lines, skips its totals and names a row in another currency", () => {
    const csv = [
      "Campaign report",
      '"March 1, 2026 - March 3, 2026"',
      "Day,Campaign,Currency code,Cost,Clicks",
      '2026-03-02,Zoek - lease,EUR,"1,234.56",40',
      "2026-03-03,Zoek - lease,USD,10.00,1",
      'Total: Account,,EUR,"1,244.56",41',
    ].join("\n");
    expect(rows(csv)).toEqual({
      platform: "google",
      rows: [["2026-03-02", "Zoek - lease", 123456]],
      errors: [{ line: 5, message: "Alleen bedragen in euro worden ingelezen (deze regel: USD)" }],
    });
  });

  it("reads Google Ads in Dutch: Dag, Campagne, Kosten, '2 mrt. 2026', tabs", () => {
    const csv = [
      "Campagnerapport",
      "1 mrt 2026 - 3 mrt 2026",
      "Dag\tCampagne\tValutacode\tKosten",
      "2 mrt. 2026\tZoek - lease\tEUR\t1.234,56",
    ].join("\n");
    expect(rows(csv)).toEqual({
      platform: "google",
      rows: [["2026-03-02", "Zoek - lease", 123456]],
      errors: [],
    });
  });

  it("sums rows of one day and campaign (an export split by ad set) and names bad rows by their line", () => {
    const csv = [
      "Campaign name,Day,Amount spent (EUR)",
      "lente,2026-03-02,100.00",
      "lente,2026-03-02,50.25",
      ",2026-03-02,1.00",
      "lente,gisteren,1.00",
      "lente,2026-03-04,-5",
      'lente,2026-02-30,"1,00"',
    ].join("\n");
    const parsed = rows(csv);
    expect(parsed.rows).toEqual([["2026-03-02", "lente", 15025]]);
    expect(parsed.errors).toEqual([
      { line: 4, message: "Geen campagnenaam" },
      { line: 5, message: 'Onbekende datum "gisteren"' },
      { line: 6, message: 'Onbekend bedrag "-5"' },
      { line: 7, message: 'Onbekende datum "2026-02-30"' },
    ]);
  });

  it("refuses a file of no platform with a Dutch message that says what to export", () => {
    expect(() => parseSpendCsv("naam,bedrag\nx,1")).toThrow(/geen bekende export/);
  });
});

// Character tricks in a campaign name: a name must read as it is stored, and one bad row never
// fails the file.
describe("campaign names of an export", () => {
  const META = "Campaign name,Day,Amount spent (EUR)";

  it("names by line a row whose name holds an unpaired surrogate, a direction override or a C1 control, and keeps the others", () => {
    const csv = [
      META,
      "zomer\ud800,2026-03-02,10.00",
      "zomer\udfff,2026-03-02,20.00",
      "\u202Enimda,2026-03-02,30.00",
      "lente\u0085,2026-03-02,40.00",
      "goed,2026-03-02,50.00",
    ].join("\n");
    expect(rows(csv)).toEqual({
      platform: "meta",
      rows: [["2026-03-02", "goed", 5000]],
      errors: [
        { line: 2, message: "De campagnenaam bevat een los deel van een teken (U+D800); pas de naam aan" },
        { line: 3, message: "De campagnenaam bevat een los deel van een teken (U+DFFF); pas de naam aan" },
        {
          line: 4,
          message: "De campagnenaam bevat een teken dat de leesrichting omdraait (U+202E); pas de naam aan",
        },
        { line: 5, message: "De campagnenaam bevat een besturingsteken (U+0085); pas de naam aan" },
      ],
    });
  });

  it("keeps a well-formed emoji (a surrogate pair) and composes accents (NFC): two spellings of a name are one row, summed", () => {
    const csv = [META, "caf\u00e9 \u{1F697},2026-03-02,10.00", "cafe\u0301 \u{1F697},2026-03-02,5.00"].join(
      "\n",
    );
    expect(rows(csv)).toEqual({
      platform: "meta",
      rows: [["2026-03-02", "caf\u00e9 \u{1F697}", 1500]],
      errors: [],
    });
  });
});

describe("a long export", () => {
  it("is read in slices that let other work run in between, with the same result", async () => {
    const csv = [
      "Campaign name,Day,Amount spent (EUR)",
      ...Array.from(
        { length: 20_000 },
        (_, i) => `lang-${Math.floor(i / 20)},2026-03-${String(1 + (i % 20)).padStart(2, "0")},1.00`,
      ),
    ].join("\n");
    const order: string[] = [];
    setImmediate(() => order.push("other work"));
    const read = await readSpendCsv(csv);
    order.push("read");
    expect(order).toEqual(["other work", "read"]);
    expect(read).toEqual(parseSpendCsv(csv));
    expect(read.rows).toHaveLength(20_000);
  });
});

describe("the CSV of an export", () => {
  const META = "Campaign name,Day,Amount spent (EUR)";

  it("reads quoted fields holding the delimiter, doubled quotes and line ends, and numbers lines as the file does", () => {
    const csv = [
      META,
      '"lente, ""A""",2026-03-02,"1,00"',
      '"zomer\nB",2026-03-02,2.00',
      "x,gisteren,1.00",
    ].join("\r\n");
    expect(rows(csv)).toEqual({
      platform: "meta",
      rows: [["2026-03-02", 'lente, "A"', 100]],
      errors: [
        { line: 3, message: "De campagnenaam bevat een besturingsteken (U+000A); pas de naam aan" },
        { line: 5, message: 'Onbekende datum "gisteren"' },
      ],
    });
  });

  it("takes any line end, mixed, and skips blank lines without losing the line numbers", () => {
    const csv = `${META}\r\nlente,2026-03-02,1.00\n\n\rzomer,2026-03-02,2.00\r,2026-03-02,1.00`;
    const parsed = rows(csv);
    expect(parsed.rows).toEqual([
      ["2026-03-02", "lente", 100],
      ["2026-03-02", "zomer", 200],
    ]);
    expect(parsed.errors).toEqual([{ line: 6, message: "Geen campagnenaam" }]);
  });

  it("refuses a file whose quotes are no CSV in Dutch, naming the line, read at once or in slices", async () => {
    const stray = [META, "lente,2026-03-02,1.00", 'lente "A,2026-03-02,1.00'].join("\n");
    const message =
      'Regel 3 is geen geldige csv: een aanhalingsteken (") staat midden in een veld; exporteer het bestand opnieuw';
    expect(() => parseSpendCsv(stray)).toThrow(message);
    await expect(readSpendCsv(stray)).rejects.toThrow(message);
    const open = [META, '"lente,2026-03-02,1.00', "zomer,2026-03-02,1.00"].join("\n");
    expect(() => parseSpendCsv(open)).toThrow(/wordt niet gesloten/);
    await expect(readSpendCsv(open)).rejects.toThrow(/wordt niet gesloten/);
  });

  it("refuses more lines than an import takes, blank ones counted", () => {
    // 20,000 line ends are still read: the long export above has as many.
    const csv = [META, ...Array.from({ length: 20_001 }, () => "")].join("\n");
    expect(() => parseSpendCsv(csv)).toThrow("Het bestand heeft meer dan 20000 regels; splits het op");
  });
});

describe("numbers and dates of the exports", () => {
  it.each([
    ["1.234,56", ",", 123456],
    ["1,234.56", ".", 123456],
    ["€ 12,5", ",", 1250],
    ["300", ".", 30000],
    ["12.345678", ".", 1235],
  ] as const)("reads %s (decimal %s) as %i cents", (text, decimal, cents) => {
    expect(parseCents(text, decimal)).toBe(cents);
  });

  it.each([
    ["2026-03-02", false, "2026-03-02"],
    ["02-03-2026", false, "2026-03-02"],
    ["3/2/2026", true, "2026-03-02"],
    ["2 mrt. 2026", false, "2026-03-02"],
    ["Mar 2, 2026", true, "2026-03-02"],
    ["2026-03-02T00:00:00Z", true, "2026-03-02"],
  ] as const)("reads the day %s", (text, monthFirst, day) => {
    expect(parseDay(text, monthFirst)).toBe(day);
  });
});
