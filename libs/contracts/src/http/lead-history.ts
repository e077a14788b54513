import { z } from "zod";
import { IsoDateTime, Uuid } from "../entities/common";
import { LeadOwner, LeaseStatus, LostReason } from "../entities/lease-request";
import { LeadCall } from "./calls";
import { LeadEmail } from "./lead-emails";

/** A staff note is plain text of at most this many characters. */
export const NOTE_MAX_LENGTH = 5000;
export const NOTE_REQUIRED_MESSAGE = "Vul een notitie in";
export const NOTE_TOO_LONG_MESSAGE = "Een notitie mag hoogstens 5.000 tekens zijn";

export const NoteBody = z
  .strictObject({
    body: z
      .string({ error: NOTE_REQUIRED_MESSAGE })
      .trim()
      .min(1, { error: NOTE_REQUIRED_MESSAGE })
      .max(NOTE_MAX_LENGTH, { error: NOTE_TOO_LONG_MESSAGE })
      .refine((body) => !body.includes("\0"), { error: "De notitie bevat een ongeldig teken" })
      .describe("Plain text, at most 5,000 characters"),
  })
  .describe("A staff note on a lease request");
export type NoteBody = z.infer<typeof NoteBody>;

export const NoteIdParams = z.object({
  id: z.uuid({ error: "Ongeldig id" }),
  noteId: z.uuid({ error: "Ongeldig notitie-id" }),
});
export type NoteIdParams = z.infer<typeof NoteIdParams>;

export const LeadNote = z
  .object({
    id: Uuid,
    leaseRequestId: Uuid,
    author: z.string().describe("Username of the admin who wrote it (names are never given again)"),
    authorId: Uuid.nullable().describe(
      "The author's immutable id; only that admin may edit or delete the note (null: written before ids, read-only)",
    ),
    body: z.string(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime.nullable().describe("Null until edited"),
  })
  .describe("A staff note on a lease request");
export type LeadNote = z.infer<typeof LeadNote>;

export const LeadHistoryEntry = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("received"), at: IsoDateTime }).describe("The request arrived"),
  z
    .object({
      kind: z.literal("status"),
      at: IsoDateTime,
      from: LeaseStatus.nullable(),
      to: LeaseStatus,
      by: z.string().describe("Username of the admin who changed it"),
      monthlyAmount: z.number().nullable().default(null).describe("Euros a month (offerte, getekend)"),
      commission: z.number().nullable().default(null).describe("Commission in euros (getekend)"),
      contractTerm: z.number().int().nullable().default(null).describe("Months (getekend)"),
      lostReason: LostReason.nullable().default(null).describe("Why lost (verloren)"),
      note: z.string().nullable().default(null).describe("The note given with verloren"),
    })
    .describe("A status change"),
  z.object({ kind: z.literal("note"), at: IsoDateTime, note: LeadNote }).describe("A staff note"),
  z
    .object({ kind: z.literal("email"), at: IsoDateTime, email: LeadEmail })
    .describe("A reply received for the lead, or an e-mail sent to it with its delivery state"),
  z
    .object({
      kind: z.literal("owner"),
      at: IsoDateTime,
      owner: LeadOwner.nullable().describe("null: nobody (the owner left under manual assignment)"),
      reason: z
        .enum(["rule", "manual", "handover"])
        .describe(
          "rule: on arrival; manual: reassigned from the detail; handover: the owner was disabled or removed",
        ),
      by: z.string().nullable().describe("The admin who reassigned it (manual)"),
    })
    .describe('"Toegewezen aan …"'),
  z.object({ kind: z.literal("call"), at: IsoDateTime, call: LeadCall }).describe("A call staff logged"),
]);
export type LeadHistoryEntry = z.infer<typeof LeadHistoryEntry>;

/** At most this many status changes and this many notes are returned (newest first). */
export const LEAD_HISTORY_LIMIT = 500;

export const LeadHistory = z
  .object({
    items: z
      .array(LeadHistoryEntry)
      .describe(
        "Newest first: the receipt, status changes, notes, the customer's replies (with their attachments) and the e-mails sent to the lead with their delivery state",
      ),
  })
  .describe("A lease request's history");
export type LeadHistory = z.infer<typeof LeadHistory>;
