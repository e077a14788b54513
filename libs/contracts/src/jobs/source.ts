import { z } from "zod";

/** What a lead is: a quote request or a contact message (jobs, events, the response report). */
export const JobSource = z.enum(["lease_request", "contact_form"]);
export type JobSource = z.infer<typeof JobSource>;
