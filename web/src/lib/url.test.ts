import { describe, expect, it } from "vitest";
import { canonicalUrl, isPublicPath, normalizePath, prerenderKeyFor } from "./url";

describe("path helpers", () => {
  it("normalises trailing slashes and index.html", () => {
    expect(normalizePath("/over-ons/")).toBe("/over-ons");
    expect(normalizePath("/over-ons/index.html")).toBe("/over-ons");
    expect(normalizePath("/index.html")).toBe("/");
    expect(normalizePath("/")).toBe("/");
  });

  it("knows the public pages", () => {
    expect(isPublicPath("/cookie-beleid")).toBe(true);
    expect(isPublicPath("/admin")).toBe(false);
  });

  it("maps paths to their pre-rendered document", () => {
    expect(prerenderKeyFor("/")).toBe("/");
    expect(prerenderKeyFor("/fleet-management/")).toBe("/fleet-management");
    expect(prerenderKeyFor("/admin")).toBeNull();
    expect(prerenderKeyFor("/email-compose")).toBeNull();
    expect(prerenderKeyFor("/bestaat-niet")).toBe("404");
  });

  it("builds canonical links", () => {
    expect(canonicalUrl("https://lease.example.nl/", "/over-ons/")).toBe("https://lease.example.nl/over-ons");
    expect(canonicalUrl("https://lease.example.nl", "/")).toBe("https://lease.example.nl/");
    expect(canonicalUrl(undefined, "/voorwaarden")).toBe("/voorwaarden");
  });
});
