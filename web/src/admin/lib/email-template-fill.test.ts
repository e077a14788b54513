import { describe, expect, it } from "vitest";
import { DEFAULT_FOLLOW_UP_TEMPLATE } from "@lease/contracts";
import { composeTemplate } from "./compose-template";
import { fillTemplate } from "./email-template-fill";

describe("a template in the compose window", () => {
  const request = {
    companyName: "Jansen BV",
    carUrl: "https://www.autoscout24.nl/aanbod/x",
    email: "a@b.nl",
  };
  const company = {
    companyName: "Lease BV",
    phoneNumber: "020 1234567",
    emailAddress: "info@lease.nl",
    address: null,
    city: null,
  };

  it("the default one is the follow-up text the compose window always began with, signed by the admin", () => {
    const { subject, message } = fillTemplate(DEFAULT_FOLLOW_UP_TEMPLATE, {
      request,
      company,
      me: "marieke",
    });
    const before = composeTemplate(request, company);
    expect(subject).toBe(before.subject);
    expect(message).toBe(`${before.message}\nmarieke`);
  });

  it("leaves what it cannot fill, so the send refuses it by name", () => {
    const { message } = fillTemplate(
      { subject: "x", body: "Beste {{klant}}, {{onbekend}} en {{ auto_url }}" },
      { company },
    );
    expect(message).toBe("Beste {{klant}}, {{onbekend}} en {{ auto_url }}");
  });
});
