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

describe("compose pre-fill", () => {
  it("addresses the request's e-mail with the follow-up subject and the company's name", () => {
    const draft = composeTemplate(request, company);
    expect(draft.to).toBe("klant@acme.nl");
    expect(draft.subject).toBe("Follow-up op uw lease aanvraag - Lease Centrum Noord");
  });

  it("greets the customer, cites the car, leaves room for own text and signs off, without the company's details", () => {
    const { message } = composeTemplate(request, company);
    expect(message.startsWith("Beste Acme BV,")).toBe(true);
    expect(message).toContain("https://auto.nl/tesla");
    expect(message).toContain(OWN_TEXT_PLACEHOLDER);
    expect(message.trimEnd().endsWith("Met vriendelijke groet,")).toBe(true);
    // The mailer adds these below the message: in the body they would reach the customer twice.
    for (const detail of ["020 123 4567", "info@lcn.nl", "Damrak 1", "Lease Centrum Noord"])
      expect(message).not.toContain(detail);
  });

  it('greets "klant" and uses the default company name in the subject', () => {
    const empty = { companyName: "", phoneNumber: null, emailAddress: null, address: "Damrak 1", city: null };
    const draft = composeTemplate({ ...request, companyName: null }, empty);
    expect(draft.subject).toBe(`Follow-up op uw lease aanvraag - ${DEFAULT_COMPANY_NAME}`);
    expect(draft.message.startsWith("Beste klant,")).toBe(true);
  });

  it("lists the company details that are added automatically, as the mailer adds them", () => {
    expect(companyDetailLines({ ...company, postalCode: "1012 AB", kvkNumber: "12345678" })).toEqual([
      "Lease Centrum Noord",
      "Damrak 1, 1012 AB Amsterdam",
      "Tel: 020 123 4567",
      "E-mail: info@lcn.nl",
      "KvK: 12345678",
    ]);
    expect(companyDetailLines(undefined)).toEqual([DEFAULT_COMPANY_NAME]);
  });
});

describe("compose validation", () => {
  it("gives the three Dutch messages", () => {
    expect(validateCompose({ to: "geen-adres", subject: " ", message: "kort" })).toEqual({
      to: "Voer een geldig e-mailadres in",
      subject: "Onderwerp is verplicht",
      message: "Bericht moet minimaal 10 karakters bevatten",
    });
    expect(validateCompose({ to: "a@b.nl", subject: "Hoi", message: "1234567890" })).toEqual({});
  });

  it("refuses the template's placeholder left in, with a Dutch message", () => {
    const { message } = composeTemplate(request, company);
    expect(validateCompose({ to: "a@b.nl", subject: "Hoi", message }).message).toBe(
      'Vervang "[Voeg hier uw persoonlijke bericht toe]" door uw eigen bericht',
    );
    const own = message.replace(OWN_TEXT_PLACEHOLDER, "Wij hebben een aanbod voor u.");
    expect(validateCompose({ to: "a@b.nl", subject: "Hoi", message: own })).toEqual({});
  });
});
