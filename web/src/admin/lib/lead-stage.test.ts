import { describe, expect, it } from "vitest";
import { moveBackOf, stageLoss } from "./lead-stage";

const lead = {
  status: "offerte" as const,
  monthlyAmount: 489 as number | null,
  commission: null as number | null,
  contractTerm: null as number | null,
  lostReason: null,
  lostNote: null,
  marketingConsent: false,
};

describe("moving a lead back a stage", () => {
  it("takes an offer back to gereageerd, naming the stage, its amount and the report", () => {
    expect(moveBackOf(lead)).toEqual({
      to: "gereageerd",
      body: { status: "gereageerd", isRead: true, moveBackFrom: "offerte" },
      question:
        "Fase terugzetten naar Gereageerd?\n\nDe fase Offerte verstuurd vervalt met het maandbedrag van € 489,00. De offerte telt dan niet meer mee in het campagnerapport.",
    });
  });

  it("takes a contract back to its offer, keeping the offer's monthly amount", () => {
    const signed = {
      ...lead,
      status: "getekend" as const,
      monthlyAmount: 349.5,
      commission: 1200,
      contractTerm: 48,
    };
    const back = moveBackOf(signed)!;
    expect(back.body).toEqual({ status: "offerte", monthlyAmount: 349.5, moveBackFrom: "getekend" });
    expect(back.question).toBe(
      "Fase terugzetten naar Offerte verstuurd?\n\nDe fase Contract getekend vervalt met de commissie van € 1.200,00 en de looptijd van 48 maanden. Het contract telt dan niet meer mee in het campagnerapport. Het maandbedrag van € 349,50 blijft.",
    );
    // Without an offer's amount a contract goes back to gereageerd: out of the report altogether.
    expect(moveBackOf({ ...signed, monthlyAmount: null })!.body).toEqual({
      status: "gereageerd",
      isRead: true,
      moveBackFrom: "getekend",
    });
  });

  it("takes a lost lead back to its offer (nothing changes in the report) and says the platforms keep what they got", () => {
    const lost = {
      ...lead,
      status: "verloren" as const,
      lostReason: "te duur" as const,
      lostNote: "Koos de dealer",
    };
    expect(moveBackOf(lost)!.question).toBe(
      'Fase terugzetten naar Offerte verstuurd?\n\nDe fase Verloren vervalt met de reden "te duur" en de toelichting. Het maandbedrag van € 489,00 blijft.',
    );
    expect(stageLoss({ ...lead, marketingConsent: true }, "gereageerd")).toContain(
      "Advertentieplatforms die de offerte of het contract al doorkregen, houden die.",
    );
  });

  it("offers no move back outside a stage", () => {
    for (const status of ["nieuw", "bekeken", "gereageerd"] as const)
      expect(moveBackOf({ ...lead, status, monthlyAmount: null })).toBeNull();
  });
});
