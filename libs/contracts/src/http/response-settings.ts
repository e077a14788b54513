import { z } from "zod";
import { CalendarDate, IsoDateTime } from "../entities/common";

// Who answers a lead, and how fast: the rule that gives a new lead its owner, the promised time to
// a first response (the public site's own promises as defaults) and the working hours that time is
// counted in. Leads owns them (services/leads/README.md, "Owners and response times").

export const ASSIGNMENT_RULES = ["round-robin", "least-open", "manual"] as const;
export const AssignmentRule = z.enum(ASSIGNMENT_RULES, {
  error: "Kies hoe nieuwe aanvragen worden toegewezen: round-robin, least-open of manual",
});
export type AssignmentRule = z.infer<typeof AssignmentRule>;

export const RESPONSE_BASES = ["working", "clock"] as const;
export const ResponseBasis = z.enum(RESPONSE_BASES, {
  error: "Kies of de termijn in werkuren (working) of in klokuren (clock) telt",
});
export type ResponseBasis = z.infer<typeof ResponseBasis>;

/** The longest promise that can be set: 30 days (in minutes). */
export const RESPONSE_MINUTES_MAX = 30 * 24 * 60;

const minutes = (what: string) =>
  z
    .number({ error: `Vul de termijn voor ${what} in minuten in` })
    .int({ error: `De termijn voor ${what} is een heel aantal minuten` })
    .min(1, { error: `De termijn voor ${what} is minstens 1 minuut` })
    .max(RESPONSE_MINUTES_MAX, { error: `De termijn voor ${what} is hoogstens 30 dagen (43200 minuten)` });

/** "09:00": a time of day, 24-hour clock. */
const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const TIME_MESSAGE = "Geef een tijd op als UU:MM, bijvoorbeeld 09:00";

/** Minutes since midnight of "HH:MM" ("24:00" is 1440, the end of the day). */
export const minutesOfDay = (time: string): number => {
  const [h, m] = time.split(":").map(Number);
  return h! * 60 + m!;
};

export const WorkingHours = z
  .object({
    days: z
      .array(
        z
          .number({ error: "Een werkdag is een getal van 1 (maandag) tot en met 7 (zondag)" })
          .int({ error: "Een werkdag is een getal van 1 (maandag) tot en met 7 (zondag)" })
          .min(1, { error: "Een werkdag is een getal van 1 (maandag) tot en met 7 (zondag)" })
          .max(7, { error: "Een werkdag is een getal van 1 (maandag) tot en met 7 (zondag)" }),
        { error: "Kies de werkdagen" },
      )
      .min(1, { error: "Kies minstens één werkdag" })
      .max(7, { error: "Een week heeft zeven dagen" })
      .refine((days) => new Set(days).size === days.length, { error: "Elke werkdag mag maar één keer" })
      .transform((days) => [...days].sort((a, b) => a - b))
      .describe("ISO weekdays: 1 = Monday … 7 = Sunday"),
    from: z.string({ error: TIME_MESSAGE }).regex(TIME_OF_DAY, { error: TIME_MESSAGE }),
    to: z
      .string({ error: TIME_MESSAGE })
      .regex(/^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/, { error: `${TIME_MESSAGE} (of 24:00)` })
      .describe('"24:00" for the end of the day'),
  })
  .refine((hours) => minutesOfDay(hours.from) < minutesOfDay(hours.to), {
    error: "De werktijd moet eindigen na het begin",
    path: ["to"],
  });
export type WorkingHours = z.infer<typeof WorkingHours>;

export const CLOSED_DAYS_MAX = 366;

const closedDays = z
  .array(
    CalendarDate.refine((day) => day >= "2000-01-01" && day < "2100-01-01", {
      error: "Kies een datum tussen 2000 en 2100",
    }),
    { error: "Geef de gesloten dagen op als lijst van datums (JJJJ-MM-DD)" },
  )
  .max(CLOSED_DAYS_MAX, { error: `Hoogstens ${CLOSED_DAYS_MAX} gesloten dagen` })
  .transform((days) => [...new Set(days)].sort())
  .describe("Extra closed days (Amsterdam), besides the Dutch public holidays");

/**
 * The settings as stored. Each promise has its own basis: the site promises an answer to a quote
 * request within 24 hours (clock time) and to a message within 4 hours on working days.
 */
export const ResponseSettings = z
  .object({
    assignment: AssignmentRule.describe(
      "round-robin: in turn among the admins who take new leads; least-open: the one with the fewest open leads; manual: nobody (assigned by hand)",
    ),
    quoteMinutes: minutes("offerteaanvragen").describe("The promise for a quote request (default 24 hours)"),
    quoteBasis: ResponseBasis,
    contactMinutes: minutes("contactberichten").describe(
      "The promise for a contact message (default 4 working hours)",
    ),
    contactBasis: ResponseBasis,
    workingHours: WorkingHours,
    closedDays,
  })
  .describe("Lead assignment, the promised response times and the working hours they count in");
export type ResponseSettings = z.infer<typeof ResponseSettings>;

const BASIS_MISSING = "Kies of de termijn in werkuren (working) of in klokuren (clock) telt";

/**
 * The whole of the settings. `basis` sets both promises' basis; `quoteBasis` or `contactBasis`
 * sets one (and wins over `basis`).
 */
export const UpdateResponseSettingsBody = z
  .strictObject({
    assignment: ResponseSettings.shape.assignment,
    quoteMinutes: ResponseSettings.shape.quoteMinutes,
    contactMinutes: ResponseSettings.shape.contactMinutes,
    basis: ResponseBasis.optional().describe("Both promises' basis"),
    quoteBasis: ResponseBasis.optional(),
    contactBasis: ResponseBasis.optional(),
    workingHours: WorkingHours,
    closedDays,
  })
  .superRefine((body, ctx) => {
    for (const key of ["quoteBasis", "contactBasis"] as const)
      if (!body[key] && !body.basis) ctx.addIssue({ code: "custom", path: [key], message: BASIS_MISSING });
  })
  .transform(({ basis, ...body }): ResponseSettings => ({
    ...body,
    quoteBasis: (body.quoteBasis ?? basis)!,
    contactBasis: (body.contactBasis ?? basis)!,
  }))
  .describe("The whole of the response settings");
export type UpdateResponseSettingsBody = z.input<typeof UpdateResponseSettingsBody>;

export const ResponseSettingsResponse = ResponseSettings.extend({
  basis: ResponseBasis.nullable().describe("Both promises' basis; null when they differ"),
  updatedAt: IsoDateTime.nullable().describe("null: the defaults, never saved"),
});
export type ResponseSettingsResponse = z.infer<typeof ResponseSettingsResponse>;

/**
 * The public site's promises: an answer to a quote request within 24 hours, to a message within 4
 * hours on working days; phone hours Monday to Friday 9:00–17:30 (Europe/Amsterdam).
 */
export const DEFAULT_RESPONSE_SETTINGS: ResponseSettings = {
  assignment: "round-robin",
  quoteMinutes: 24 * 60,
  contactMinutes: 4 * 60,
  quoteBasis: "clock",
  contactBasis: "working",
  workingHours: { days: [1, 2, 3, 4, 5], from: "09:00", to: "17:30" },
  closedDays: [],
};

export const SetLeadOwnerBody = z
  .strictObject({ ownerId: z.uuid({ error: "Kies een beheerder" }) })
  .describe("The admin who is to answer the lead (an active admin)");
export type SetLeadOwnerBody = z.infer<typeof SetLeadOwnerBody>;
