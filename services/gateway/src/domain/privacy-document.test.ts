import { describe, expect, it } from "vitest";
import { dutchDateTime, privacyDocument } from "./privacy-document";

describe("the export of people's data", () => {
  it("writes dates as a person reads them, in Amsterdam time", () => {
    expect(dutchDateTime("2026-11-28T13:03:00.000Z")).toBe("28 november 2026 14:03");
    expect(dutchDateTime("2026-07-01T10:00:00+00:00")).toBe("1 juli 2026 12:00");
    expect(dutchDateTime(null)).toBeNull();
  });

  it("is a Dutch document without stored column names or internal ids", () => {
    const id = "3f1c2b4a-1111-4222-8333-444455556666";
    const doc = privacyDocument(
      "anna@x.nl",
      {
        leaseRequests: [
          {
            id,
            email: "Anna@x.nl",
            email_key: "anna@x.nl",
            phone_key: "0612345678",
            contact_number: "06 12345678",
            car_url: "https://auto.nl/1",
            status: "offerte",
            monthly_amount_cents: 120050,
            commission_cents: 99900,
            created_at: "2026-11-28T13:03:00+00:00",
            follow_up_on: "2026-12-01",
          },
        ],
        contactMessages: [],
        notes: [{ id: "n", lease_request_id: id, body: "Terugbellen", created_at: "2026-11-28T14:00:00Z" }],
        statusChanges: [],
        inboxEmails: [],
        sentEmails: [
          {
            id: "o",
            kind: "notification",
            to_email: "verkoop@bedrijf.nl",
            status: "sent",
            subject: "Nieuwe aanvraag",
            // The notification's last line links into the panel, with the request's id.
            text_body: `Nieuwe aanvraag van Anna (06 12345678)\nBekijk de aanvraag in het beheer: https://lease.example.nl/admin?tab=aanvragen&lead=${id}\n`,
          },
        ],
        conversions: [],
      },
      new Date("2026-11-28T15:00:00Z"),
    );
    expect(doc.Offerteaanvragen).toEqual([
      expect.objectContaining({
        "Ontvangen op": "28 november 2026 14:03",
        Status: "Offerte",
        "Maandbedrag (offerte of contract)": "€ 1.200,50",
        "Opvolgen op": "1 december 2026",
      }),
    ]);
    expect(doc.Notities).toEqual([
      expect.objectContaining({ Bij: "Offerteaanvraag van 28 november 2026 14:03", Tekst: "Terugbellen" }),
    ]);
    expect(doc["E-mails"]).toEqual([
      expect.objectContaining({
        Soort: "Melding aan het bedrijf over een aanvraag",
        Tekst: "Nieuwe aanvraag van Anna (06 12345678)",
        Verzendstatus: "Verzonden",
      }),
    ]);
    const text = JSON.stringify(doc);
    expect(text).not.toContain(id);
    expect(text).not.toMatch(/email_key|phone_key|0612345678"|999,00/);
  });
});
