import type { LeaseCalculatorInput, LeaseCalculatorResult } from "@lease/contracts";

import { INSURANCE_MONTHLY, MAINTENANCE_MONTHLY } from "./constants";

// The lease calculator: one pure computation plus the input rules of the form.

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
 * An amount as a Dutch visitor types it: "." groups thousands and "," is the decimal mark
 * ("25.000", "25 000", "€ 25.000,50"); a lone "." that does not group thousands is a decimal point
 * as typed elsewhere ("30000.50" is 30000,50, "30.000" is 30000). NaN when it is no amount.
 */
export function readAmount(raw: string): number {
  let text = raw.replace(/[\s€]/g, "");
  if (text === "") return 0;
  if (text.includes(",")) text = text.replace(/\./g, "").replace(",", ".");
  else if (/^\d{1,3}(\.\d{3})+$/.test(text)) text = text.replace(/\./g, "");
  return /^\d*\.?\d*$/.test(text) && text !== "." ? Number(text) : Number.NaN;
}

/**
 * Car price field, in euros and cents (readAmount): anything unreadable counts as 0, and the result
 * stays within 0-200.000 (the price field's range).
 */
export function parseCarPrice(raw: string): number {
  const value = readAmount(raw);
  return Number.isFinite(value) ? Math.min(PRICE_HINT_MAX, Math.max(0, Math.round(value * 100) / 100)) : 0;
}

/** The price as its field shows it once left: "30000", or with cents "30000,50". */
export function formatPriceInput(price: number): string {
  return Number.isInteger(price) ? String(price) : price.toFixed(2).replace(".", ",");
}

/** What a typed field may hold: digits, the Dutch separators, spaces and the euro or percent sign. */
const TYPED_NUMBER = /[^\d.,\s€%]/g;

/**
 * A typed value without what no amount holds (letters, minus signs): the text kept, and whether
 * anything was left out, so the field can say so instead of silently reading 0.
 */
export function withoutLetters(raw: string): { text: string; removed: boolean } {
  const text = raw.replace(TYPED_NUMBER, "");
  return { text, removed: text !== raw };
}

export const LETTERS_REMOVED_NOTE = "Alleen cijfers: letters en andere tekens zijn weggelaten";

/** The note beside the price once the field is left, when the amount used differs from the typed one. */
export function priceCorrection(raw: string): string | null {
  const value = readAmount(raw);
  if (!Number.isFinite(value) || value < PRICE_MIN)
    return `Aangepast naar het minimum van ${formatEuroAmount(PRICE_MIN)}`;
  if (value > PRICE_HINT_MAX) return `Aangepast naar het maximum van ${formatEuroAmount(PRICE_HINT_MAX)}`;
  return null;
}

/** The note beside the rate once the field is left, when the rate used differs from the typed one. */
export function rateCorrection(raw: string): string | null {
  const typed = raw.trim().replace("%", "").trim();
  const value = Number(typed.replace(",", "."));
  const used = parseInterestRate(raw);
  if (typed === "" || !Number.isFinite(value)) return `Aangepast naar ${formatRateInput(used)}%`;
  if (value > RATE_MAX) return `Aangepast naar het maximum van ${RATE_MAX}%`;
  if (value < RATE_MIN) return `Aangepast naar het minimum van ${RATE_MIN}%`;
  if (used !== value) return `Afgerond op ${formatRateInput(used)}%`;
  return null;
}

const formatEuroAmount = (amount: number) => `€ ${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ".")}`;

/**
 * The price once the field is left: within 1.000-200.000, so 500 becomes 1.000.
 * While typing, the number as typed is used (30000 passes through 3, 30, 300 on its way).
 */
export function settledCarPrice(price: number): number {
  return Math.min(PRICE_HINT_MAX, Math.max(PRICE_MIN, price));
}

/** Interest field: a decimal comma or point ("4,9" or "4.9"), clamped to 0-20, in steps of 0.1. */
export function parseInterestRate(raw: string): number {
  const value = Number(raw.trim().replace("%", "").trim().replace(",", "."));
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

/**
 * After a price change a down payment above 50% of the new price resets to 20% of it, rounded to
 * the slider's €500 steps (within the 50%), so the slider and the amount shown beside it agree:
 * 8.000 gives 1.500, 1.000 gives 0.
 */
export function downPaymentAfterPriceChange(newPrice: number, downPayment: number): number {
  return downPayment > maxDownPayment(newPrice) ? onSliderStep(newPrice * 0.2, newPrice) : downPayment;
}

/** The nearest amount the slider can show: a multiple of its step, within 0 and half the price. */
export function onSliderStep(amount: number, carPrice: number): number {
  const max = Math.floor(maxDownPayment(carPrice) / DOWN_PAYMENT_STEP) * DOWN_PAYMENT_STEP;
  return Math.min(max, Math.max(0, Math.round(amount / DOWN_PAYMENT_STEP) * DOWN_PAYMENT_STEP));
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
    if (Number.isFinite(value)) next.downPayment = onSliderStep(value, next.carPrice);
  }
  if (early.termMonths !== undefined && terms.includes(Number(early.termMonths)))
    next.termMonths = Number(early.termMonths);
  if (early.annualRatePercent !== undefined)
    next.annualRatePercent = parseInterestRate(early.annualRatePercent);
  if (early.insurance !== undefined) next.insurance = early.insurance === "true";
  if (early.maintenance !== undefined) next.maintenance = early.maintenance === "true";
  return next;
}
