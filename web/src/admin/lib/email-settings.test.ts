import { describe, expect, it } from "vitest";
import {
  EMAIL_STATUS_TEXT,
  canSendTest,
  changedEmailFields,
  draftProblems,
  emailSettingsStatus,
  hasUnsavedChanges,
  isApiKeyFormatValid,
  isSenderFormatValid,
} from "./email-settings";

const draft = (sendgridApiKey: string, fromEmailAddress: string) => ({ sendgridApiKey, fromEmailAddress });

describe("e-mail settings status", () => {
  it("says why what is typed would not work: a missing field and each wrong format", () => {
    expect(draftProblems(draft("SG.x", "a@b.nl"))).toEqual([]);
    expect(draftProblems(draft("abc", "info"))).toEqual([
      "de API key heeft een ongeldig formaat (een SendGrid API key begint met SG.)",
      "de afzender e-mail heeft een ongeldig formaat (een e-mailadres bevat een @)",
    ]);
    expect(draftProblems(draft("SG.x", ""))).toEqual(["Afzender e-mail ontbreekt"]);
    expect(draftProblems(draft("", "a@b.nl"), true)).toEqual([
      "De opgeslagen API key kan niet worden gelezen — voer hem opnieuw in",
    ]);
  });

  it("names the four states in Dutch", () => {
    expect(EMAIL_STATUS_TEXT[emailSettingsStatus(draft("SG.x", "a@b.nl"))]).toBe("Volledig geconfigureerd");
    expect(EMAIL_STATUS_TEXT[emailSettingsStatus(draft("SG.x", ""))]).toBe("Afzender e-mail ontbreekt");
    expect(EMAIL_STATUS_TEXT[emailSettingsStatus(draft(" ", "a@b.nl"))]).toBe("API key ontbreekt");
    expect(EMAIL_STATUS_TEXT[emailSettingsStatus(draft("", ""))]).toBe("Niet geconfigureerd");
  });

  it("a stored key the server cannot decrypt is that, until a new key is typed", () => {
    expect(EMAIL_STATUS_TEXT[emailSettingsStatus(draft("", "a@b.nl"), true)]).toBe(
      "De opgeslagen API key kan niet worden gelezen — voer hem opnieuw in",
    );
    expect(canSendTest(draft("", "a@b.nl"), true)).toBe(false);
    expect(emailSettingsStatus(draft("SG.nieuw", "a@b.nl"), true)).toBe("configured");
  });

  it("allows the test only when both are set", () => {
    expect(canSendTest(draft("SG.x", "a@b.nl"))).toBe(true);
    expect(canSendTest(draft("SG.x", ""))).toBe(false);
  });

  it('checks formats without blocking: the key starts with "SG." (also masked), the sender contains "@"', () => {
    expect(isApiKeyFormatValid("SG.…abcd")).toBe(true);
    expect(isApiKeyFormatValid("xyz")).toBe(false);
    expect(isSenderFormatValid("info@bedrijf.nl")).toBe(true);
    expect(isSenderFormatValid("info")).toBe(false);
  });

  it("sends only the changed fields and tracks unsaved changes", () => {
    const stored = draft("SG.…abcd", "a@b.nl");
    expect(changedEmailFields(stored, stored)).toEqual({});
    expect(hasUnsavedChanges(stored, stored)).toBe(false);
    expect(changedEmailFields(stored, draft("SG.…abcd", "nieuw@b.nl "))).toEqual({
      fromEmailAddress: "nieuw@b.nl",
    });
    expect(changedEmailFields(stored, draft("SG.new", ""))).toEqual({
      sendgridApiKey: "SG.new",
      fromEmailAddress: "",
    });
  });
});
