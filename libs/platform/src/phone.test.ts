import { describe, expect, it } from "vitest";
import { phoneCountry, phoneE164 } from "./phone";

describe("phone numbers as people type them", () => {
  it.each([
    ["+31 (0)6-1234 5678", "+31612345678"],
    ["0031 (0)6 1234 5678", "+31612345678"],
    ["06 1234 5678", "+31612345678"],
    ["+31 6 12345678", "+31612345678"],
    ["020-123 4567", "+31201234567"],
    ["+32 470 12 34 56", "+32470123456"],
    ["0032 (0)470 12 34 56", "+32470123456"],
  ])("reads %j as %s", (typed, e164) => {
    expect(phoneE164(typed)).toBe(e164);
  });

  it.each(["123", "+31 6 123", "06 1234 56789 0", "+999 12345678"])("finds no number in %j", (typed) => {
    expect(phoneE164(typed)).toBeNull();
  });

  it("knows the number's country, lower-case, only for a valid number", () => {
    expect(phoneCountry("06 1234 5678")).toBe("nl");
    expect(phoneCountry("+32 470 12 34 56")).toBe("be");
    expect(phoneCountry("+31 6 123")).toBeNull();
  });
});
