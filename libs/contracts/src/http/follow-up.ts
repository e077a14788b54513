import { z } from "zod";
import { CalendarDate } from "../entities/common";

export const FOLLOW_UP_RANGE_MESSAGE = "Kies een datum tussen 2000 en 2100";

export const SetFollowUpBody = z
  .strictObject({
    followUpOn: CalendarDate.refine(
      // Only a real day gets here (CalendarDate stops at a bad one).
      (day) => day >= "2000-01-01" && day < "2100-01-01",
      { error: FOLLOW_UP_RANGE_MESSAGE },
    )
      .nullable()
      .describe('"Opvolgen op" as YYYY-MM-DD; null clears it'),
  })
  .describe("Set or clear a lease request's follow-up day");
export type SetFollowUpBody = z.infer<typeof SetFollowUpBody>;

/** leads → mailer: how many lease requests are to be followed up today or earlier. */
export const InternalFollowUpsDue = z.object({ due: z.number().int().min(0) });
export type InternalFollowUpsDue = z.infer<typeof InternalFollowUpsDue>;

/** leads → mailer: an admin as leads knows them, for the admin's own notices (GET /internal/staff/{id}). */
export const InternalStaff = z.object({
  id: z.uuid(),
  username: z.string(),
  active: z.boolean(),
  notifyEmail: z.string().nullable(),
  overdueEmail: z.boolean(),
  weeklySummary: z.boolean(),
});
export type InternalStaff = z.infer<typeof InternalStaff>;
