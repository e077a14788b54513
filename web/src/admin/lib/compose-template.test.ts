import { DEFAULT_COMPANY_NAME } from "@lease/contracts";
import { describe, expect, it } from "vitest";
import { validateCompose } from "./compose-form";
import { OWN_TEXT_PLACEHOLDER, companyDetailLines, composeTemplate } from "./compose-template";

const request = { email: "klant@acme.nl", companyName: "Acme BV", carUrl: "https://auto.nl/tesla" };
const company = {
  companyName: "Lease Centrum Noord",
  phoneNumber: "020 123 4567",
  emailAddress: "info@lcn.nl",
  address: "Damrak 1",
  city: "Amsterdam",
};

describe("compose pre-fill (SPEC §2)", () => {
  it("addresses the request's e-mail with the follow-up subject and the company's name", () => {
    const draft = composeTemplate(request, company);
    expect(draft.to).toBe("klant@acme.nl");
    expect(draft.subject).toBe("Follow-up op uw lease aanvraag - Lease Centrum Noord");
  });

  it("greets the customer, cites the car, leaves room for own text, lists phone and e-mail and signs with address", () => {
    const { message } = composeTemplate(request, company);
    expect(message.startsWith("Beste Acme BV,")).toBe(true);
    expect(message).toContain("https://auto.nl/tesla");
    expect(message).toContain(OWN_TEXT_PLACEHOLDER);
    expect(message).toContain("Telefoon: 020 123 4567");
    expect(message).toContain("E-mail: info@lcn.nl");
    expect(message.trimEnd().endsWith("Lease Centrum Noord\nDamrak 1, Amsterdam")).toBe(true);
  });

  it('greets "klant", uses the default company name and leaves out what is not set', () => {
    const empty = { companyName: "", phoneNumber: null, emailAddress: null, address: "Damrak 1", city: null };
    const draft = composeTemplate({ ...request, companyName: null }, empty);
    expect(draft.subject).toBe(`Follow-up op uw lease aanvraag - ${DEFAULT_COMPANY_NAME}`);
    expect(draft.message.startsWith("Beste klant,")).toBe(true);
    expect(draft.message).not.toContain("Telefoon:");
    expect(draft.message).not.toContain("Damrak 1");
    expect(draft.message.trimEnd().endsWith(DEFAULT_COMPANY_NAME)).toBe(true);
  });

  it("lists the company details that are added automatically", () => {
    expect(companyDetailLines(company)).toEqual([
      "Lease Centrum Noord",
      "Damrak 1, Amsterdam",
      "Telefoon: 020 123 4567",
      "E-mail: info@lcn.nl",
    ]);
    expect(companyDetailLines(undefined)).toEqual([DEFAULT_COMPANY_NAME]);
  });
});

describe("compose validation (SPEC §5)", () => {
  it("gives the three Dutch messages", () => {
    expect(validateCompose({ to: "geen-adres", subject: " ", message: "kort" })).toEqual({
      to: "Voer een geldig e-mailadres in",
      subject: "Onderwerp is verplicht",
      message: "Bericht moet minimaal 10 karakters bevatten",
    });
    expect(validateCompose({ to: "a@b.nl", subject: "Hoi", message: "1234567890" })).toEqual({});
  });
});
