import { z } from "zod";
import { PublicCompanySettings } from "../entities/company-settings";
import { LeaseRequest } from "../entities/lease-request";
import { emailAddress } from "./fields";

// Service-to-service answers on /internal/* routes (never reached through the gateway; they need
// the INTERNAL_TOKEN header). They may carry data the public API never shows.

/** settings → mailer: the decrypted provider key and sender, plus the company details for mail bodies. */
export const InternalMailSettings = z.object({
  sendgridApiKey: z.string().nullable(),
  fromEmailAddress: z.string().nullable(),
  company: PublicCompanySettings,
});
export type InternalMailSettings = z.infer<typeof InternalMailSettings>;

/** leads → mailer: one lease request, for the inbox entry and the company notification. */
export const InternalLeaseRequest = LeaseRequest;
export type InternalLeaseRequest = z.infer<typeof InternalLeaseRequest>;

/** leads → mailer: one message of the public contact form. */
export const InternalContactMessage = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  message: z.string(),
  createdAt: z.string(),
});
export type InternalContactMessage = z.infer<typeof InternalContactMessage>;

/** settings → mailer: send a test message to the configured sender address. */
export const InternalTestEmailBody = z.strictObject({ to: emailAddress() });
export type InternalTestEmailBody = z.infer<typeof InternalTestEmailBody>;
