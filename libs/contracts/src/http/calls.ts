import { z } from "zod";
import { IsoDateTime, Uuid } from "../entities/common";

// "Bellen": staff log the call they made when they come back to the panel. A call that reached the
// customer (bereikt) is a first response.

export const CALL_OUTCOMES = ["bereikt", "geen_gehoor", "voicemail", "verkeerd_nummer"] as const;
export const CallOutcome = z.enum(CALL_OUTCOMES, {
  error: "Kies hoe het gesprek ging: bereikt, geen gehoor, voicemail of verkeerd nummer",
});
export type CallOutcome = z.infer<typeof CallOutcome>;

/** What the panel shows for each outcome. */
export const CALL_OUTCOME_LABELS: Record<CallOutcome, string> = {
  bereikt: "Bereikt",
  geen_gehoor: "Geen gehoor",
  voicemail: "Voicemail ingesproken",
  verkeerd_nummer: "Verkeerd nummer",
};

export const CALL_NOTE_MAX_LENGTH = 1000;

export const LogCallBody = z
  .strictObject({
    outcome: CallOutcome,
    note: z
      .string({ error: "Een notitie is tekst" })
      .trim()
      .max(CALL_NOTE_MAX_LENGTH, { error: "Een notitie bij een gesprek mag hoogstens 1.000 tekens zijn" })
      .refine((note) => !note.includes("\0"), { error: "De notitie bevat een ongeldig teken" })
      .optional()
      .transform((note) => (note ? note : undefined)),
  })
  .describe("A call made to the customer and how it went");
export type LogCallBody = z.input<typeof LogCallBody>;

export const LeadCall = z
  .object({
    id: Uuid,
    outcome: CallOutcome,
    note: z.string().nullable(),
    by: z.string().describe("Username of the admin who called"),
    at: IsoDateTime,
  })
  .describe("A call staff logged for a lead");
export type LeadCall = z.infer<typeof LeadCall>;
