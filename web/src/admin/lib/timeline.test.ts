import { describe, expect, it } from "vitest";
import type { EmailMessage, LeadHistoryEntry } from "@lease/contracts";
import { mergeTimeline, timelineTitle } from "./timeline";

const email = (id: string, sentAt: string | null, createdAt: string): EmailMessage => ({
  id,
  subject: "Offerte",
  senderName: "Lease BV",
  senderEmail: "noreply@lease.nl",
  recipientEmail: "klant@bedrijf.nl",
  messageBody: "Beste klant",
  messageType: "other",
  isRead: true,
  deliveryStatus: sentAt ? "sent" : "queued",
  failureReason: null,
  sentAt,
  createdAt,
});

describe("a lead's timeline", () => {
  it("puts the e-mails among the history, newest first, the receipt last", () => {
    const history: LeadHistoryEntry[] = [
      { kind: "status", at: "2026-11-20T10:00:00.000Z", from: "nieuw", to: "gereageerd", by: "anna" },
      { kind: "received", at: "2026-11-20T08:00:00.000Z" },
    ];
    const merged = mergeTimeline(history, [
      email("e1", "2026-11-20T09:00:00.000Z", "2026-11-20T08:59:59.000Z"),
      email("e2", null, "2026-11-20T11:00:00.000Z"),
    ]);
    expect(merged.map((item) => (item.kind === "email" ? item.email.id : item.kind))).toEqual([
      "e2",
      "status",
      "e1",
      "received",
    ]);
  });

  it("says who changed what in Dutch", () => {
    expect(
      timelineTitle({
        kind: "status",
        at: "2026-11-20T10:00:00.000Z",
        from: "nieuw",
        to: "bekeken",
        by: "anna",
      }),
    ).toBe("Status gewijzigd van Nieuw naar Bekeken door anna");
    expect(timelineTitle({ kind: "received", at: "2026-11-20T10:00:00.000Z" })).toBe("Aanvraag ontvangen");
  });
});
