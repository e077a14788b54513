import { z } from "zod";
import { CALCULATOR_TERMS } from "./lease-request";

export const INSURANCE_MONTHLY = 150;
export const MAINTENANCE_MONTHLY = 120;

export const CALCULATOR_DEFAULTS = {
  carPrice: 25000,
  downPayment: 5000,
  termMonths: 48,
  annualRatePercent: 4.5,
  insurance: true,
  maintenance: false,
} as const;

/** Input ranges of the calculator form; the computation itself lives in web. */
export const CALCULATOR_LIMITS = {
  carPriceMin: 1000,
  carPriceMax: 200000,
  downPaymentMaxShare: 0.5,
  downPaymentStep: 500,
  downPaymentResetShare: 0.2,
  rateMin: 0,
  rateMax: 20,
  rateStep: 0.1,
} as const;

export const LeaseCalculatorInput = z.object({
  carPrice: z.number().default(CALCULATOR_DEFAULTS.carPrice),
  downPayment: z.number().default(CALCULATOR_DEFAULTS.downPayment),
  termMonths: z
    .number()
    .int()
    .default(CALCULATOR_DEFAULTS.termMonths)
    .describe(`The form offers ${CALCULATOR_TERMS.join(", ")} months`),
  annualRatePercent: z.number().default(CALCULATOR_DEFAULTS.annualRatePercent),
  insurance: z.boolean().default(CALCULATOR_DEFAULTS.insurance),
  maintenance: z.boolean().default(CALCULATOR_DEFAULTS.maintenance),
});
export type LeaseCalculatorInput = z.infer<typeof LeaseCalculatorInput>;

/** All amounts in whole euros. */
export const LeaseCalculatorResult = z.object({
  monthlyPayment: z.number().int(),
  totalCost: z.number().int(),
  totalInterest: z.number().int(),
  baseLease: z.number().int(),
  additionalCosts: z.number().int(),
});
export type LeaseCalculatorResult = z.infer<typeof LeaseCalculatorResult>;
