import { describe, expect, it } from "vitest";
import type { LeaseRequest } from "@lease/contracts";
import { amsterdamDateTime, leaseRequestsCsv } from "./csv";

describe("the CSV export's dates", () => {
  it("are Amsterdam time in summer and winter, not UTC", () => {
    expect(amsterdamDateTime("2025-07-01T10:00:00.000Z")).toBe("01-07-2025 12:00:00");
    expect(amsterdamDateTime("2025-01-15T23:30:00.000Z")).toBe("16-01-2025 00:30:00");
    const row = { id: "x", createdAt: "2025-03-30T01:30:00.000Z", isRead: false } as LeaseRequest;
    expect(leaseRequestsCsv([row]).split("\r\n")[1]).toMatch(/^"30-03-2025 03:30:00";/);
  });
});

describe("the CSV export's channel", () => {
  it("is the Dutch name the panel shows, not the API's key", () => {
    const row = {
      id: "x",
      createdAt: "2025-07-01T10:00:00.000Z",
      isRead: true,
      attribution: { channel: "Paid Search", pages: [], firstSeenAt: "2025-07-01T09:00:00.000Z" },
    } as unknown as LeaseRequest;
    const [header, line] = leaseRequestsCsv([row]).slice(1).split("\r\n");
    const column = header!.split(";").indexOf('"Kanaal"');
    expect(column).toBeGreaterThan(0);
    expect(line!.split(";")[column]).toBe('"Betaald zoeken"');
  });
});
