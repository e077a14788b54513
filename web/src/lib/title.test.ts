import { describe, expect, it } from "vitest";
import { DEFAULT_MOBILE_TITLE, mobileTitle } from "./title";

describe("mobileTitle", () => {
  it("prefers the mobile abbreviation setting", () => {
    expect(mobileTitle("Zakelijk Lease Nederland", "ZLN")).toBe("ZLN");
  });

  it("ignores a blank abbreviation", () => {
    expect(mobileTitle("Zakelijk Lease Nederland", "  ")).toBe("ZLN");
  });

  it("takes the initials of up to four words", () => {
    expect(mobileTitle("zakelijk auto lease centrum nederland")).toBe("ZALC");
    expect(mobileTitle("Lease & Co Partners")).toBe("LCP");
  });

  it("gives the first four letters of a single word in capitals", () => {
    expect(mobileTitle("Leasewereld")).toBe("LEAS");
    expect(mobileTitle("abc")).toBe("ABC");
  });

  it("falls back to the four-letter default when nothing is available", () => {
    expect(mobileTitle(undefined, undefined)).toBe(DEFAULT_MOBILE_TITLE);
    expect(mobileTitle("   ", null)).toBe(DEFAULT_MOBILE_TITLE);
    expect(DEFAULT_MOBILE_TITLE).toHaveLength(4);
  });
});
