import { describe, expect, it } from "vitest";
import {
  CALCULATOR_DEFAULTS,
  calculateLease,
  downPaymentAfterPriceChange,
  maxDownPayment,
  parseCarPrice,
  formatPriceInput,
  formatRateInput,
  priceCorrection,
  rateCorrection,
  readAmount,
  withoutLetters,
  parseInterestRate,
  settledCarPrice,
  withEarlyInput,
} from "./calculator";
import { formatEuro, formatPercent } from "./format";

describe("calculateLease", () => {
  it("computes the defaults: 25000 price, 5000 down, 48 months, 4.5%, insurance on", () => {
    expect(calculateLease(CALCULATOR_DEFAULTS)).toEqual({
      monthlyPayment: 606,
      totalCost: 34091,
      totalInterest: 1891,
      baseLease: 456,
      additionalCosts: 150,
    });
  });

  it("adds 150 for insurance and 120 for maintenance", () => {
    const result = calculateLease({
      carPrice: 40_000,
      downPayment: 10_000,
      termMonths: 60,
      annualRatePercent: 6,
      insurance: true,
      maintenance: true,
    });
    expect(result).toEqual({
      monthlyPayment: 850,
      totalCost: 60999,
      totalInterest: 4799,
      baseLease: 580,
      additionalCosts: 270,
    });
  });

  it("divides the financed amount by the months at 0% interest", () => {
    const result = calculateLease({ ...CALCULATOR_DEFAULTS, annualRatePercent: 0 });
    expect(result).toEqual({
      monthlyPayment: 567,
      totalCost: 32200,
      totalInterest: 0,
      baseLease: 417,
      additionalCosts: 150,
    });
  });

  it("never finances a negative amount when the down payment exceeds the price", () => {
    const result = calculateLease({ ...CALCULATOR_DEFAULTS, carPrice: 4000, insurance: false });
    expect(result).toEqual({
      monthlyPayment: 0,
      totalCost: 5000,
      totalInterest: 0,
      baseLease: 0,
      additionalCosts: 0,
    });
  });

  it.each([
    ["zero price", { carPrice: 0 }],
    ["negative price", { carPrice: -100 }],
    ["negative down payment", { downPayment: -1 }],
    ["zero term", { termMonths: 0 }],
    ["negative rate", { annualRatePercent: -0.1 }],
    ["NaN price", { carPrice: Number.NaN }],
  ])("returns all zeros for %s", (_label, override) => {
    expect(calculateLease({ ...CALCULATOR_DEFAULTS, maintenance: true, ...override })).toEqual({
      monthlyPayment: 0,
      totalCost: 0,
      totalInterest: 0,
      baseLease: 0,
      additionalCosts: 0,
    });
  });
});

describe("calculator input rules", () => {
  it("keeps the car price within 0-200.000, reads Dutch notation and treats garbage as 0", () => {
    expect(parseCarPrice("-5")).toBe(0);
    expect(parseCarPrice("abc")).toBe(0);
    expect(parseCarPrice("")).toBe(0);
    expect(parseCarPrice("250000")).toBe(200_000);
    expect(parseCarPrice("25.000")).toBe(25_000);
    expect(parseCarPrice("€ 25 000,60")).toBe(25_000.6);
    expect(parseCarPrice("999999999")).toBe(200_000);
  });

  it("reads Dutch amounts: dots group thousands, the comma is decimal, a lone point is decimal too", () => {
    expect(readAmount("30000.50")).toBe(30_000.5);
    expect(readAmount("30.000")).toBe(30_000);
    expect(readAmount("1.250.000")).toBe(1_250_000);
    expect(readAmount("30.000,50")).toBe(30_000.5);
    expect(readAmount("€ 25 000")).toBe(25_000);
    expect(readAmount("25k")).toBeNaN();
    expect(parseCarPrice("30000.50")).toBe(30_000.5);
    expect(formatPriceInput(30_000.5)).toBe("30000,50");
    expect(formatPriceInput(30_000)).toBe("30000");
  });

  it("says what was corrected: letters left out, a value brought within its range, a rate rounded", () => {
    expect(withoutLetters("25a00b")).toEqual({ text: "2500", removed: true });
    expect(withoutLetters("4,5 %")).toEqual({ text: "4,5 %", removed: false });
    expect(priceCorrection("500")).toBe("Aangepast naar het minimum van € 1.000");
    expect(priceCorrection("")).toBe("Aangepast naar het minimum van € 1.000");
    expect(priceCorrection("250.000")).toBe("Aangepast naar het maximum van € 200.000");
    expect(priceCorrection("30000.50")).toBeNull();
    expect(rateCorrection("25")).toBe("Aangepast naar het maximum van 20%");
    expect(rateCorrection("")).toBe("Aangepast naar 0%");
    expect(rateCorrection("7,35")).toBe("Afgerond op 7,4%");
    expect(rateCorrection("4,5%")).toBeNull();
  });

  it("clamps the interest rate to 0-20", () => {
    expect(parseInterestRate("-1")).toBe(0);
    expect(parseInterestRate("25")).toBe(20);
    expect(parseInterestRate("3.7")).toBe(3.7);
    expect(parseInterestRate("4,9")).toBe(4.9);
    expect(parseInterestRate(" 6 ")).toBe(6);
    expect(formatRateInput(4.5)).toBe("4,5");
    expect(parseInterestRate("x")).toBe(0);
  });

  it("keeps the rate in steps of 0.1, so what is computed is what the label says", () => {
    expect(parseInterestRate("7.35")).toBe(7.4);
    expect(parseInterestRate("7,34")).toBe(7.3);
    expect(parseInterestRate("19.96")).toBe(20);
    expect(formatRateInput(parseInterestRate("7,35"))).toBe("7,4");
  });

  it("settles the price within 1.000-200.000 once the field is left", () => {
    expect(settledCarPrice(500)).toBe(1000);
    expect(settledCarPrice(0)).toBe(1000);
    expect(settledCarPrice(25_000)).toBe(25_000);
    expect(settledCarPrice(250_000)).toBe(200_000);
  });

  it("caps the down payment slider at half the price", () => {
    expect(maxDownPayment(25_000)).toBe(12_500);
    expect(maxDownPayment(-10)).toBe(0);
  });

  it("resets the down payment to 20% of the new price when it exceeds 50%", () => {
    // 20%, on the slider's €500 steps: what the slider shows is what is computed.
    expect(downPaymentAfterPriceChange(8000, 5000)).toBe(1500);
    expect(downPaymentAfterPriceChange(12_345, 7000)).toBe(2500);
    expect(downPaymentAfterPriceChange(1000, 5000)).toBe(0);
    expect(downPaymentAfterPriceChange(25_000, 20_000)).toBe(5000);
    expect(downPaymentAfterPriceChange(10_000, 5000)).toBe(5000);
    expect(downPaymentAfterPriceChange(30_000, 5000)).toBe(5000);
  });
});

describe("Dutch formatting", () => {
  it("formats whole euros with dots", () => {
    expect(formatEuro(1234)).toBe("€ 1.234");
    expect(formatEuro(606)).toBe("€ 606");
    expect(formatEuro(1234567.6)).toBe("€ 1.234.568");
    expect(formatEuro(0)).toBe("€ 0");
  });

  it("formats percentages with a comma", () => {
    expect(formatPercent(4.5)).toBe("4,5%");
    expect(formatPercent(20)).toBe("20%");
  });
});

describe("withEarlyInput", () => {
  const terms = [24, 36, 48, 60, 72];

  it("takes what was entered before hydration, by the live fields' rules", () => {
    expect(
      withEarlyInput(
        CALCULATOR_DEFAULTS,
        {
          carPrice: "40000",
          downPayment: "12500",
          termMonths: "60",
          annualRatePercent: "6.5",
          insurance: "false",
          maintenance: "true",
        },
        terms,
      ),
    ).toEqual({
      carPrice: 40_000,
      downPayment: 12_500,
      termMonths: 60,
      annualRatePercent: 6.5,
      insurance: false,
      maintenance: true,
    });
  });

  it("keeps the down payment within half the price and ignores what the fields would refuse", () => {
    const next = withEarlyInput(
      CALCULATOR_DEFAULTS,
      { carPrice: "8000", downPayment: "9000", termMonths: "30", annualRatePercent: "99" },
      terms,
    );
    expect(next).toMatchObject({ carPrice: 8000, downPayment: 4000, termMonths: 48, annualRatePercent: 20 });
    // A lower price alone resets a down payment above its half to 20% of the new price, on the slider's steps.
    expect(withEarlyInput(CALCULATOR_DEFAULTS, { carPrice: "6000" }, terms).downPayment).toBe(1000);
    expect(withEarlyInput(CALCULATOR_DEFAULTS, {}, terms)).toEqual(CALCULATOR_DEFAULTS);
  });
});
