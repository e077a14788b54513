import { describe, expect, it } from "vitest";
import { companyDetails, registrationLines, telHref } from "./company";
import { DEFAULT_COMPANY_NAME } from "./constants";

describe("companyDetails", () => {
  it("uses the default name and nulls when nothing is configured", () => {
    expect(companyDetails(undefined)).toMatchObject({
      name: DEFAULT_COMPANY_NAME,
      phone: null,
      email: null,
      fullAddress: null,
    });
  });

  it("joins the address parts that are present", () => {
    const details = companyDetails({
      companyName: " Lease BV ",
      address: "Keizersgracht 1",
      postalCode: "1015 CJ",
      city: "Amsterdam",
      phoneNumber: "",
    });
    expect(details.name).toBe("Lease BV");
    expect(details.fullAddress).toBe("Keizersgracht 1, 1015 CJ Amsterdam");
    expect(details.phone).toBeNull();
    expect(companyDetails({ city: "Utrecht" }).fullAddress).toBe("Utrecht");
  });

  it('says a missing KvK or BTW number as "KvK-nummer op aanvraag" alone, a set one after its label', () => {
    expect(registrationLines(companyDetails({}))).toEqual([
      "KvK-nummer op aanvraag",
      "BTW-nummer op aanvraag",
    ]);
    expect(registrationLines(companyDetails({ kvkNumber: "12345678", btwNumber: "NL123456789B01" }))).toEqual(
      ["KvK: 12345678", "BTW: NL123456789B01"],
    );
  });

  it("builds tel: links from formatted numbers", () => {
    expect(telHref("+31 (0)20 123 45 67")).toBe("tel:+310201234567");
  });
});
