import { z } from "zod";
import { IsoDateTime, Uuid } from "./common";

export const LeaseStatus = z.enum(["nieuw", "bekeken", "gereageerd"]);
export type LeaseStatus = z.infer<typeof LeaseStatus>;

/** Terms offered by the quote form, in months. */
export const LEASE_TERMS = [24, 36, 48, 60] as const;
export const LeaseTerm = z.literal(LEASE_TERMS, {
  error: "Kies een looptijd van 24, 36, 48 of 60 maanden",
});
export type LeaseTerm = z.infer<typeof LeaseTerm>;

/** Terms offered by the calculator, in months (one more than the quote form). */
export const CALCULATOR_TERMS = [24, 36, 48, 60, 72] as const;

export const LeaseRequest = z
  .object({
    id: Uuid,
    carUrl: z.string(),
    contactNumber: z.string(),
    email: z.string(),
    companyName: z.string().nullable(),
    leaseTerm: z.number().int().nullable().describe("Months"),
    message: z.string().nullable(),
    status: LeaseStatus,
    isRead: z.boolean(),
    createdAt: IsoDateTime,
    duplicateOf: Uuid.nullable().describe(
      "Id of an earlier request from the same e-mail address or phone number within 90 days",
    ),
    followUpOn: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable()
      .default(null)
      .describe(
        '"Opvolgen op" (YYYY-MM-DD, an Amsterdam day) to follow this request up; null when none is set',
      ),
  })
  .describe("A quote request sent from the public lease form");
export type LeaseRequest = z.infer<typeof LeaseRequest>;
