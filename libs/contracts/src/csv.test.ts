import { describe, expect, it } from "vitest";
import { csvCell, csvPhoneCell } from "./csv";

describe("a CSV cell", () => {
  it("is always quoted, with inner quotes doubled", () => {
    expect(csvCell("ACME BV")).toBe('"ACME BV"');
    expect(csvCell('zeg "hallo"')).toBe('"zeg ""hallo"""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(48)).toBe('"48"');
    expect(csvCell(-2.5)).toBe('"-2.5"');
  });

  it("never starts with a formula: = + - @ tab and CR get a leading apostrophe", () => {
    for (const hostile of ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "\tx", "\rx", '  =HYPERLINK("x")'])
      expect(csvCell(hostile)).toBe(`"'${hostile.replaceAll('"', '""')}"`);
    expect(csvCell("a=b")).toBe('"a=b"');
  });

  it("neutralises a formula after a separator, for an import that ignores the quotes", () => {
    expect(csvCell("ACME BV,=cmd|' /C calc'!A0")).toBe(`"ACME BV,'=cmd|' /C calc'!A0"`);
    expect(csvCell("a;+1;b\t-2")).toBe(`"a;'+1;b\t'-2"`);
    expect(csvCell("eerste regel\r\n@SUM(1)")).toBe(`"eerste regel\r\n'@SUM(1)"`);
    expect(csvCell("x, =1")).toBe(`"x, '=1"`);
    expect(csvCell("1,5 of 2;3")).toBe('"1,5 of 2;3"');
  });

  it("leaves no part of a hostile cell that an unquoted split reads as a formula", () => {
    const hostile = `=a,+b;-c\t@d\r=e\n+f, =g`;
    const cell = csvCell(hostile).slice(1, -1);
    for (const part of cell.split(/[,;\t\r\n]/)) expect(part).not.toMatch(/^\s*[=+\-@]/);
  });
});

describe("a validated phone number in a CSV", () => {
  it("keeps its + without an apostrophe a spreadsheet would show", () => {
    expect(csvPhoneCell("+31 6 12345678")).toBe('" +31 6 12345678"');
    expect(csvPhoneCell("06 12345678")).toBe('"06 12345678"');
  });
  it("is an ordinary, neutralised cell when it is not a validated number", () => {
    expect(csvPhoneCell("+31=HYPERLINK(1)")).toBe(`"'+31=HYPERLINK(1)"`);
    expect(csvPhoneCell(null)).toBe('""');
  });
});
