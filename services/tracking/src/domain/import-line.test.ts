import { describe, expect, it } from "vitest";
import { ImportLine, parseImportLine } from "./import-line";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const base = { id: "umami-1", at: "2026-03-01T10:15:00Z", session: "s1", page: "/" };
const line = (fields: Record<string, unknown>) => JSON.stringify({ ...base, ...fields });

// parseImportLine takes plainly valid lines without zod; these are the edges where a hand check and
// the schema could part ways.
const cases = [
  line({}),
  line({ referrer: "https://www.google.nl/" }),
  line({ referrer: "" }),
  line({ referrer: null }),
  line({ referrer: 7 }),
  line({ referrer: "x".repeat(1024) }),
  line({ referrer: "x".repeat(1025) }),
  line({ referrer: "https://a.nl/\u0007" }),
  line({ at: "2026-03-01T10:15:00.123456+01:00" }),
  line({ at: "2026-03-01T10:15:00-02:30" }),
  line({ at: "2024-02-29T10:15:00Z" }),
  line({ at: "2023-02-29T10:15:00Z" }),
  line({ at: "2026-03-01T10:15Z" }),
  line({ at: "2026-03-01T10:15:00z" }),
  line({ at: "2026-03-01 10:15:00Z" }),
  line({ at: "2026-03-01T24:00:00Z" }),
  line({ at: "2026-03-01T10:15:00+24:00" }),
  line({ at: 1772360100000 }),
  line({ id: "" }),
  line({ id: "i".repeat(200) }),
  line({ id: "i".repeat(201) }),
  line({ id: 12 }),
  line({ session: "" }),
  line({ session: "s".repeat(100) }),
  line({ session: "s".repeat(101) }),
  line({ page: "over-ons" }),
  line({ page: "/a?b=c#d" }),
  line({ page: `/${"p".repeat(2047)}` }),
  line({ page: `/${"p".repeat(2048)}` }),
  line({ page: "/\u0000" }),
  line({ page: "/\u007f" }),
  line({ page: "/é€😀" }),
  line({ extra: 1 }),
  '{"id":"a","at":"2026-03-01T10:15:00Z","session":"s","page":"/","__proto__":{"x":1}}',
  JSON.stringify({ at: base.at, session: "s", page: "/" }),
  "[1,2]",
  '"text"',
  "null",
  "42",
];

describe("parseImportLine", () => {
  it.each(cases)("accepts and refuses as ImportLine does: %s", (text) => {
    const parsed = parseImportLine(text, NOW);
    const schema = ImportLine.safeParse(JSON.parse(text));
    expect("event" in parsed).toBe(schema.success);
    if (schema.success && "event" in parsed) {
      expect(parsed.event).toEqual({
        eventId: schema.data.id,
        sessionId: schema.data.session,
        isView: true,
        page: schema.data.page,
        referrer: schema.data.referrer || null,
        userAgent: null,
        country: null,
        city: null,
        at: new Date(schema.data.at),
      });
    }
  });

  it("refuses a time in the future, beyond five minutes", () => {
    expect(parseImportLine(line({ at: "2026-12-01T12:04:00Z" }), NOW)).toHaveProperty("event");
    expect(parseImportLine(line({ at: "2026-12-01T12:06:00Z" }), NOW)).toEqual({
      error: "at (2026-12-01T12:06:00Z) ligt in de toekomst",
    });
  });
});
