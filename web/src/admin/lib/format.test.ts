import { describe, expect, it } from "vitest";
import {
  formatAmsterdamDateTime,
  formatAmsterdamTime,
  formatEuro,
  formatLeaseTerm,
  parseEuroInput,
  previewText,
} from "./format";
import { chartLines, fitYAxis, formatTick, labelWidth, labelX, niceMax } from "./chart";
import { liveSocketUrl, pageLabel } from "./live";
import { deliveryBadge, emailTimeLabel, emailTypeLabel } from "./inbox";

describe("Amsterdam time", () => {
  it("shows winter and summer times in Amsterdam, whatever the machine's zone", () => {
    expect(formatAmsterdamDateTime("2024-01-15T12:00:00.000Z")).toBe("15-01-2024 13:00");
    expect(formatAmsterdamDateTime("2024-07-01T22:30:00.000Z")).toBe("02-07-2024 00:30");
    expect(formatAmsterdamTime("2024-07-01T08:05:09.000Z")).toBe("10:05:09");
  });

  it('shows "-" for a missing or broken date', () => {
    expect(formatAmsterdamDateTime(null)).toBe("-");
    expect(formatAmsterdamDateTime("nope")).toBe("-");
  });

  it("writes terms in months", () => {
    expect(formatLeaseTerm(48)).toBe("48 maanden");
    expect(formatLeaseTerm(null)).toBe("-");
  });
});

describe("inbox", () => {
  it("previews the first 100 characters on one line", () => {
    expect(previewText("Kort\nbericht")).toBe("Kort bericht");
    const long = "a".repeat(150);
    expect(previewText(long)).toBe(`${"a".repeat(100)}...`);
    expect(previewText("a".repeat(100))).toBe("a".repeat(100));
  });

  it("labels types and shows failed sends", () => {
    expect(emailTypeLabel("lease_request")).toBe("Lease Aanvraag");
    expect(emailTypeLabel("contact_form")).toBe("Contactformulier");
    expect(emailTypeLabel("iets")).toBe("Algemene E-mail");
    expect(deliveryBadge("failed")).toEqual({ label: "Verzenden mislukt", tone: "red" });
    expect(deliveryBadge("received")).toBeNull();
    expect(deliveryBadge("queued")?.label).toBe("In de wachtrij");
    expect(deliveryBadge("queued", "SendGrid had een storing (503).")?.label).toBe("Nog niet verzonden");
  });

  it('says "Verzonden" only of an e-mail that was sent', () => {
    expect(emailTimeLabel({ deliveryStatus: "sent" })).toBe("Verzonden");
    expect(emailTimeLabel({ deliveryStatus: "queued" })).toBe("Geschreven");
    expect(emailTimeLabel({ deliveryStatus: "failed" })).toBe("Geschreven");
    expect(emailTimeLabel({ deliveryStatus: "received" })).toBe("Ontvangen");
  });
});

describe("analytics", () => {
  it("connects to /ws on the same host, wss on https", () => {
    expect(liveSocketUrl({ protocol: "https:", host: "lease.nl" })).toBe("wss://lease.nl/ws");
    expect(liveSocketUrl({ protocol: "http:", host: "127.0.0.1:8080" })).toBe("ws://127.0.0.1:8080/ws");
  });

  it("labels known pages", () => {
    expect(pageLabel("/financiele-lease")).toBe("Financiële Lease");
    expect(pageLabel("/onbekend")).toBe("/onbekend");
  });

  it("scales the chart to a round maximum and draws one point per bucket", () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(7)).toBe(10);
    expect(niceMax(130)).toBe(200);
    const geometry = { width: 110, height: 60, padding: { top: 0, right: 10, bottom: 10, left: 0 } };
    const lines = chartLines(
      [
        { start: "2024-01-01T00:00:00.000Z", visitors: 0, pageViews: 10 },
        { start: "2024-01-01T01:00:00.000Z", visitors: 5, pageViews: 0 },
      ],
      geometry,
    );
    expect(lines.max).toBe(10);
    expect(lines.pageViews).toBe("0,0 100,50");
    expect(lines.visitors).toBe("0,50 100,25");
  });

  it("keeps every axis label whole: Dutch numbers with room on the left, edge labels moved inwards", () => {
    expect(formatTick(0.5)).toBe("0,5");
    expect(formatTick(100000)).toBe("100.000");
    const geometry = { width: 720, height: 240, padding: { top: 12, right: 12, bottom: 28, left: 36 } };
    const big = [{ start: "2024-01-01T00:00:00.000Z", visitors: 90000, pageViews: 130000 }];
    const fitted = fitYAxis(big, geometry);
    // "200.000" fits left of the axis, with the 6 px gap the label keeps.
    expect(fitted.padding.left - 6).toBeGreaterThanOrEqual(labelWidth("200.000"));
    expect(fitYAxis([{ ...big[0]!, visitors: 3, pageViews: 7 }], geometry).padding.left).toBe(36);
    // "28 nov" at the right edge (x 708 of 720) is centred where it ends inside the drawing.
    const x = labelX(708, "28 nov", 720);
    expect(x + labelWidth("28 nov") / 2).toBeLessThanOrEqual(720);
    expect(labelX(36, "06:00", 720)).toBe(36);
    expect(labelX(2, "06:00", 720) - labelWidth("06:00") / 2).toBeGreaterThanOrEqual(0);
  });
});

describe("euro amounts in Dutch notation", () => {
  it("writes € 1.200,00", () => {
    expect(formatEuro(1200)).toBe("€ 1.200,00");
    expect(formatEuro(349.5)).toBe("€ 349,50");
    expect(formatEuro(null)).toBe("-");
  });

  it.each([
    ["1.200,50", 1200.5],
    ["1200,5", 1200.5],
    ["€ 349,50", 349.5],
    ["349.50", 349.5],
    ["1.200", 1200],
    ["0", 0],
  ])("reads %s as %s euros", (text, euros) => {
    expect(parseEuroInput(text)).toBe(euros);
  });

  it.each(["", "abc", "12,345", "-5", "1.2.3,4"])("refuses %s", (text) => {
    expect(parseEuroInput(text)).toBeNull();
  });
});
