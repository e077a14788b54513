import { describe, expect, it } from "vitest";
import { amsterdamDateTime, excelDay, leaseRequestsCsv, type ExportedLead } from "./csv";

/** A new lead that arrived at `createdAt`, with what a test sets on top. */
const lead = (createdAt: string, more: Record<string, unknown> = {}) =>
  ({
    id: "x",
    createdAt,
    statusSince: createdAt,
    status: "nieuw",
    isRead: false,
    followUpOn: null,
    ...more,
  }) as ExportedLead;

/** The named cell of the export's only row. */
function cellOf(row: ExportedLead, name: string): string | undefined {
  const [header, line] = leaseRequestsCsv([row]).slice(1).split("\r\n");
  return line!.split(";")[header!.split(";").indexOf(`"${name}"`)];
}

describe("the CSV export's dates", () => {
  it("are Amsterdam time in summer and winter, not UTC", () => {
    expect(amsterdamDateTime("2025-07-01T10:00:00.000Z")).toBe("01-07-2025 12:00:00");
    expect(amsterdamDateTime("2025-01-15T23:30:00.000Z")).toBe("16-01-2025 00:30:00");
    expect(leaseRequestsCsv([lead("2025-03-30T01:30:00.000Z")]).split("\r\n")[1]).toMatch(
      /^"30-03-2025 03:30:00";/,
    );
  });
});

describe("the CSV export's channel", () => {
  it("is the Dutch name the panel shows, not the API's key", () => {
    const row = lead("2025-07-01T10:00:00.000Z", {
      attribution: { channel: "Paid Search", pages: [], firstSeenAt: "2025-07-01T09:00:00.000Z" },
    });
    expect(cellOf(row, "Kanaal")).toBe('"Betaald zoeken"');
  });
});

describe("the CSV export's stage and follow-up day", () => {
  it("writes the stage by the panel's name, since when (Amsterdam time) and the follow-up day as Dutch Excel reads them", () => {
    const row = lead("2025-07-01T10:00:00.000Z", {
      status: "offerte",
      statusSince: "2025-07-03T08:15:00.000Z",
      followUpOn: "2025-07-10",
    });
    expect(cellOf(row, "Fase")).toBe('"Offerte verstuurd"');
    expect(cellOf(row, "Fase sinds")).toBe('"03-07-2025 10:15:00"');
    expect(cellOf(row, "Opvolgen op")).toBe('"10-07-2025"');
    expect(cellOf(lead("2025-07-01T10:00:00.000Z"), "Opvolgen op")).toBe('""');
    expect(excelDay(null)).toBeNull();
  });
});
