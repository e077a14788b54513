import { ContactBody, CreateLeaseRequestBody } from "@lease/contracts";
import { describe, expect, it } from "vitest";
import {
  EMPTY_CONTACT,
  EMPTY_LEASE_REQUEST,
  checkContact,
  checkLeaseRequest,
  isEmailAddress,
  isHttpUrl,
  withUrlScheme,
} from "./forms";

const VALID = {
  ...EMPTY_LEASE_REQUEST,
  carUrl: "https://www.autoscout24.nl/aanbod/tesla-model-3",
  contactNumber: "06 12345678",
  email: "jan@bedrijf.nl",
};

describe("lease request form checks", () => {
  it('fails with "Vul alle verplichte velden in" when a required field is empty', () => {
    expect(checkLeaseRequest({ ...VALID, email: " " }).formError).toBe("Vul alle verplichte velden in");
    expect(checkLeaseRequest(EMPTY_LEASE_REQUEST).body).toBeNull();
  });

  it("gives the forms' field messages", () => {
    const check = checkLeaseRequest({ ...VALID, carUrl: "geen url", contactNumber: "06123", email: "jan@" });
    expect(check.fieldErrors).toEqual({
      carUrl: "Voer een geldige auto URL in",
      contactNumber: "Voer een geldig telefoonnummer in",
      email: "Voer een geldig e-mailadres in",
    });
  });

  it("builds a body the contract accepts, leaving empty optional fields out", () => {
    const check = checkLeaseRequest({ ...VALID, leaseTerm: "48", companyName: "  ", message: "Graag snel" });
    expect(check.body).toEqual({
      ...VALID,
      leaseTerm: 48,
      message: "Graag snel",
      companyName: undefined,
      website: "",
    });
    expect(CreateLeaseRequestBody.safeParse(check.body).success).toBe(true);
  });

  it.each([
    ["javascript:alert(1)", false],
    ["ftp://example.com/car", false],
    ["https://example.com/auto?id=1", true],
    ["http://localhost:8080/x", true],
    ["//example.com", false],
  ])("agrees with the contract on car URL %s", (carUrl, valid) => {
    expect(isHttpUrl(carUrl)).toBe(valid);
    expect(CreateLeaseRequestBody.safeParse({ ...VALID, carUrl }).success).toBe(valid);
  });

  it.each([
    ["www.autoscout24.nl/aanbod/tesla-model-3", "https://www.autoscout24.nl/aanbod/tesla-model-3"],
    ["autoscout24.nl", "https://autoscout24.nl"],
    ["marktplaats.nl/v/auto-s?q=1", "https://marktplaats.nl/v/auto-s?q=1"],
    ["http://dealer.nl/auto", "http://dealer.nl/auto"],
    ["javascript:alert(1)", "javascript:alert(1)"],
    ["geen url", "geen url"],
    ["localhost:8080/x", "localhost:8080/x"],
  ])("adds https:// to a link typed without it, as the contract does: %s", (typed, sent) => {
    expect(withUrlScheme(typed)).toBe(sent);
    const body = CreateLeaseRequestBody.safeParse({ ...VALID, carUrl: typed });
    expect(body.success ? body.data.carUrl : typed).toBe(sent);
    expect(checkLeaseRequest({ ...VALID, carUrl: typed }).body?.carUrl ?? typed).toBe(sent);
  });

  it.each([
    ["jan@bedrijf.nl", true],
    ["jan.de.vries+lease@sub.bedrijf.com", true],
    ["jan@bedrijf", false],
    ["jan bedrijf.nl", false],
    ["jan..x@bedrijf.nl", false],
  ])("agrees with the contract on e-mail %s", (email, valid) => {
    expect(isEmailAddress(email)).toBe(valid);
    expect(CreateLeaseRequestBody.safeParse({ ...VALID, email }).success).toBe(valid);
  });
});

describe("contact form checks", () => {
  it("requires name, e-mail and a message of 10 characters", () => {
    expect(checkContact(EMPTY_CONTACT).fieldErrors).toEqual({
      name: "Naam is verplicht",
      email: "Voer een geldig e-mailadres in",
      message: "Bericht moet minimaal 10 karakters bevatten",
    });
  });

  it("builds a body the contract accepts", () => {
    const { body } = checkContact({
      ...EMPTY_CONTACT,
      name: "Jan",
      email: "jan@bedrijf.nl",
      message: "Bel mij even terug",
    });
    expect(body).toEqual({
      name: "Jan",
      email: "jan@bedrijf.nl",
      message: "Bel mij even terug",
      website: "",
    });
    expect(ContactBody.safeParse(body).success).toBe(true);
  });
});
