import type { LeaseCalculatorInput, LeaseCalculatorResult } from "@lease/contracts";

import { INSURANCE_MONTHLY, MAINTENANCE_MONTHLY } from "./constants";

// The lease calculator of SPEC §4, §5 and §9: one pure computation plus the input rules of the form.

export const PRICE_MIN = 1_000;
export const PRICE_HINT_MAX = 200_000;
export const DOWN_PAYMENT_STEP = 500;
export const RATE_MIN = 0;
export const RATE_MAX = 20;

export type CalculatorInput = LeaseCalculatorInput;
export type CalculatorResult = LeaseCalculatorResult;

export const CALCULATOR_DEFAULTS: CalculatorInput = {
  carPrice: 25_000,
  downPayment: 5_000,
  termMonths: 48,
  annualRatePercent: 4.5,
  insurance: true,
  maintenance: false,
};

const ZERO_RESULT: CalculatorResult = {
  monthlyPayment: 0,
  totalCost: 0,
  totalInterest: 0,
  baseLease: 0,
  additionalCosts: 0,
};

/** Indicative monthly cost: an annuity on the financed amount plus the chosen extra services. */
export function calculateLease(input: CalculatorInput): CalculatorResult {
  const { carPrice, downPayment, termMonths, annualRatePercent } = input;
  // Written as negations so that NaN inputs also yield zeros.
  if (!(carPrice > 0) || !(downPayment >= 0) || !(termMonths > 0) || !(annualRatePercent >= 0)) {
    return { ...ZERO_RESULT };
  }
  const financed = Math.max(0, carPrice - downPayment);
  const monthlyRate = annualRatePercent / 100 / 12;
  const baseLease =
    monthlyRate === 0
      ? financed / termMonths
      : (financed * monthlyRate * (1 + monthlyRate) ** termMonths) / ((1 + monthlyRate) ** termMonths - 1);
  const additionalCosts =
    (input.insurance ? INSURANCE_MONTHLY : 0) + (input.maintenance ? MAINTENANCE_MONTHLY : 0);
  const monthlyPayment = baseLease + additionalCosts;
  return {
    monthlyPayment: Math.round(monthlyPayment),
    totalCost: Math.round(monthlyPayment * termMonths + downPayment),
    totalInterest: Math.round(Math.max(0, baseLease * termMonths - financed)),
    baseLease: Math.round(baseLease),
    additionalCosts: Math.round(additionalCosts),
  };
}

/**
 * Car price field, in whole euros: Dutch notation is welcome ("25.000", "25 000", "€ 25000,50"),
 * anything unreadable counts as 0, and the result stays within 0-200.000 (the range of SPEC §9).
 */
export function parseCarPrice(raw: string): number {
  const value = Number(raw.replace(/[\s.€]/g, "").replace(",", "."));
  return Number.isFinite(value) ? Math.min(PRICE_HINT_MAX, Math.max(0, Math.round(value))) : 0;
}

/**
 * The price once the field is left: within 1.000-200.000 (SPEC §5 and §9), so 500 becomes 1.000.
 * While typing, the number as typed is used (30000 passes through 3, 30, 300 on its way).
 */
export function settledCarPrice(price: number): number {
  return Math.min(PRICE_HINT_MAX, Math.max(PRICE_MIN, price));
}

/** Interest field: a decimal comma or point ("4,9" or "4.9"), clamped to 0-20, in steps of 0.1 (SPEC §5). */
export function parseInterestRate(raw: string): number {
  const value = Number(raw.trim().replace(",", "."));
  if (!Number.isFinite(value)) return 0;
  const stepped = Math.round(value * 10) / 10;
  return Math.min(RATE_MAX, Math.max(RATE_MIN, stepped));
}

/** The rate as its field shows it: with the Dutch decimal comma. */
export function formatRateInput(rate: number): string {
  return String(rate).replace(".", ",");
}

/** The slider's upper bound: half the car price. */
export function maxDownPayment(carPrice: number): number {
  return Math.max(0, carPrice * 0.5);
}

/** After a price change a down payment above 50% of the new price resets to 20% of it, rounded. */
export function downPaymentAfterPriceChange(newPrice: number, downPayment: number): number {
  return downPayment > maxDownPayment(newPrice) ? Math.round(newPrice * 0.2) : downPayment;
}

/** The calculator's fields, as the early-input recorder sees them (by element id). */
export const CALCULATOR_FIELD_IDS = {
  carPrice: "calc-prijs",
  downPayment: "calc-aanbetaling",
  termMonths: "calc-looptijd",
  annualRatePercent: "calc-rente",
  insurance: "calc-verzekering",
  maintenance: "calc-onderhoud",
} as const;
export type CalculatorField = keyof typeof CALCULATOR_FIELD_IDS;

/**
 * Applies what was entered before hydration, by the same rules as the live fields: the price
 * first (it may reset the down payment), a down payment within half the price, a known term, a
 * clamped rate, and "true"/"false" for the two extra services.
 */
export function withEarlyInput(
  current: CalculatorInput,
  early: Partial<Record<CalculatorField, string>>,
  terms: readonly number[],
): CalculatorInput {
  const next = { ...current };
  if (early.carPrice !== undefined) {
    next.carPrice = parseCarPrice(early.carPrice);
    next.downPayment = downPaymentAfterPriceChange(next.carPrice, next.downPayment);
  }
  if (early.downPayment !== undefined) {
    const value = Number(early.downPayment);
    if (Number.isFinite(value))
      next.downPayment = Math.min(maxDownPayment(next.carPrice), Math.max(0, value));
  }
  if (early.termMonths !== undefined && terms.includes(Number(early.termMonths)))
    next.termMonths = Number(early.termMonths);
  if (early.annualRatePercent !== undefined)
    next.annualRatePercent = parseInterestRate(early.annualRatePercent);
  if (early.insurance !== undefined) next.insurance = early.insurance === "true";
  if (early.maintenance !== undefined) next.maintenance = early.maintenance === "true";
  return next;
}
