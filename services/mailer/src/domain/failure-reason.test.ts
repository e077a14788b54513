import { describe, expect, it } from "vitest";
import { MAIL_NOT_CONFIGURED_MESSAGE, UNKNOWN_OUTCOME_ERROR, failureReason } from "./failure-reason";

describe("failureReason: what the admin reads about an e-mail that was not sent", () => {
  it("says each stored error in Dutch, with SendGrid's own words where it gave any", () => {
    expect(failureReason(null)).toBeNull();
    expect(failureReason("mail_not_configured")).toBe(MAIL_NOT_CONFIGURED_MESSAGE);
    expect(failureReason("provider answered 403")).toBe(
      "SendGrid weigerde de API key (403). Controleer de key bij E-mail Instellingen.",
    );
    expect(
      failureReason("provider answered 400: The from address does not match a verified Sender Identity"),
    ).toBe(
      'SendGrid weigerde de e-mail (400). SendGrid meldt: "The from address does not match a verified Sender Identity".',
    );
    expect(failureReason("provider answered 429")).toBe(
      "SendGrid nam tijdelijk geen e-mail aan: te veel verzoeken (429).",
    );
    expect(failureReason("timed out after 8000 ms")).toBe("SendGrid antwoordde niet binnen 8 seconden.");
    expect(failureReason("provider unreachable: connect ECONNREFUSED 127.0.0.1:9")).toBe(
      "SendGrid was niet bereikbaar (netwerkfout). Controleer de internetverbinding van de server.",
    );
    expect(failureReason(UNKNOWN_OUTCOME_ERROR)).toMatch(/^Het verzenden werd onderbroken/);
  });

  it("unwraps the retry prefixes and says that it gave up", () => {
    expect(failureReason("gave up after retries: send failed, will retry: provider answered 503")).toBe(
      "Na herhaalde pogingen niet verzonden. SendGrid had een storing (503).",
    );
  });
});
