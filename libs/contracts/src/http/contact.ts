import { z } from "zod";
import {
  MESSAGE_MIN_MESSAGE,
  emailAddress,
  honeypot,
  maxLengthMessage,
  optionalField,
  phoneNumber,
} from "./fields";
import { FormSessionId } from "./tracking";

export const ContactBody = z
  .strictObject({
    name: z
      .string({ error: "Naam is verplicht" })
      .trim()
      .min(1, { error: "Naam is verplicht" })
      .max(200, { error: maxLengthMessage(200) }),
    email: emailAddress(),
    phone: optionalField(phoneNumber()),
    message: z
      .string({ error: MESSAGE_MIN_MESSAGE })
      .trim()
      .min(10, { error: MESSAGE_MIN_MESSAGE })
      .max(5000, { error: maxLengthMessage(5000) }),
    website: honeypot(),
    sessionId: FormSessionId,
  })
  .describe("Message from the contact section; logged to the admin inbox");
export type ContactBody = z.infer<typeof ContactBody>;

export const ContactResponse = z.object({ id: z.uuid() }).describe("201 Created");
export type ContactResponse = z.infer<typeof ContactResponse>;
