import { describe, expect, it } from "vitest";
import { queryUrl, userErrorMessage } from "./client";

const FALLBACK = "Er is een onverwachte fout opgetreden.";

describe("userErrorMessage", () => {
  it("shows the server's ApiError message", () => {
    const body = JSON.stringify({ code: "validation_failed", message: "Voer een geldige auto URL in" });
    expect(userErrorMessage(new Error(`400: ${body}`), FALLBACK)).toBe("Voer een geldige auto URL in");
  });

  it("shows the status line for a non-JSON body", () => {
    expect(userErrorMessage(new Error("502: Bad Gateway"), FALLBACK)).toBe("502: Bad Gateway");
  });

  it("uses the fallback for network failures and unknown values", () => {
    expect(userErrorMessage(new TypeError("Failed to fetch"), FALLBACK)).toBe(FALLBACK);
    expect(userErrorMessage("boom", FALLBACK)).toBe(FALLBACK);
    expect(userErrorMessage(new Error('500: {"message":""}'), FALLBACK)).toBe(FALLBACK);
  });
});

describe("queryUrl", () => {
  it("joins key segments with slashes", () => {
    expect(queryUrl(["/api/admin/lease-requests", "abc"])).toBe("/api/admin/lease-requests/abc");
  });
});
