import { describe, expect, it } from "vitest";
import { LOGIN_FAILED_MESSAGE, LoginBody } from "./auth";
import { ContactBody } from "./contact";
import { SendEmailBody } from "./emails";
import { TrackHeartbeatBody, TrackVisitBody, VisitorSeriesQuery } from "./tracking";

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe("LoginBody", () => {
  it("requires username and password with the Dutch messages", () => {
    expect(firstMessage(LoginBody.safeParse({ username: "  ", password: "x" }))).toBe(
      "Gebruikersnaam is verplicht",
    );
    expect(firstMessage(LoginBody.safeParse({ username: "admin", password: "" }))).toBe(
      "Wachtwoord is verplicht",
    );
    expect(firstMessage(LoginBody.safeParse({ password: "x" }))).toBe("Gebruikersnaam is verplicht");
    expect(LoginBody.parse({ username: " admin ", password: " pw " })).toEqual({
      username: "admin",
      password: " pw ",
    });
    expect(LOGIN_FAILED_MESSAGE).toBe("Onjuiste inloggegevens");
  });
});

describe("SendEmailBody", () => {
  const valid = { to: "klant@bedrijf.nl", subject: "Follow-up", message: "Beste klant, hierbij" };

  it("validates the compose form with the Dutch messages", () => {
    expect(firstMessage(SendEmailBody.safeParse({ ...valid, to: "klant" }))).toBe(
      "Voer een geldig e-mailadres in",
    );
    expect(firstMessage(SendEmailBody.safeParse({ ...valid, subject: "" }))).toBe("Onderwerp is verplicht");
    expect(firstMessage(SendEmailBody.safeParse({ ...valid, message: "Te kort" }))).toBe(
      "Bericht moet minimaal 10 karakters bevatten",
    );
  });

  it("refuses line breaks in the subject (header injection)", () => {
    expect(firstMessage(SendEmailBody.safeParse({ ...valid, subject: "Hoi\r\nBcc: x@y.nl" }))).toBe(
      "Onderwerp mag geen regeleinden bevatten",
    );
  });

  it("accepts a lease request id, null, or nothing", () => {
    const id = "7f1c1e1a-4a7e-4c3e-9a59-3b7e3f1d2c4b";
    expect(SendEmailBody.parse({ ...valid, leaseRequestId: id }).leaseRequestId).toBe(id);
    expect(SendEmailBody.parse({ ...valid, leaseRequestId: null }).leaseRequestId).toBeNull();
    expect(SendEmailBody.parse({ ...valid, leaseRequestId: "" }).leaseRequestId).toBeNull();
    expect(SendEmailBody.safeParse({ ...valid, leaseRequestId: "abc" }).success).toBe(false);
    expect(SendEmailBody.safeParse({ ...valid, cc: "x@y.nl" }).success).toBe(false);
  });
});

describe("ContactBody", () => {
  const valid = { name: "Jan", email: "jan@bedrijf.nl", message: "Graag meer informatie" };

  it("validates with the Dutch messages", () => {
    expect(ContactBody.safeParse(valid).success).toBe(true);
    expect(firstMessage(ContactBody.safeParse({ ...valid, name: " " }))).toBe("Naam is verplicht");
    expect(firstMessage(ContactBody.safeParse({ ...valid, message: "kort" }))).toBe(
      "Bericht moet minimaal 10 karakters bevatten",
    );
    expect(firstMessage(ContactBody.safeParse({ ...valid, phone: "123" }))).toBe(
      "Voer een geldig telefoonnummer in",
    );
    expect(ContactBody.parse({ ...valid, phone: "" }).phone).toBeUndefined();
    expect(ContactBody.safeParse({ ...valid, extra: 1 }).success).toBe(false);
  });
});

describe("tracking", () => {
  const sessionId = `session-${Math.random().toString(36).slice(2)}-${Date.now()}`;

  it("accepts what the browser sends", () => {
    expect(TrackVisitBody.safeParse({ sessionId, page: "/zakelijke-lease", referrer: "" }).success).toBe(
      true,
    );
    expect(TrackVisitBody.safeParse({ sessionId, page: "/" }).success).toBe(true);
    expect(TrackHeartbeatBody.safeParse({ sessionId }).success).toBe(true);
  });

  it("refuses malformed sessions, pages and unknown keys", () => {
    expect(TrackVisitBody.safeParse({ sessionId: "abc", page: "/" }).success).toBe(false);
    expect(TrackVisitBody.safeParse({ sessionId: `${sessionId}x`.repeat(5), page: "/" }).success).toBe(false);
    expect(TrackVisitBody.safeParse({ sessionId, page: "https://evil.com" }).success).toBe(false);
    expect(TrackVisitBody.safeParse({ sessionId, page: "/a\nb" }).success).toBe(false);
    expect(TrackVisitBody.safeParse({ sessionId, page: `/${"a".repeat(512)}` }).success).toBe(false);
    expect(TrackVisitBody.safeParse({ sessionId, page: "/", referrer: "x".repeat(1025) }).success).toBe(
      false,
    );
    expect(TrackVisitBody.safeParse({ sessionId, page: "/", ip: "1.2.3.4" }).success).toBe(false);
  });

  it("defaults the series range to 24h", () => {
    expect(VisitorSeriesQuery.parse({})).toEqual({ range: "24h" });
    expect(VisitorSeriesQuery.safeParse({ range: "1y" }).success).toBe(false);
  });
});
