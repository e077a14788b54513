import { describe, expect, it } from "vitest";
import type { EmailMessage, LeadHistoryEntry } from "@lease/contracts";
import { mergeTimeline, timelineDetail, timelineTitle } from "./timeline";

const stage = { monthlyAmount: null, commission: null, contractTerm: null, lostReason: null, note: null };

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
  leaseRequestId: null,
  attachments: [],
  spamScore: null,
  delivery: null,
});

describe("a lead's timeline", () => {
  it("puts the e-mails among the history, newest first, the receipt last", () => {
    const history: LeadHistoryEntry[] = [
      {
        kind: "status",
        at: "2026-11-20T10:00:00.000Z",
        from: "nieuw",
        to: "gereageerd",
        by: "anna",
        ...stage,
      },
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
        ...stage,
      }),
    ).toBe("Status gewijzigd van Nieuw naar Bekeken door anna");
    expect(timelineTitle({ kind: "received", at: "2026-11-20T10:00:00.000Z" })).toBe("Aanvraag ontvangen");
  });

  it("names the amounts and reason a stage change set, in Dutch notation", () => {
    const at = "2026-11-20T10:00:00.000Z";
    const signed = {
      kind: "status" as const,
      at,
      from: "offerte" as const,
      to: "getekend" as const,
      by: "anna",
    };
    expect(
      timelineDetail({ ...signed, ...stage, commission: 1200, monthlyAmount: 349.5, contractTerm: 48 }),
    ).toBe("Commissie € 1.200,00 · Maandbedrag € 349,50 · Looptijd 48 maanden");
    expect(
      timelineDetail({ ...signed, to: "verloren", ...stage, lostReason: "te duur", note: "koos een ander" }),
    ).toBe("Reden: te duur (koos een ander)");
    expect(timelineDetail({ ...signed, to: "bekeken", ...stage })).toBeNull();
  });
});
