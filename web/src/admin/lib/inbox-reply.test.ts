import { describe, expect, it } from "vitest";
import { replySubject, senderPhone } from "./inbox";

const body = (text: string, messageType: "lease_request" | "contact_form" | "other" = "lease_request") => ({
  messageType,
  messageBody: text,
});

describe("the inbox e-mail's sender", () => {
  it("takes the phone from the Telefoon line the mailer writes into a quote or contact entry", () => {
    expect(
      senderPhone(body("Bedrijfsnaam: X\nE-mail: a@b.nl\nTelefoon: +31 6 12345678\nLooptijd: 48 maanden")),
    ).toBe("+31 6 12345678");
    expect(senderPhone(body("Naam: Jan\nTelefoon: 020-1234567\n", "contact_form"))).toBe("020-1234567");
    expect(senderPhone(body("Naam: Jan\nBericht: bel me\n", "contact_form"))).toBeNull();
    // A customer's own e-mail is free text: no number is guessed from it.
    expect(senderPhone(body("Telefoon: 0612345678", "other"))).toBeNull();
  });

  it('answers with "Re: <subject>", once', () => {
    expect(replySubject("Nieuwe lease aanvraag van X")).toBe("Re: Nieuwe lease aanvraag van X");
    expect(replySubject("RE: Offerte")).toBe("RE: Offerte");
  });
});
