import { describe, expect, it } from "vitest";
import { isSafeHttpUrl } from "../entities/common";
import {
  CreateLeaseRequestBody,
  LeaseRequestIdParam,
  LeaseRequestListQuery,
  REQUIRED_FIELDS_MESSAGE,
  toCents,
  UpdateLeaseStatusBody,
} from "./lease-requests";

const valid = {
  carUrl: "https://www.autoscout24.nl/aanbod/volkswagen-id-4",
  contactNumber: "06 12345678",
  email: "jan@bedrijf.nl",
};

function messagesFor(input: unknown, field: string): string[] {
  const result = CreateLeaseRequestBody.safeParse(input);
  expect(result.success).toBe(false);
  return result.error!.issues.filter((issue) => issue.path[0] === field).map((issue) => issue.message);
}

describe("CreateLeaseRequestBody", () => {
  it("accepts a minimal request and trims the fields", () => {
    const result = CreateLeaseRequestBody.parse({
      ...valid,
      carUrl: `  ${valid.carUrl} `,
      email: " jan@bedrijf.nl ",
    });
    expect(result).toMatchObject(valid);
  });

  it("treats empty optional fields as left out", () => {
    const result = CreateLeaseRequestBody.parse({ ...valid, companyName: "", leaseTerm: "", message: "  " });
    expect(result.companyName).toBeUndefined();
    expect(result.leaseTerm).toBeUndefined();
    expect(result.message).toBeUndefined();
  });

  it("accepts the lease term as number or as select string", () => {
    expect(CreateLeaseRequestBody.parse({ ...valid, leaseTerm: 36 }).leaseTerm).toBe(36);
    expect(CreateLeaseRequestBody.parse({ ...valid, leaseTerm: "60" }).leaseTerm).toBe(60);
  });

  it.each([72, "12", 0, "abc", 48.5, "12a"])("refuses lease term %s with the Dutch message", (leaseTerm) => {
    expect(messagesFor({ ...valid, leaseTerm }, "leaseTerm")).toEqual([
      "Kies een looptijd van 24, 36, 48 of 60 maanden",
    ]);
  });

  it("accepts a link typed without https:// and stores it with it", () => {
    expect(CreateLeaseRequestBody.parse({ ...valid, carUrl: " www.example.com/auto/1 " }).carUrl).toBe(
      "https://www.example.com/auto/1",
    );
  });

  it.each([
    "javascript:alert(1)",
    "  javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd",
    "//evil.com",
    "/relative/path",
    "http://",
    "https://",
    "ftp://example.com/car",
    "www.exa mple.com",
    "https://exa mple.com",
    "https://example.com/\u0000",
    `https://example.com/${"a".repeat(2049 - "https://example.com/".length)}`,
    "",
  ])("refuses hostile car URL #%# with exactly one Dutch message", (carUrl) => {
    expect(messagesFor({ ...valid, carUrl }, "carUrl")).toEqual(["Voer een geldige auto URL in"]);
  });

  it("accepts a car URL of exactly 2048 characters", () => {
    const carUrl = `https://example.com/${"a".repeat(2048 - "https://example.com/".length)}`;
    expect(CreateLeaseRequestBody.safeParse({ ...valid, carUrl }).success).toBe(true);
  });

  it.each([
    "0612345",
    "12a",
    "06-1234-567x",
    "06 1234 5678 ext. 12",
    "+31 (0)6 1234 5678 9999 9999 99999",
    612345678,
  ])("refuses contact number %j", (contactNumber) => {
    expect(messagesFor({ ...valid, contactNumber }, "contactNumber")).toEqual([
      "Voer een geldig telefoonnummer in",
    ]);
  });

  it("accepts international notation", () => {
    expect(CreateLeaseRequestBody.safeParse({ ...valid, contactNumber: "+31 (0)6-1234 5678" }).success).toBe(
      true,
    );
  });

  it.each(["jan", "jan@", "@bedrijf.nl", "jan@bedrijf", `${"a".repeat(250)}@b.nl`])(
    "refuses e-mail %j",
    (email) => {
      expect(messagesFor({ ...valid, email }, "email")).toEqual(["Voer een geldig e-mailadres in"]);
    },
  );

  it("refuses unknown keys", () => {
    const result = CreateLeaseRequestBody.safeParse({ ...valid, status: "gereageerd" });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.code).toBe("unrecognized_keys");
  });

  it("accepts the honeypot field so the server can recognise bots", () => {
    expect(CreateLeaseRequestBody.parse({ ...valid, website: "http://spam" }).website).toBe("http://spam");
  });

  it("limits the optional texts", () => {
    expect(CreateLeaseRequestBody.safeParse({ ...valid, companyName: "x".repeat(201) }).success).toBe(false);
    expect(CreateLeaseRequestBody.safeParse({ ...valid, message: "x".repeat(5001) }).success).toBe(false);
  });

  it("exports the required-fields message", () => {
    expect(REQUIRED_FIELDS_MESSAGE).toBe("Vul alle verplichte velden in");
  });
});

describe("isSafeHttpUrl", () => {
  it("allows only absolute http(s) URLs", () => {
    expect(isSafeHttpUrl("https://example.com")).toBe(true);
    expect(isSafeHttpUrl("HTTP://EXAMPLE.COM/x?y=1#z")).toBe(true);
    expect(isSafeHttpUrl("javascript:alert(1)")).toBe(false);
    expect(isSafeHttpUrl(" https://example.com")).toBe(false);
    expect(isSafeHttpUrl("https:example.com")).toBe(false);
  });
});

describe("admin lease request schemas", () => {
  it("coerces list query strings and applies defaults", () => {
    expect(LeaseRequestListQuery.parse({})).toEqual({ page: 1, pageSize: 50 });
    expect(LeaseRequestListQuery.parse({ page: "3", pageSize: "200", status: "bekeken", q: " bv " })).toEqual(
      {
        page: 3,
        pageSize: 200,
        status: "bekeken",
        q: "bv",
      },
    );
    expect(LeaseRequestListQuery.parse({ status: "", q: "" })).toEqual({ page: 1, pageSize: 50 });
    expect(LeaseRequestListQuery.safeParse({ pageSize: "201" }).success).toBe(false);
    expect(LeaseRequestListQuery.safeParse({ page: "0" }).success).toBe(false);
    expect(LeaseRequestListQuery.safeParse({ status: "verwijderd" }).success).toBe(false);
  });

  it("status update needs a status (read flag optional), nothing else", () => {
    expect(UpdateLeaseStatusBody.safeParse({ status: "gereageerd", isRead: true }).success).toBe(true);
    expect(UpdateLeaseStatusBody.safeParse({ status: "gereageerd" }).success).toBe(true);
    expect(UpdateLeaseStatusBody.safeParse({ isRead: true }).success).toBe(false);
    expect(UpdateLeaseStatusBody.safeParse({ status: "klaar", isRead: true }).success).toBe(false);
    expect(UpdateLeaseStatusBody.safeParse({ status: "nieuw", isRead: false, email: "x" }).success).toBe(
      false,
    );
  });

  it("takes the stages with their amounts (euros, two decimals at most) and reason", () => {
    const parse = (body: unknown) => UpdateLeaseStatusBody.safeParse(body);
    expect(parse({ status: "offerte", monthlyAmount: 349.5 }).data).toEqual({
      status: "offerte",
      monthlyAmount: 349.5,
    });
    expect(parse({ status: "offerte", monthlyAmount: 0.1 + 0.2 }).success).toBe(true);
    expect(parse({ status: "offerte", monthlyAmount: 0 }).error!.issues[0]!.message).toBe(
      "Het maandbedrag moet groter dan 0 zijn",
    );
    // Checked as stored, in cents: an amount above 0 never becomes €0, and one message says why.
    for (const tiny of [1e-9, -1e-9, 0.004, 1e-300])
      expect(parse({ status: "offerte", monthlyAmount: tiny }).error!.issues.map((i) => i.message)).toEqual([
        "Gebruik voor het maandbedrag hoogstens twee decimalen",
      ]);
    expect(parse({ status: "offerte", monthlyAmount: 0.01 }).success).toBe(true);
    expect(parse({ status: "getekend", commission: 1200, monthlyAmount: 349.5, term: 48 }).success).toBe(
      true,
    );
    expect(parse({ status: "getekend", commission: 1200, term: 12.5 }).error!.issues[0]!.message).toBe(
      "De looptijd moet een heel aantal maanden zijn",
    );
    expect(parse({ status: "getekend", commission: -1 }).error!.issues[0]!.message).toBe(
      "De commissie moet 0 of meer zijn",
    );
    expect(parse({ status: "verloren", lostReason: "geen reactie", note: " " }).data).toEqual({
      status: "verloren",
      lostReason: "geen reactie",
    });
    expect(parse({ status: "verloren", lostReason: "te duur", commission: 5 }).success).toBe(false);
    expect(toCents(349.5)).toBe(34950);
  });

  it("refuses a malformed id", () => {
    const result = LeaseRequestIdParam.safeParse({ id: "1 OR 1=1" });
    expect(result.error!.issues[0]!.message).toBe("Ongeldig id");
  });
});
