import { describe, expect, it } from "vitest";
import {
  AdminCompanySettings,
  PUBLIC_COMPANY_SETTINGS_KEYS,
  isMaskedApiKey,
  maskApiKey,
} from "../entities/company-settings";
import { THEME_DEFAULTS, ThemeValues } from "../entities/theme-settings";
import { UpdateCompanySettingsBody, UpdateThemeSettingsBody } from "./settings";

const firstMessage = (input: unknown) => UpdateCompanySettingsBody.safeParse(input).error?.issues[0]?.message;

describe("UpdateCompanySettingsBody", () => {
  it("is a partial update: an empty body changes nothing", () => {
    expect(UpdateCompanySettingsBody.parse({})).toEqual({});
  });

  it("requires a company name when one is sent", () => {
    expect(firstMessage({ companyName: "  " })).toBe("Bedrijfsnaam is verplicht");
    expect(firstMessage({ companyName: null })).toBe("Bedrijfsnaam is verplicht");
    expect(UpdateCompanySettingsBody.parse({ companyName: " Lease BV " }).companyName).toBe("Lease BV");
  });

  it("limits the mobile abbreviation to 15 characters", () => {
    expect(firstMessage({ mobileAbbreviation: "x".repeat(16) })).toBe("Maximaal 15 tekens");
    expect(UpdateCompanySettingsBody.safeParse({ mobileAbbreviation: "x".repeat(15) }).success).toBe(true);
  });

  it("clears optional fields with an empty string or null", () => {
    expect(UpdateCompanySettingsBody.parse({ city: "", kvkNumber: null, tiktokPixelId: " " })).toEqual({
      city: null,
      kvkNumber: null,
      tiktokPixelId: null,
    });
  });

  it("checks KvK numbers", () => {
    expect(UpdateCompanySettingsBody.parse({ kvkNumber: "1234 5678" }).kvkNumber).toBe("12345678");
    expect(firstMessage({ kvkNumber: "1234567" })).toBe("KvK-nummer bestaat uit 8 cijfers");
    expect(firstMessage({ kvkNumber: "1234567a" })).toBe("KvK-nummer bestaat uit 8 cijfers");
  });

  it("checks and normalises BTW numbers, ignoring spaces and dots", () => {
    expect(UpdateCompanySettingsBody.parse({ btwNumber: "nl 1234.56.789 b01" }).btwNumber).toBe(
      "NL123456789B01",
    );
    for (const btwNumber of ["NL123456789", "BE123456789B01", "NL12345678B01", "NL123456789B1"]) {
      expect(firstMessage({ btwNumber })).toBe("Gebruik een BTW-nummer als NL123456789B01");
    }
  });

  it("normalises Dutch postal codes", () => {
    expect(UpdateCompanySettingsBody.parse({ postalCode: "1234ab" }).postalCode).toBe("1234 AB");
    expect(UpdateCompanySettingsBody.safeParse({ postalCode: "0123 AB" }).success).toBe(false);
  });

  it("checks the three pixel id formats", () => {
    const ok = UpdateCompanySettingsBody.parse({
      facebookPixelId: "1234567890123456",
      snapchatPixelId: "7f1c1e1a-4a7e-4c3e-9a59-3b7e3f1d2c4b",
      tiktokPixelId: "c9abcdefghij12345678",
    });
    expect(ok.tiktokPixelId).toBe("C9ABCDEFGHIJ12345678");
    expect(firstMessage({ facebookPixelId: "123" })).toBe("Een Meta Pixel ID bestaat uit 10 tot 20 cijfers");
    expect(firstMessage({ facebookPixelId: "<script>alert(1)</script>" })).toBe(
      "Een Meta Pixel ID bestaat uit 10 tot 20 cijfers",
    );
    expect(UpdateCompanySettingsBody.safeParse({ snapchatPixelId: "abc" }).success).toBe(false);
    expect(UpdateCompanySettingsBody.safeParse({ tiktokPixelId: "ABC'});alert(1)//" }).success).toBe(false);
  });

  it("accepts only http(s) websites", () => {
    expect(UpdateCompanySettingsBody.parse({ website: "www.bedrijf.nl" }).website).toBe(
      "https://www.bedrijf.nl",
    );
    expect(UpdateCompanySettingsBody.safeParse({ website: "javascript:alert(1)" }).success).toBe(false);
    expect(UpdateCompanySettingsBody.safeParse({ website: "//evil.com" }).success).toBe(false);
  });

  it("checks e-mail addresses and phone numbers", () => {
    expect(firstMessage({ fromEmailAddress: "noreply" })).toBe("Voer een geldig e-mailadres in");
    expect(firstMessage({ emailAddress: "info@" })).toBe("Voer een geldig e-mailadres in");
    expect(firstMessage({ phoneNumber: "123" })).toBe("Voer een geldig telefoonnummer in");
  });

  it("keeps the stored API key when the masked value is sent back", () => {
    expect(
      UpdateCompanySettingsBody.parse({ sendgridApiKey: maskApiKey("SG.abcdefghijklmnop") }).sendgridApiKey,
    ).toBeUndefined();
    expect(UpdateCompanySettingsBody.parse({ sendgridApiKey: "SG.new-key" }).sendgridApiKey).toBe(
      "SG.new-key",
    );
    expect(UpdateCompanySettingsBody.parse({ sendgridApiKey: "" }).sendgridApiKey).toBeNull();
    expect(UpdateCompanySettingsBody.safeParse({ sendgridApiKey: "SG.a b" }).success).toBe(false);
  });

  it("ignores the read-only keys the settings forms echo back, refuses other unknown keys", () => {
    const parsed = UpdateCompanySettingsBody.parse({
      id: "x",
      createdAt: "y",
      updatedAt: "z",
      city: "Utrecht",
    });
    expect(parsed.id).toBeUndefined();
    expect(parsed.city).toBe("Utrecht");
    expect(UpdateCompanySettingsBody.safeParse({ isAdmin: true }).success).toBe(false);
  });
});

describe("company settings read models", () => {
  it("masks API keys", () => {
    expect(maskApiKey("SG.abcdefghijklmnopWXYZ")).toBe("SG.…WXYZ");
    expect(maskApiKey("short")).toBe("SG.…");
    expect(maskApiKey(null)).toBeNull();
    expect(isMaskedApiKey("SG.…WXYZ")).toBe(true);
    expect(isMaskedApiKey("SG.realkey")).toBe(false);
  });

  it("never exposes secrets publicly", () => {
    expect(PUBLIC_COMPANY_SETTINGS_KEYS).not.toContain("sendgridApiKey");
    expect(PUBLIC_COMPANY_SETTINGS_KEYS).not.toContain("fromEmailAddress");
    expect(Object.keys(AdminCompanySettings.shape)).toContain("sendgridApiKey");
  });
});

describe("theme settings", () => {
  it("defaults are valid theme values", () => {
    expect(ThemeValues.parse(THEME_DEFAULTS)).toEqual(THEME_DEFAULTS);
  });

  it("updates partially, with hex colours and listed radii only", () => {
    expect(UpdateThemeSettingsBody.parse({ primaryColor: "#2563eb" })).toEqual({ primaryColor: "#2563eb" });
    expect(UpdateThemeSettingsBody.safeParse({ primaryColor: "red" }).error?.issues[0]?.message).toBe(
      "Gebruik een kleur in het formaat #RRGGBB",
    );
    expect(UpdateThemeSettingsBody.safeParse({ buttonRadius: "5px" }).error?.issues[0]?.message).toBe(
      "Kies een van de beschikbare afrondingen",
    );
    expect(UpdateThemeSettingsBody.safeParse({ cardRadius: "9999px" }).success).toBe(false);
    expect(UpdateThemeSettingsBody.safeParse({ fontFamily: "x" }).success).toBe(false);
  });
});
