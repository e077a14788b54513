import { describe, expect, it } from "vitest";
import { DEFAULT_GOOGLE_CONVERSION_NAMES, GOOGLE_ADS_FEED_SECRET } from "@lease/contracts";
import {
  feedSecretHash,
  feedSecretMatches,
  googleAdsConversionsCsv,
  googleAdsTime,
  newFeedSecret,
  type GoogleConversionRow,
} from "./google-ads-file";

const names = DEFAULT_GOOGLE_CONVERSION_NAMES;
const row = (r: Partial<GoogleConversionRow>): GoogleConversionRow => ({
  clickIds: { gclid: "Cj0KCQjw-gclid_1" },
  event: "lead",
  at: new Date("2026-07-01T12:00:00Z"),
  valueCents: null,
  ...r,
});
const lines = (csv: string) => csv.split("\r\n");

describe("the Google Ads offline conversion file (click conversions template)", () => {
  it("starts with the time zone parameter and the template's columns, CRLF, no BOM", () => {
    const csv = googleAdsConversionsCsv([], names);
    expect(csv).toBe(
      "Parameters:TimeZone=Europe/Amsterdam\r\n" +
        "Google Click ID,GBRAID,WBRAID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency,Ad User Data,Ad Personalization\r\n",
    );
    expect(csv.charCodeAt(0)).toBe("P".charCodeAt(0));
  });

  it("writes a lead, an offer and a contract with the commission as value in EUR", () => {
    const csv = googleAdsConversionsCsv(
      [
        row({ event: "lead" }),
        row({ event: "offerte", at: new Date("2026-07-03T08:30:05Z") }),
        row({ event: "getekend", at: new Date("2026-07-10T09:00:00Z"), valueCents: 120_050 }),
      ],
      names,
    );
    expect(lines(csv).slice(2)).toEqual([
      "Cj0KCQjw-gclid_1,,,Offerteaanvraag,2026-07-01 14:00:00,,EUR,Granted,Granted",
      "Cj0KCQjw-gclid_1,,,Offerte verstuurd,2026-07-03 10:30:05,,EUR,Granted,Granted",
      "Cj0KCQjw-gclid_1,,,Contract getekend,2026-07-10 11:00:00,1200.50,EUR,Granted,Granted",
      "",
    ]);
  });

  it("puts exactly one click id in a row: the gclid first, else the wbraid, else the gbraid, each in its own column", () => {
    const csv = googleAdsConversionsCsv(
      [
        row({ clickIds: { gclid: "G1", gbraid: "B1", wbraid: "W1" } }),
        row({ clickIds: { gbraid: "B2", wbraid: "W2" } }),
        row({ clickIds: { gbraid: "B3" } }),
      ],
      names,
    );
    expect(
      lines(csv)
        .slice(2, 5)
        .map((l) => l.split(",").slice(0, 3)),
    ).toEqual([
      ["G1", "", ""],
      ["", "", "W2"],
      ["", "B3", ""],
    ]);
  });

  it("writes Amsterdam's local time, summer (+02:00) and winter (+01:00), 24 hours, at the turn of the day", () => {
    expect(googleAdsTime(new Date("2026-07-01T12:00:00Z"))).toBe("2026-07-01 14:00:00");
    expect(googleAdsTime(new Date("2026-01-15T12:00:00Z"))).toBe("2026-01-15 13:00:00");
    expect(googleAdsTime(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01 00:30:00");
    expect(googleAdsTime(new Date("2026-03-29T01:00:00Z"))).toBe("2026-03-29 03:00:00");
  });

  it("quotes a conversion name holding a comma or a quote (RFC 4180), and leaves plain cells bare", () => {
    const csv = googleAdsConversionsCsv([row({ event: "getekend", valueCents: 100_000 })], {
      ...names,
      getekend: 'Contract "zakelijk", getekend',
    });
    expect(lines(csv)[2]).toBe(
      'Cj0KCQjw-gclid_1,,,"Contract ""zakelijk"", getekend",2026-07-01 14:00:00,1000.00,EUR,Granted,Granted',
    );
  });
});

describe("formulas in the file", () => {
  /** Every cell of every line, split as an import that ignores the quotes would split it. */
  const naiveCells = (csv: string) => csv.split("\r\n").flatMap((line) => line.split(/[,;]/));

  it("reads none after a split on commas or semicolons, even from a name stored before the check", () => {
    const csv = googleAdsConversionsCsv([row({ event: "lead" }), row({ event: "offerte" })], {
      ...names,
      lead: "Offerteaanvraag;=cmd|' /C calc'!A0;",
      offerte: "Offerte, +31 verstuurd",
    });
    for (const cell of naiveCells(csv)) expect(cell).not.toMatch(/^\s*[=+\-@]/);
    // Quoted, so Dutch Excel (";") keeps it one cell.
    expect(lines(csv)[2]).toContain(`"Offerteaanvraag;'=cmd|' /C calc'!A0;"`);
  });

  it("leaves a valid name exactly as Google Ads knows it, quoted only where a separator needs it", () => {
    const csv = googleAdsConversionsCsv([row({ event: "lead" }), row({ event: "offerte" })], {
      ...names,
      lead: "Lead; zakelijk",
      offerte: "Offerte - verstuurd @kantoor",
    });
    expect(
      lines(csv)
        .slice(2, 4)
        .map((l) => l.split(",")[3]),
    ).toEqual(['"Lead; zakelijk"', "Offerte - verstuurd @kantoor"]);
  });

  it("writes only click ids Google issues, taking the next one of the row when one is not", () => {
    const csv = googleAdsConversionsCsv(
      [
        row({ clickIds: { gclid: "-2+3" } }),
        row({ clickIds: { gclid: "-bad", wbraid: "W_ok-1" } }),
        row({ clickIds: { wbraid: "a.b", gbraid: "B_ok" } }),
        row({ clickIds: { gbraid: "=1+1" } }),
      ],
      names,
    );
    expect(
      lines(csv)
        .slice(2, -1)
        .map((l) => l.split(",").slice(0, 3)),
    ).toEqual([
      ["", "", "W_ok-1"],
      ["", "B_ok", ""],
    ]);
  });
});

describe("the secret URL's secret", () => {
  it("is 32 random bytes in base64url, stored only as its SHA-256", () => {
    const a = newFeedSecret();
    const b = newFeedSecret();
    expect(a.secret).toMatch(GOOGLE_ADS_FEED_SECRET);
    expect(a.secret).not.toBe(b.secret);
    expect(a.hash).toBe(feedSecretHash(a.secret));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.secret);
  });

  it("matches only the stored one; nothing matches before a URL is made", () => {
    const { secret, hash } = newFeedSecret();
    expect(feedSecretMatches(secret, hash)).toBe(true);
    expect(feedSecretMatches(newFeedSecret().secret, hash)).toBe(false);
    const oneCharOff = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    expect(feedSecretMatches(oneCharOff, hash)).toBe(false);
    expect(feedSecretMatches(secret, null)).toBe(false);
    expect(feedSecretMatches("kort", hash)).toBe(false);
    expect(feedSecretMatches(hash, hash)).toBe(false);
  });
});
